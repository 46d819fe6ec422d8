// Package lazy holds Table, a learner's table of one value per state-action pair that, on a large
// task, allocates its storage only where it is written: a learner on a maze of millions of states
// meets a few hundred of them in a short task, and a plain table would cost it a gigabyte and the
// time to clear it at every task.
package lazy

import "github.com/temple-rl/temple/internal/buf"

// FlatMax is the largest table kept flat: one slice, allocated and filled at Reset, as a plain
// table (every task of the paper's presets). Larger tables are kept in blocks.
const FlatMax = 1 << 20

// blockBits sets the entries per block, BlockEntries = 2^blockBits: a block of float64 is 32 KB.
const blockBits = 12

// BlockEntries is the number of entries of a block.
const BlockEntries = 1 << blockBits

const blockMask = BlockEntries - 1

// Table holds n values of type T, indexed from 0. An entry never written reads as its initial
// value, fill(i) (the zero value when fill is nil). A flat table holds every entry; a blocked
// one allocates a block of 2^blockBits entries, filled, when one of them is first written.
type Table[T any] struct {
	flat    []T
	blocks  [][]T // per block, nil until written; nil when flat
	fill    func(i int) T
	n       int
	blocked bool
}

// Reset makes t a table of n entries, each initially fill(i) (nil: the zero value), dropping
// every value it held; a flat table reuses its storage.
func (t *Table[T]) Reset(n int, fill func(i int) T) {
	t.n, t.fill = n, fill
	if t.blocked = n > FlatMax; t.blocked {
		t.flat = nil
		t.blocks = make([][]T, (n+blockMask)>>blockBits)
		return
	}
	t.blocks = nil
	t.flat = buf.Zeroed(t.flat, n)
	if fill != nil {
		for i := range t.flat {
			t.flat[i] = fill(i)
		}
	}
}

// Reuse is Reset for a table without fill that keeps what it can of its values' storage: each
// entry of a flat table that fits becomes keep(its value) (a slice truncated to length 0, say),
// so that a learner starting a task allocates only when the task is larger than any before.
func (t *Table[T]) Reuse(n int, keep func(T) T) {
	if n > FlatMax || cap(t.flat) < n {
		t.Reset(n, nil)
		return
	}
	t.n, t.fill, t.blocked, t.blocks = n, nil, false, nil
	t.flat = t.flat[:n]
	for i := range t.flat {
		t.flat[i] = keep(t.flat[i])
	}
}

// Len is the number of entries.
func (t *Table[T]) Len() int { return t.n }

// At is entry i.
func (t *Table[T]) At(i int) T {
	if !t.blocked {
		return t.flat[i]
	}
	return t.atBlock(i)
}

func (t *Table[T]) atBlock(i int) T {
	if b := t.blocks[i>>blockBits]; b != nil {
		return b[i&blockMask]
	}
	if t.fill != nil {
		return t.fill(i)
	}
	var zero T
	return zero
}

// Ptr is the address of entry i, valid until the next Reset; its block is allocated if it was
// not.
func (t *Table[T]) Ptr(i int) *T {
	if !t.blocked {
		return &t.flat[i]
	}
	return t.ptrBlock(i)
}

func (t *Table[T]) ptrBlock(i int) *T {
	k := i >> blockBits
	b := t.blocks[k]
	if b == nil {
		lo := k << blockBits
		b = make([]T, min(1<<blockBits, t.n-lo))
		if t.fill != nil {
			for j := range b {
				b[j] = t.fill(lo + j)
			}
		}
		t.blocks[k] = b
	}
	return &b[i&blockMask]
}

// Set writes x to entry i.
func (t *Table[T]) Set(i int, x T) { *t.Ptr(i) = x }

// Blocks is the number of blocks allocated (0 for a flat table).
func (t *Table[T]) Blocks() int {
	n := 0
	for _, b := range t.blocks {
		if b != nil {
			n++
		}
	}
	return n
}
