package template

import (
	"math"
	"math/rand/v2"
	"testing"
)

// cycleSim is a simulator of three states and one action whose counts are known by hand: state
// 0 moves to 1 and to 0 in turn, state 1 moves to the terminal state 2 paying 1; resets land in 0.
type cycleSim struct{ s, toggle int }

func (*cycleSim) Size() (int, int)                { return 3, 1 }
func (c *cycleSim) Reset(*rand.Rand) (int, error) { c.s = 0; return 0, nil }
func (c *cycleSim) Step(int) (int, float64, bool, bool, error) {
	if c.s == 1 {
		c.s = 2
		return 2, 1, true, false, nil
	}
	c.toggle ^= 1
	c.s = c.toggle // 1, 0, 1, 0, …
	return c.s, 0, false, false, nil
}

// TestEstimateHandCounted: 299 samples are the episode 0→1→2, then 99 episodes
// 0→0→1→2: pair (0) has 199 samples, 100 to state 1 and 99 to state 0; pair (1) has 100, all to
// the terminal state, paying 1. The terminal state's pairs have no template.
func TestEstimateHandCounted(t *testing.T) {
	e, err := Estimate(&cycleSim{}, 299, 10, 0.15, 1)
	if err != nil {
		t.Fatal(err)
	}
	if e.Pairs != 2 || len(e.Points) != 2 || len(e.Leaders) != 2 {
		t.Fatalf("%d pairs, %d points, %d leaders; want 2, 2, 2", e.Pairs, len(e.Points), len(e.Leaders))
	}
	p0, p1 := e.Points[0], e.Points[1]
	if len(p0.P) != 2 || p0.P[0] != 100.0/199 || p0.P[1] != 99.0/199 || p0.R != 0 {
		t.Errorf("template of pair 0 = %+v, want ([100/199, 99/199], 0)", p0)
	}
	if len(p1.P) != 1 || p1.P[0] != 1 || p1.R != 1 {
		t.Errorf("template of pair 1 = %+v, want ([1], 1)", p1)
	}
	// The worse bound is pair 1's: one outcome, 100 samples.
	if want := math.Sqrt(2 * (math.Ln2 + math.Log(20)) / 100); math.Abs(e.Bound-want) > 1e-12 {
		t.Errorf("bound %v, want %v", e.Bound, want)
	}
	// With MinCount above pair 1's 100 samples only pair 0 counts; with τ = 2 both are one group.
	if e, _ := Estimate(&cycleSim{}, 299, 101, 0.15, 1); e.Pairs != 1 {
		t.Errorf("min_count 101: %d pairs, want 1", e.Pairs)
	}
	if e, _ := Estimate(&cycleSim{}, 299, 10, 2, 1); len(e.Leaders) != 1 {
		t.Errorf("tau 2: %d leaders, want 1", len(e.Leaders))
	}
	for _, bad := range []struct {
		samples, min int
		tau          float64
	}{{0, 1, 0.1}, {10, 0, 0.1}, {10, 1, math.NaN()}} {
		if _, err := Estimate(&cycleSim{}, bad.samples, bad.min, bad.tau, 1); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
