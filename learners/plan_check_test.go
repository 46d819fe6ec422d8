package learners

import (
	"math"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// checkSamePlan fails the test when an incremental plan qi differs from the exact plan qe on S
// states and A actions: a value further than tol apart, or another greedy action in a state whose
// best action leads the second by more than 2·tol (closer actions may swap within the tolerance).
// where says which trial and change of the caller's loop it is.
func checkSamePlan(t *testing.T, where string, qi, qe []float64, S, A int, tol float64) {
	t.Helper()
	for k := range qe {
		if math.Abs(qi[k]-qe[k]) > tol {
			t.Fatalf("%s: q(%d) = %v incrementally, %v in the exact plan", where, k, qi[k], qe[k])
		}
	}
	for s := 0; s < S; s++ {
		row := qe[s*A : s*A+A]
		best := mdp.ArgMax(row)
		second := math.Inf(-1)
		for a, x := range row {
			if a != best {
				second = math.Max(second, x)
			}
		}
		if row[best]-second > 2*tol && mdp.ArgMax(qi[s*A:s*A+A]) != best {
			t.Fatalf("%s: greedy action in state %d differs from the exact plan's %d", where, s, best)
		}
	}
}
