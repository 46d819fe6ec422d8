package learners

import (
	"math"
	"math/rand/v2"
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

// randomPlanTask draws a random small task for the planner tests: 2 to 8 states, 1 to 3 actions,
// a discount among 0, 0.5, 0.9 and 0.95, and half the time one terminal state.
func randomPlanTask(rng *rand.Rand) (S, A int, gamma float64, terminal []bool) {
	S, A = 2+rng.IntN(7), 1+rng.IntN(3)
	gamma = []float64{0, 0.5, 0.9, 0.95}[rng.IntN(4)]
	if rng.IntN(2) == 0 {
		terminal = make([]bool, S)
		terminal[rng.IntN(S)] = true
	}
	return S, A, gamma, terminal
}

// planned is a learner whose model the planner tests change: E3, MBIE-EB and RMax.
type planned interface {
	Record(i, next int, r float64) bool
	Augment(i int, add []mdp.Succ, reward float64)
	Replace(i int, succ []mdp.Succ, reward float64)
	ObserveTerminal(s int)
}

// A planChange is one kind of change the planner tests make to a learner's model.
type planChange int

const (
	recordSample  planChange = iota // a sample
	augmentPair                     // an augmentation: two successors' counts added
	withdrawPair                    // a withdrawn augmentation: the pair's statistics start again, in another order
	withdrawToOne                   // a withdrawn augmentation leaving one sample: a known pair may become unknown
	learnTerminal                   // a terminal state learned from a step, one time in four
)

// changeAtRandom draws one change of a task of S states and A actions and makes it to each
// learner: a pair, a next state and a reward in [−1, 1), then a number of 10, whose kind is
// kinds[number] (a sample past the end of kinds), and what that kind draws.
func changeAtRandom(rng *rand.Rand, S, A int, kinds []planChange, learners ...planned) {
	i, next, r := rng.IntN(S*A), rng.IntN(S), rng.Float64()*2-1
	kind := recordSample
	if d := rng.IntN(10); d < len(kinds) {
		kind = kinds[d]
	}
	switch kind {
	case augmentPair:
		add := []mdp.Succ{{State: int32(next), N: 1 + rng.Int64N(3)}, {State: int32(rng.IntN(S)), N: 1}}
		for _, l := range learners {
			l.Augment(i, add, r)
		}
	case withdrawPair:
		succ := []mdp.Succ{{State: int32(rng.IntN(S)), N: 1 + rng.Int64N(4)}}
		if s2 := int32(rng.IntN(S)); s2 != succ[0].State {
			succ = append(succ, mdp.Succ{State: s2, N: 1})
		}
		for _, l := range learners {
			l.Replace(i, succ, r)
		}
	case withdrawToOne:
		for _, l := range learners {
			l.Replace(i, []mdp.Succ{{State: int32(next), N: 1}}, r)
		}
	case learnTerminal:
		if rng.IntN(4) == 0 {
			for _, l := range learners {
				l.ObserveTerminal(next)
			}
		}
	default:
		for _, l := range learners {
			l.Record(i, next, r)
		}
	}
}
