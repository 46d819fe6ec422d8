package mdp

import (
	"math"
	"testing"
)

// coin is a one-state, one-action MDP that stays with probability 1 − p and moves to the
// absorbing state 1 with probability p, paying r either way.
func coin(t *testing.T, p, r float64) *Model {
	t.Helper()
	m, err := New(2, 1, [][]Transition{
		{{Next: 0, Prob: 1 - p, Reward: r}, {Next: 1, Prob: p, Reward: r}},
		{{Next: 1, Prob: 1}},
	}, []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The distance by hand: state 0's rows differ by (−0.3, 0.3), of L2 norm 0.3·√2, and their
// rewards by 0.5; state 1's rows are equal.
func TestDistanceHandComputed(t *testing.T) {
	x, y := coin(t, 0.2, 1), coin(t, 0.5, 1.5)
	want := 0.3*math.Sqrt2 + 0.5
	if d := Distance(x, y); math.Abs(d-want) > 1e-12 {
		t.Errorf("Distance = %v, want %v", d, want)
	}
	if d := Distance(y, x); math.Abs(d-want) > 1e-12 {
		t.Errorf("Distance is not symmetric: %v, want %v", d, want)
	}
	if d := Distance(x, chain(t)); !math.IsInf(d, 1) {
		t.Errorf("Distance between models of other sizes = %v, want +Inf", d)
	}
}

// The gap is the smallest distance between distinct models; equal models do not make it 0.
func TestModelGapSkipsEqualModels(t *testing.T) {
	a, b, c := coin(t, 0.2, 1), coin(t, 0.2, 1), coin(t, 0.3, 1)
	if got, want := ModelGap([]*Model{a, b, c}), 0.1*math.Sqrt2; math.Abs(got-want) > 1e-12 {
		t.Errorf("ModelGap = %v, want %v", got, want)
	}
	if got := ModelGap([]*Model{a, b}); !math.IsInf(got, 1) {
		t.Errorf("ModelGap of equal models = %v, want +Inf", got)
	}
}
