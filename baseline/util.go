package baseline

import (
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/mdp"
)

// greedy returns an action maximising q, ties broken uniformly at random with rng.
func greedy(q []float64, rng *rand.Rand) int {
	best, ties := 0, 1
	for a := 1; a < len(q); a++ {
		switch {
		case q[a] > q[best]:
			best, ties = a, 1
		case q[a] == q[best]:
			ties++
		}
	}
	if ties == 1 {
		return best
	}
	k := rng.IntN(ties)
	for a := best; ; a++ {
		if q[a] == q[best] {
			if k == 0 {
				return a
			}
			k--
		}
	}
}

func maxOf(q []float64) float64 {
	m := q[0]
	for _, x := range q[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

// resize returns x with length n and every element zero, reusing its storage when it fits.
func resize[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	x = x[:n]
	clear(x)
	return x
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// addCounts adds every count and reward sum of src to dst (same S and A).
func addCounts(dst, src *mdp.Counts) {
	for i := 0; i < src.S*src.A; i++ {
		for _, x := range src.Successors(i) {
			dst.Add(i, int(x.State), x.N, 0)
		}
		dst.AddReward(i, src.R(i))
	}
}

// cloneCounts returns a deep copy of c.
func cloneCounts(c *mdp.Counts) *mdp.Counts {
	out := mdp.NewCounts(c.S, c.A)
	addCounts(out, c)
	return out
}

// exactTolerance is the max-norm tolerance of the exact solver used on true models (V_max of
// MaxQInit, Q* of Abs-RL's abstractions).
const exactTolerance = 1e-10
