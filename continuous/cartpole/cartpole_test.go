package cartpole

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/envtest"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(1+math.Abs(b)) }

// TestDynamicsByHand checks one Euler step against the equations worked by hand.
func TestDynamicsByHand(t *testing.T) {
	tests := []struct {
		name string
		s    [StateDim]float64
		a    int
		want [StateDim]float64
	}{
		// Upright at rest, push right: temp = 10/1.1 = 100/11, l(4/3 − 0.1/1.1) = 41/66,
		// θ̈ = −(100/11)(66/41) = −600/41, ẍ = 100/11 + 0.05·(600/41)/1.1 = 400/41.
		{"rest right", [StateDim]float64{}, 1, [StateDim]float64{0, 0.02 * 400 / 41, 0, -0.02 * 600 / 41}},
		// By symmetry, push left mirrors the velocities.
		{"rest left", [StateDim]float64{}, 0, [StateDim]float64{0, -0.02 * 400 / 41, 0, 0.02 * 600 / 41}},
		// A tilted, moving state, pushed left: the equations evaluated step by step in a
		// calculator (sin 0.05, cos 0.05, temp, θ̈, ẍ) give these values.
		{"tilted left", [StateDim]float64{0.1, -0.2, 0.05, 0.3}, 0,
			[StateDim]float64{0.096, -0.3957976546439626, 0.056, 0.6080233136061515}},
	}
	for _, tc := range tests {
		got := Dynamics(tc.s, tc.a)
		for i := range got {
			if !near(got[i], tc.want[i]) {
				t.Errorf("%s: s'[%d] = %.17g, want %.17g", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}

func TestConstants(t *testing.T) {
	if !near(ThetaThreshold, 0.20943951023931953) {
		t.Errorf("12° = %v rad, want 0.2094395…", ThetaThreshold)
	}
}

func TestTerminal(t *testing.T) {
	tests := []struct {
		s    [StateDim]float64
		want bool
	}{
		{[StateDim]float64{}, false},
		{[StateDim]float64{2.4, 0, 0, 0}, false},
		{[StateDim]float64{2.41, 0, 0, 0}, true},
		{[StateDim]float64{-2.41, 0, 0, 0}, true},
		{[StateDim]float64{0, 0, 0.2094, 0}, false},
		{[StateDim]float64{0, 0, 0.2095, 0}, true},
		{[StateDim]float64{0, 0, -0.2095, 0}, true},
	}
	for _, tc := range tests {
		if got := Terminal(tc.s); got != tc.want {
			t.Errorf("Terminal(%v) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestResetRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	e := New()
	obs := make([]float64, StateDim)
	for range 1000 {
		e.Reset(rng, obs)
		for i, v := range obs {
			if v < -ResetBound || v >= ResetBound {
				t.Fatalf("reset obs[%d] = %v, want in [-0.05, 0.05)", i, v)
			}
		}
	}
}

// TestEpisodeEnds: always pushing right tips the pole over well before the time limit, the
// episode terminates in a Terminal state, and a further step is an error.
func TestEpisodeEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	e := New()
	obs := make([]float64, StateDim)
	e.Reset(rng, obs)
	steps := 0
	for {
		_, term, trunc, err := e.Step([]float64{1}, obs)
		if err != nil {
			t.Fatal(err)
		}
		steps++
		if term {
			break
		}
		if trunc || steps > MaxSteps {
			t.Fatalf("always pushing right survived %d steps", steps)
		}
	}
	if !Terminal(e.State()) {
		t.Errorf("terminated in a non-terminal state %v", e.State())
	}
	if _, _, _, err := e.Step([]float64{0}, obs); err == nil {
		t.Error("step after termination: no error")
	}
}

// balance is a simple controller that keeps the pole up: push towards the side it falls to.
func balance(s []float64) float64 {
	if s[2]+0.5*s[3] > 0 {
		return 1
	}
	return 0
}

func TestTruncation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	e := New()
	obs := make([]float64, StateDim)
	e.Reset(rng, obs)
	for step := 1; ; step++ {
		_, term, trunc, err := e.Step([]float64{balance(obs)}, obs)
		if err != nil {
			t.Fatal(err)
		}
		if term {
			t.Skipf("controller lost the pole at step %d; truncation not reached", step)
		}
		if trunc {
			if step != MaxSteps {
				t.Errorf("truncated at step %d, want %d", step, MaxSteps)
			}
			return
		}
	}
}

func TestStepErrors(t *testing.T) {
	e := New()
	obs := make([]float64, StateDim)
	if _, _, _, err := e.Step([]float64{0}, obs); err == nil {
		t.Error("step before reset: no error")
	}
	e.Reset(rand.New(rand.NewPCG(4, 4)), obs)
	for _, a := range [][]float64{{2}, {-1}, {0.5}, {}, {0, 1}} {
		if _, _, _, err := e.Step(a, obs); err == nil {
			t.Errorf("action %v: no error", a)
		}
	}
}

func TestCollectRandomSeeded(t *testing.T) {
	a := envtest.Seeded(t, func() continuous.Env { return New() }, 300)
	// Every transition follows the dynamics, and every action is 0 or 1.
	for i := range a.Len() {
		s, act, next := a.Row(i)
		want := Dynamics([StateDim]float64(s), int(act[0]))
		for d := range want {
			if next[d] != want[d] {
				t.Fatalf("transition %d: next = %v, want %v", i, next, want)
			}
		}
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, New()) }

// TestParams: other physics change the step as the equations say, worked by hand; a parameter
// out of range is an error naming its key.
func TestParams(t *testing.T) {
	// m_p = 0.2, F = 5, at rest pushed right: temp = 5/1.2 = 25/6, l(4/3 − 0.2/1.2) = 7/12,
	// θ̈ = −(25/6)(12/7) = −50/7, ẍ = 25/6 + 0.1·(50/7)/1.2 = 100/21.
	p := DefaultParams()
	p.MassPole, p.Force = 0.2, 5
	got := p.Dynamics([StateDim]float64{}, 1)
	want := [StateDim]float64{0, 0.02 * 100 / 21, 0, -0.02 * 50 / 7}
	for i := range got {
		if !near(got[i], want[i]) {
			t.Errorf("s'[%d] = %.17g, want %.17g", i, got[i], want[i])
		}
	}
	if DefaultParams().Dynamics([StateDim]float64{0.1, -0.2, 0.05, 0.3}, 0) != Dynamics([StateDim]float64{0.1, -0.2, 0.05, 0.3}, 0) {
		t.Error("DefaultParams().Dynamics differs from Dynamics")
	}
	for key, change := range map[string]func(*Params){
		"gravity":   func(p *Params) { p.Gravity = 0 },
		"mass_cart": func(p *Params) { p.MassCart = math.NaN() },
		"mass_pole": func(p *Params) { p.MassPole = -0.1 },
		"length":    func(p *Params) { p.Length = 101 },
		"force":     func(p *Params) { p.Force = 0 },
		"tau":       func(p *Params) { p.Tau = 1.5 },
		"max_steps": func(p *Params) { p.MaxSteps = 0 },
	} {
		p := DefaultParams()
		change(&p)
		if _, err := NewWith(p); err == nil || !strings.Contains(err.Error(), key+" = ") {
			t.Errorf("%s out of range: error %v, want one naming %s", key, err, key)
		}
	}
}
