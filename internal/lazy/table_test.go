package lazy

import (
	"math/rand/v2"
	"testing"
)

// A blocked table reads and writes as a plain slice does, and allocates only the blocks written.
func TestTableMatchesASlice(t *testing.T) {
	for _, n := range []int{10, FlatMax, FlatMax + 1, 3*FlatMax + 17} {
		var tab Table[float64]
		tab.Reset(n, -0.5)
		want := make([]float64, n)
		for i := range want {
			want[i] = -0.5
		}
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		for range 5000 {
			i := rng.IntN(n)
			if rng.IntN(2) == 0 {
				x := rng.Float64()
				tab.Set(i, x)
				want[i] = x
			} else {
				*tab.Ptr(i) += 1
				want[i]++
			}
			j := rng.IntN(n)
			if tab.At(j) != want[j] {
				t.Fatalf("n = %d: entry %d = %v, want %v", n, j, tab.At(j), want[j])
			}
		}
		for i := range want {
			if tab.At(i) != want[i] {
				t.Fatalf("n = %d: entry %d = %v, want %v", n, i, tab.At(i), want[i])
			}
		}
		if n > FlatMax && blocks(&tab) > 5000*2 {
			t.Fatalf("n = %d: %d blocks for at most 10000 writes", n, blocks(&tab))
		}
		if n > FlatMax && blocks(&tab) == (n+BlockEntries-1)>>blockBits {
			t.Fatalf("n = %d: every block allocated", n)
		}
		// Reset drops everything.
		tab.Reset(n, 0)
		if tab.At(n-1) != 0 || tab.At(0) != 0 {
			t.Fatalf("n = %d: values survived Reset", n)
		}
	}
}

// Reuse keeps the storage of a flat table's values.
func TestReuseKeepsStorage(t *testing.T) {
	var tab Table[[]int]
	tab.Reset(4, nil)
	tab.Set(2, make([]int, 3, 8))
	tab.Reuse(4, func(x []int) []int { return x[:0] })
	if x := tab.At(2); len(x) != 0 || cap(x) != 8 {
		t.Fatalf("entry 2 has length %d and capacity %d, want 0 and 8", len(x), cap(x))
	}
	tab.Reuse(FlatMax+1, func(x []int) []int { return x[:0] })
	if tab.At(2) != nil || blocks(&tab) != 0 {
		t.Fatal("a blocked table kept values")
	}
}

// blocks is the number of blocks of t with their own storage (0 for a flat table).
func blocks[T any](t *Table[T]) int {
	n := 0
	for _, o := range t.owned {
		if o {
			n++
		}
	}
	return n
}
