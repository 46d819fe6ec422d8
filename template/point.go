// Package template implements transition templates (TempLe, paper Definitions 2, 5 and 7):
// the ranking permutation σ of a pair's next-state vector, the template distance ρ, learned
// templates with their accumulated visits, the template library with TT-update, augmentation
// through σ⁻¹ and end-of-task consolidation, the ground-truth templates of a known model, and the
// templates estimated from a simulator's samples (Estimate, for temple inspect).
//
// Everything is stored by its support: a permutation keeps only the states a pair has seen, a
// template only its non-zero ranks, and zero-padding is implicit. Work per pair grows with the k
// outcomes it has seen (O(k log k)), never with the number of states S.
//
// It imports the tabular model (mdp) only: the learners, the runner and the C ABI build on it.
package template

import (
	"math"
)

// Point is a template's mean g = (g^(p), g^(r)): next-state probabilities by rank and the expected
// reward. P holds the non-zero probabilities (zeros may appear and are harmless); Rank[j] is the
// rank of P[j], ascending. A nil Rank means P[j] is at rank j: a pair's own descending estimate
// or a true template. Every rank not listed has probability 0.
type Point struct {
	Rank []int32
	P    []float64
	R    float64
}

// rank is the rank of entry j of g.P.
func (g Point) rank(j int) int32 {
	if g.Rank == nil {
		return int32(j)
	}
	return g.Rank[j]
}

// Distance is the template distance ρ(g_a, g_b) = ‖g_a^(p) − g_b^(p)‖₂ + |g_a^(r) − g_b^(r)| of paper
// Definition 5. Ranks one point does not list are zeros, so templates learned in tasks with
// different numbers of states compare directly. The squares are summed in rank order.
func Distance(x, y Point) float64 {
	sum := 0.0
	i, j := 0, 0
	for i < len(x.P) || j < len(y.P) {
		var d float64
		switch {
		case j == len(y.P) || i < len(x.P) && x.rank(i) < y.rank(j):
			d = x.P[i]
			i++
		case i == len(x.P) || y.rank(j) < x.rank(i):
			d = y.P[j]
			j++
		default:
			d = x.P[i] - y.P[j]
			i, j = i+1, j+1
		}
		sum += d * d
	}
	return math.Sqrt(sum) + math.Abs(x.R-y.R)
}
