package template

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// The dense definitions the sparse forms must equal bit for bit: σ over all S states, visits and
// templates as vectors over every rank, zero-padded.

// denseRanking is σ of x over all its indices: descending, equal elements in ascending index.
func denseRanking(x []int64) []int {
	sigma := make([]int, len(x))
	for i := range sigma {
		sigma[i] = i
	}
	slices.SortStableFunc(sigma, func(i, j int) int { return cmp.Compare(x[j], x[i]) })
	return sigma
}

// denseRanked is x reordered by σ, trailing zeros dropped.
func denseRanked(x []int64, sigma []int) []int64 {
	out, last := []int64{}, 0
	for k, i := range sigma {
		out = append(out, x[i])
		if x[i] != 0 {
			last = k + 1
		}
	}
	return out[:last]
}

// denseUpdate is TT-update on dense visits.
func denseUpdate(v, add []int64) []int64 {
	for len(v) < len(add) {
		v = append(v, 0)
	}
	for k, x := range add {
		v[k] += x
	}
	return v
}

// denseMean is o / ‖o‖₁ over every rank.
func denseMean(v []int64) []float64 {
	var n int64
	for _, x := range v {
		n += x
	}
	p := make([]float64, len(v))
	for k, x := range v {
		p[k] = float64(x) / float64(n)
	}
	return p
}

// denseDistance is ρ on zero-padded vectors.
func denseDistance(x, y []float64, rx, ry float64) float64 {
	if len(x) < len(y) {
		x, y = y, x
	}
	sum := 0.0
	for i, p := range x {
		d := p
		if i < len(y) {
			d -= y[i]
		}
		sum += d * d
	}
	return math.Sqrt(sum) + math.Abs(rx-ry)
}

// denseAugmentation places rank k at state σ[k], ranks beyond S left out.
func denseAugmentation(v []int64, sigma []int) []mdp.Succ {
	var out []mdp.Succ
	for k, x := range v {
		if k >= len(sigma) {
			break
		}
		if x != 0 {
			out = append(out, mdp.Succ{State: int32(sigma[k]), N: x})
		}
	}
	return out
}

// randomCounts draws a count vector over S states with many zeros and ties, and its sparse form
// in a random order.
func randomCounts(rng *rand.Rand, S int) ([]int64, []mdp.Succ) {
	dense := make([]int64, S)
	var sparse []mdp.Succ
	for s := range dense {
		if rng.IntN(3) == 0 {
			dense[s] = 1 + rng.Int64N(3)
			sparse = append(sparse, mdp.Succ{State: int32(s), N: dense[s]})
		}
	}
	rng.Shuffle(len(sparse), func(i, j int) { sparse[i], sparse[j] = sparse[j], sparse[i] })
	return dense, sparse
}

func toDense(c []Count) []int64 {
	var out []int64
	for _, x := range c {
		for int32(len(out)) < x.Rank {
			out = append(out, 0)
		}
		out = append(out, x.N)
	}
	return out
}

func TestSparseEqualsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 5000; trial++ {
		S := 1 + rng.IntN(12)
		dense, sparse := randomCounts(rng, S)
		sigma, ranked := Ranking(sparse, S)
		dSigma := denseRanking(dense)
		// σ: every state's rank, seen or not.
		for k, s := range dSigma {
			if r := sigma.Rank(int32(s)); r != int32(k) {
				t.Fatalf("counts %v: σ⁻¹(%d) = %d, dense %d", dense, s, r, k)
			}
		}
		if got, want := toDense(ranked), denseRanked(dense, dSigma); !slices.Equal(got, want) && len(want) > 0 {
			t.Fatalf("counts %v: ranked %v, dense %v", dense, got, want)
		}
		// A later count vector ranked by the same σ, with states the pair had not seen.
		later, laterSparse := randomCounts(rng, S)
		if got, want := toDense(sigma.Ranked(laterSparse)), denseRanked(later, dSigma); !slices.Equal(got, want) && len(want) > 0 {
			t.Fatalf("σ of %v applied to %v: %v, dense %v", dense, later, got, want)
		}
		// Augmentation of a template that may be longer than S and has zero ranks.
		tv := make([]int64, rng.IntN(S+4))
		for k := range tv {
			if rng.IntN(2) == 0 {
				tv[k] = rng.Int64N(4)
			}
		}
		tm := &Template{Visits: descCounts(tv)}
		if got, want := tm.Augmentation(sigma), denseAugmentation(tv, dSigma); !slices.Equal(got, want) && len(want)+len(got) > 0 {
			t.Fatalf("template %v through σ of %v: %v, dense %v", tv, dense, got, want)
		}
		// Its mean put back in state order: pair[σ[k]] = g[k], ranks beyond S left out.
		if len(tm.Visits) > 0 {
			g := tm.Mean()
			pair := make([]float64, S)
			for k, p := range denseMean(tv) {
				if k < S {
					pair[dSigma[k]] = p
				}
			}
			var want []StateProb
			for s, p := range pair {
				if p != 0 {
					want = append(want, StateProb{State: int32(s), P: p})
				}
			}
			if got := g.Placed(sigma); !slices.Equal(got, want) && len(want)+len(got) > 0 {
				t.Fatalf("template %v placed through σ of %v: %v, dense %v", tv, dense, got, want)
			}
		}
	}
}

