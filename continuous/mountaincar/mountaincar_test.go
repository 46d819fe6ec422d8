package mountaincar

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/envtest"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-15*(1+math.Abs(b)) }

// TestDynamicsByHand checks single steps against mountain_car.py's update evaluated by hand
// (a calculator: v += (a−1)·0.001 − cos(3x)·0.0025, clip, x += v, clip, wall).
func TestDynamicsByHand(t *testing.T) {
	d := DefaultParams()
	other := d
	other.Force, other.Gravity = 0.002, 0.001
	tests := []struct {
		name string
		p    Params
		s    [StateDim]float64
		a    int
		want [StateDim]float64
	}{
		// cos(−1.5) = 0.0707372…: v = 0.001 − 0.0025·0.0707372… = 0.000823157…
		{"push right", d, [StateDim]float64{-0.5, 0}, 2, [StateDim]float64{-0.49917684300416926, 0.0008231569958307428}},
		{"push left", d, [StateDim]float64{-0.5, 0}, 0, [StateDim]float64{-0.5011768430041692, -0.0011768430041692573}},
		// x would pass the left wall: clipped to −1.2 and the velocity zeroed.
		{"left wall", d, [StateDim]float64{-1.19, -0.02}, 0, [StateDim]float64{-1.2, 0}},
		{"past the goal", d, [StateDim]float64{0.45, 0.06}, 2, [StateDim]float64{0.5104524832822674, 0.06045248328226739}},
		{"other planet", other, [StateDim]float64{-0.5, 0}, 2, [StateDim]float64{-0.4980707372016677, 0.0019292627983322971}},
	}
	for _, tc := range tests {
		got := tc.p.Dynamics(tc.s, tc.a)
		for i := range got {
			if !near(got[i], tc.want[i]) {
				t.Errorf("%s: s'[%d] = %.17g, want %.17g", tc.name, i, got[i], tc.want[i])
			}
		}
	}
	// The speed limit: from v = 0.0699 pushing right where gravity pulls right too (cos(−3) < 0).
	if got := d.Dynamics([StateDim]float64{-1, 0.0699}, 2); got[1] != 0.07 {
		t.Errorf("speed clip: v' = %v, want 0.07", got[1])
	}
}

func TestTerminalAndEpisode(t *testing.T) {
	d := DefaultParams()
	if d.Terminal([StateDim]float64{0.49, 0.01}) || !d.Terminal([StateDim]float64{0.5, 0}) || d.Terminal([StateDim]float64{0.55, -0.01}) {
		t.Error("terminal rule: want x >= 0.5 and v >= 0")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	e := New()
	obs := make([]float64, StateDim)
	// Pushing always right never reaches the goal: the episode is truncated at step 200.
	e.Reset(rng, obs)
	if obs[0] < ResetLow || obs[0] >= ResetHigh || obs[1] != 0 {
		t.Fatalf("reset to %v", obs)
	}
	for step := 1; ; step++ {
		r, term, trunc, err := e.Step([]float64{2}, obs)
		if err != nil || r != -1 || term {
			t.Fatalf("step %d: r=%v term=%v err=%v", step, r, term, err)
		}
		if trunc {
			if step != 200 {
				t.Fatalf("truncated at %d, want 200", step)
			}
			break
		}
	}
	if _, _, _, err := e.Step([]float64{1}, obs); err == nil {
		t.Error("step after truncation: no error")
	}
	// Pushing in the direction of the velocity (energy pumping) reaches the goal and terminates.
	e.Reset(rng, obs)
	for step := 1; step <= 200; step++ {
		a := 0.0
		if obs[1] >= 0 {
			a = 2
		}
		_, term, trunc, err := e.Step([]float64{a}, obs)
		if err != nil || trunc {
			t.Fatalf("energy pumping: step %d trunc=%v err=%v", step, trunc, err)
		}
		if term {
			if !d.Terminal(e.State()) {
				t.Fatalf("terminated at %v", e.State())
			}
			return
		}
	}
	t.Fatal("energy pumping never reached the goal")
}

func TestErrors(t *testing.T) {
	e := New()
	obs := make([]float64, StateDim)
	if _, _, _, err := e.Step([]float64{0}, obs); err == nil {
		t.Error("step before reset: no error")
	}
	e.Reset(rand.New(rand.NewPCG(2, 2)), obs)
	for _, a := range [][]float64{{3}, {-1}, {0.5}, {}, {0, 1}} {
		if _, _, _, err := e.Step(a, obs); err == nil {
			t.Errorf("action %v: no error", a)
		}
	}
	for key, change := range map[string]func(*Params){
		"force":         func(p *Params) { p.Force = 0 },
		"gravity":       func(p *Params) { p.Gravity = math.NaN() },
		"max_speed":     func(p *Params) { p.MaxSpeed = -1 },
		"min_position":  func(p *Params) { p.MinPosition = -0.5 },
		"max_position":  func(p *Params) { p.MaxPosition = -0.45 },
		"goal_position": func(p *Params) { p.GoalPosition = 0.7 },
		"goal_velocity": func(p *Params) { p.GoalVelocity = 0.08 },
		"max_steps":     func(p *Params) { p.MaxSteps = 0 },
	} {
		p := DefaultParams()
		change(&p)
		if _, err := NewWith(p); err == nil || !strings.Contains(err.Error(), key+" = ") {
			t.Errorf("%s out of range: error %v, want one naming %s", key, err, key)
		}
	}
}

func TestCollectRandomSeeded(t *testing.T) {
	a := envtest.Seeded(t, func() continuous.Env { return New() }, 500)
	d := DefaultParams()
	for i := range a.Len() {
		s, act, next := a.Row(i)
		if want := d.Dynamics([StateDim]float64(s), int(act[0])); next[0] != want[0] || next[1] != want[1] {
			t.Fatalf("transition %d: next = %v, want %v", i, next, want)
		}
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, New()) }
