// Package template implements transition templates (TempLe, paper Definitions 2, 5 and 7):
// the ranking permutation σ of a pair's next-state vector, the template distance ρ, learned
// templates with their accumulated visits, the template library with TT-update, augmentation
// through σ⁻¹ and end-of-task consolidation, and the ground-truth templates of a known model.
package template

import (
	"cmp"
	"math"
	"slices"
)

// Point is a template's mean g = (g^(p), g^(r)): next-state probabilities in non-increasing order
// (trailing zeros dropped) and the expected reward.
type Point struct {
	P []float64
	R float64
}

// Distance is the template distance ρ(g_a, g_b) = ‖g_a^(p) − g_b^(p)‖₂ + |g_a^(r) − g_b^(r)| of paper
// Definition 5. The shorter probability vector is padded with zeros, so templates learned in tasks
// with different numbers of states compare directly.
func Distance(x, y Point) float64 {
	if len(x.P) < len(y.P) {
		x, y = y, x
	}
	sum := 0.0
	for i, p := range x.P {
		d := p
		if i < len(y.P) {
			d -= y.P[i]
		}
		sum += d * d
	}
	return math.Sqrt(sum) + math.Abs(x.R-y.R)
}

// Ranking returns the ranking permutation σ of x (paper Definition 7): σ[k] is the index of the
// k-th largest element, and equal elements keep ascending index order.
func Ranking[T cmp.Ordered](x []T) []int {
	sigma := make([]int, len(x))
	for i := range sigma {
		sigma[i] = i
	}
	slices.SortStableFunc(sigma, func(i, j int) int { return cmp.Compare(x[j], x[i]) })
	return sigma
}

// Inverse returns σ⁻¹: Inverse(σ)[i] is the rank of element i.
func Inverse(sigma []int) []int {
	inv := make([]int, len(sigma))
	for k, i := range sigma {
		inv[i] = k
	}
	return inv
}