func descCounts(v []int64) []Count {
	var out []Count
	for k, n := range v {
		if n != 0 {
			out = append(out, Count{Rank: int32(k), N: n})
		}
	}
	return out
}

// TestTemplatesEqualDense runs TT-updates, distances and consolidation on random templates, sparse
// and dense side by side, and requires the same bits.
func TestTemplatesEqualDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 300; trial++ {
		tau := 0.05 + rng.Float64()*0.5
		lib, _ := NewLibrary(tau)
		var dv [][]int64
		var dr []float64
		for k := 0; k < 2+rng.IntN(8); k++ {
			S := 1 + rng.IntN(10)
			d, s := randomCounts(rng, S)
			if len(s) == 0 {
				continue
			}
			sigma, ranked := Ranking(s, S)
			r := rng.Float64()
			tm := lib.Add(ranked, r)
			dSigma := denseRanking(d)
			v := denseRanked(d, dSigma)
			// A remainder ranked by the identification σ, as at the end of a task.
			ld, ls := randomCounts(rng, S)
			tm.Update(sigma.Ranked(ls), 0.5)
			v = denseUpdate(v, denseRanked(ld, dSigma))
			dv, dr = append(dv, v), append(dr, r+0.5)
			if !slices.Equal(toDense(tm.Visits), v) {
				t.Fatalf("visits %v, dense %v", toDense(tm.Visits), v)
			}
		}
		ts := lib.Templates()
		for i := range ts {
			for j := range ts {
				got := Distance(ts[i].Mean(), ts[j].Mean())
				want := denseDistance(denseMean(dv[i]), denseMean(dv[j]), ts[i].Mean().R, ts[j].Mean().R)
				if got != want {
					t.Fatalf("ρ(%v, %v) = %v, dense %v", dv[i], dv[j], got, want)
				}
			}
		}
		// Consolidation, dense: merge j into i when ρ < τ̂, distances taken before any merge.
		n := len(dv)
		means, rewards := make([][]float64, n), make([]float64, n)
		for i := range dv {
			means[i], rewards[i] = denseMean(dv[i]), dr[i]/float64(sum(dv[i]))
		}
		gone := make([]bool, n)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n && !gone[i]; j++ {
				if !gone[j] && denseDistance(means[i], means[j], rewards[i], rewards[j]) < tau {
					dv[i] = denseUpdate(dv[i], dv[j])
					gone[j] = true
				}
			}
		}
		lib.Consolidate()
		var kept [][]int64
		for i := range dv {
			if !gone[i] {
				kept = append(kept, dv[i])
			}
		}
		if len(kept) != lib.Len() {
			t.Fatalf("consolidation kept %d templates, dense %d", lib.Len(), len(kept))
		}
		for i, tm := range lib.Templates() {
			if !slices.Equal(toDense(tm.Visits), kept[i]) {
				t.Fatalf("consolidated visits %v, dense %v", toDense(tm.Visits), kept[i])
			}
		}
	}
}

func sum(v []int64) int64 {
	var n int64
	for _, x := range v {
		n += x
	}
	return n
}
