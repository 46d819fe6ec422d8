package acrobot

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/envtest"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-13*(1+math.Abs(b)) }

// TestRK4ByHand checks one rk4 step of the book dynamics against acrobot.py's _dsdt and rk4
// evaluated independently (the four stages k1…k4 computed in a separate script, double
// precision).
func TestRK4ByHand(t *testing.T) {
	d := DefaultParams()
	other := d
	other.LinkMass2, other.Gravity = 2, 3.7
	tests := []struct {
		name string
		p    Params
		s    [StateDim]float64
		tau  float64
		want [StateDim]float64
	}{
		{"near rest, +1", d, [StateDim]float64{0.05, -0.03, 0.1, 0.2}, 1,
			[StateDim]float64{0.04954087488414644, 0.051212143078680716, -0.10158193127606044, 0.5973769247304797}},
		{"swinging, -1", d, [StateDim]float64{1, 2, -3, 5}, -1,
			[StateDim]float64{0.31212802780978166, 2.9864924999147884, -3.784932254607667, 4.891168324188465}},
		{"heavier link 2, lower gravity", other, [StateDim]float64{0.05, -0.03, 0.1, 0.2}, 1,
			[StateDim]float64{0.05406451995748599, 0.04772966537092506, -0.05699832266115279, 0.5666450377761469}},
	}
	for _, tc := range tests {
		got := tc.p.rk4(tc.s, tc.tau)
		for i := range got {
			if !near(got[i], tc.want[i]) {
				t.Errorf("%s: s'[%d] = %.17g, want %.17g", tc.name, i, got[i], tc.want[i])
			}
		}
	}
	// Dynamics maps action 2 to torque +1 and wraps nothing here.
	got, want := d.Dynamics(tests[0].s, 2), tests[0].want
	for i := range got {
		if !near(got[i], want[i]) {
			t.Errorf("Dynamics(action 2)[%d] = %v, want the rk4 step's %v", i, got[i], want[i])
		}
	}
}

func TestWrapAndClip(t *testing.T) {
	for _, c := range [][2]float64{{4, 4 - 2*math.Pi}, {-4, -4 + 2*math.Pi}, {7, 7 - 2*math.Pi}, {math.Pi, math.Pi}, {0.3, 0.3}} {
		if got := wrap(c[0]); !near(got, c[1]) {
			t.Errorf("wrap(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	// A fast second joint is clipped to 9π after the step.
	d := DefaultParams()
	if got := d.Dynamics([StateDim]float64{0, 0, 0, 40}, 1); got[3] != 9*math.Pi {
		t.Errorf("θ̇₂ = %v, want the clip 9π", got[3])
	}
}

func TestTerminal(t *testing.T) {
	// Hanging down: height −2; straight up: +2; first link horizontal, second up: 0 + 1 = 1 (not > 1);
	// both links at θ₁ = 2: −2 cos 2 = 0.83; at 2.2: 1.18.
	for _, c := range []struct {
		s    [StateDim]float64
		want bool
	}{{[StateDim]float64{}, false}, {[StateDim]float64{math.Pi, 0, 0, 0}, true},
		{[StateDim]float64{math.Pi / 2, math.Pi / 2, 0, 0}, false}, {[StateDim]float64{2, 0, 0, 0}, false}, {[StateDim]float64{2.2, 0, 0, 0}, true}} {
		if got := Terminal(c.s); got != c.want {
			t.Errorf("Terminal(%v) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestEpisode: the reward is −1 until the terminating step, which pays 0; observations are the
// cosines and sines of the state; the time limit is 500 steps.
func TestEpisode(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	e := New()
	obs := make([]float64, ObsDim)
	e.Reset(rng, obs)
	for i, v := range e.State() {
		if v < -ResetBound || v >= ResetBound {
			t.Fatalf("reset state[%d] = %v", i, v)
		}
	}
	steps, terminated := 0, false
	for {
		// Pump energy: torque in the direction of the second joint's velocity.
		a := 0.0
		if obs[5] >= 0 {
			a = 2
		}
		r, term, trunc, err := e.Step([]float64{a}, obs)
		if err != nil {
			t.Fatal(err)
		}
		steps++
		s := e.State()
		if !near(obs[0], math.Cos(s[0])) || !near(obs[3], math.Sin(s[1])) || obs[5] != s[3] {
			t.Fatalf("observation %v of state %v", obs, s)
		}
		if term {
			if r != 0 || !Terminal(s) {
				t.Fatalf("terminating step: r=%v, state %v", r, s)
			}
			terminated = true
			break
		}
		if r != -1 {
			t.Fatalf("step %d: r = %v, want -1", steps, r)
		}
		if trunc {
			if steps != 500 {
				t.Fatalf("truncated at %d, want 500", steps)
			}
			break
		}
	}
	if !terminated {
		t.Error("energy pumping did not swing up within 500 steps")
	}
	if _, _, _, err := e.Step([]float64{1}, obs); err == nil {
		t.Error("step after the end: no error")
	}
}

func TestErrors(t *testing.T) {
	e := New()
	obs := make([]float64, ObsDim)
	e.Reset(rand.New(rand.NewPCG(4, 4)), obs)
	for _, a := range [][]float64{{3}, {-1}, {1.5}, {}} {
		if _, _, _, err := e.Step(a, obs); err == nil {
			t.Errorf("action %v: no error", a)
		}
	}
	for key, change := range map[string]func(*Params){
		"link_mass_1":    func(p *Params) { p.LinkMass1 = 0 },
		"link_com_pos_2": func(p *Params) { p.LinkCOM2 = math.NaN() },
		"gravity":        func(p *Params) { p.Gravity = 101 },
		"dt":             func(p *Params) { p.Dt = -0.1 },
		"max_vel_2":      func(p *Params) { p.MaxVel2 = 0 },
		"max_steps":      func(p *Params) { p.MaxSteps = -1 },
	} {
		p := DefaultParams()
		change(&p)
		if _, err := NewWith(p); err == nil || !strings.Contains(err.Error(), key+" = ") {
			t.Errorf("%s out of range: error %v, want one naming %s", key, err, key)
		}
	}
}

func TestCollectRandomSeeded(t *testing.T) {
	envtest.Seeded(t, func() continuous.Env { return New() }, 500)
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, New()) }
