package pendulum

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/envtest"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-14*(1+math.Abs(b)) }

// TestDynamicsByHand checks steps against pendulum.py's update evaluated by hand.
func TestDynamicsByHand(t *testing.T) {
	d := DefaultParams()
	other := Params{Gravity: 3.7, Mass: 2, Length: 0.5, MaxSpeed: 8, MaxTorque: 2, Dt: 0.05, MaxSteps: 200}
	tests := []struct {
		name string
		p    Params
		s    [StateDim]float64
		u    float64
		want [StateDim]float64
		r    float64
	}{
		// θ̇' = 0.5 + (15 sin 1 + 6)·0.05; cost 1 + 0.1·0.25 + 0.001·4 = 1.029.
		{"push", d, [StateDim]float64{1, 0.5}, 2, [StateDim]float64{1.071555161930296, 1.4311032386059224}, -1.029},
		// θ = 4 normalizes to 4 − 2π; θ̇' = −8.77 is clipped to −8.
		{"clip", d, [StateDim]float64{4, -7.9}, -2, [StateDim]float64{3.6, -8}, -11.457935146920741},
		{"other planet", other, [StateDim]float64{1, 0.5}, 2, [StateDim]float64{1.078350819828419, 1.5670163965683828}, -1.029},
	}
	for _, tc := range tests {
		got, r := tc.p.Dynamics(tc.s, tc.u)
		for i := range got {
			if !near(got[i], tc.want[i]) {
				t.Errorf("%s: s'[%d] = %.17g, want %.17g", tc.name, i, got[i], tc.want[i])
			}
		}
		if !near(r, tc.r) {
			t.Errorf("%s: r = %.17g, want %.17g", tc.name, r, tc.r)
		}
	}
	for _, c := range [][2]float64{{0, 0}, {math.Pi, -math.Pi}, {-math.Pi, -math.Pi}, {4, 4 - 2*math.Pi}, {-4, -4 + 2*math.Pi}} {
		if got := AngleNormalize(c[0]); !near(got, c[1]) {
			t.Errorf("AngleNormalize(%v) = %v, want %v", c[0], got, c[1])
		}
	}
}

func TestEpisode(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	e := New()
	obs := make([]float64, ObsDim)
	e.Reset(rng, obs)
	if s := e.State(); s[0] < -math.Pi || s[0] >= math.Pi || s[1] < -1 || s[1] >= 1 {
		t.Fatalf("reset to %v", s)
	}
	for step := 1; ; step++ {
		_, term, trunc, err := e.Step([]float64{1.5}, obs)
		if err != nil || term {
			t.Fatalf("step %d: term=%v err=%v", step, term, err)
		}
		s := e.State()
		if !near(obs[0], math.Cos(s[0])) || !near(obs[1], math.Sin(s[0])) || obs[2] != s[1] {
			t.Fatalf("observation %v of state %v", obs, s)
		}
		if trunc {
			if step != 200 {
				t.Fatalf("truncated at %d, want 200", step)
			}
			break
		}
	}
}

func TestErrors(t *testing.T) {
	e := New()
	obs := make([]float64, ObsDim)
	e.Reset(rand.New(rand.NewPCG(6, 6)), obs)
	for _, a := range [][]float64{{2.01}, {-3}, {math.NaN()}, {}} {
		if _, _, _, err := e.Step(a, obs); err == nil {
			t.Errorf("action %v: no error", a)
		}
	}
	for key, change := range map[string]func(*Params){
		"gravity":    func(p *Params) { p.Gravity = 0 },
		"mass":       func(p *Params) { p.Mass = math.NaN() },
		"length":     func(p *Params) { p.Length = -1 },
		"max_torque": func(p *Params) { p.MaxTorque = 0 },
		"dt":         func(p *Params) { p.Dt = 2 },
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
