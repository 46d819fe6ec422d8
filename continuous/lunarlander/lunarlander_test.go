//go:build box2d

package lunarlander

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/envtest"
)

// TestReset: the lander starts at the top centre, (H − (H/4 + LEG_DOWN/SCALE)) / (H/2) above
// the helipad in observation units, with no leg contact.
func TestReset(t *testing.T) {
	e := New()
	obs := make([]float64, StateDim)
	e.Reset(rand.New(rand.NewPCG(1, 1)), obs)
	wantY := (h - (HelipadY() + 18/Scale)) / (h / 2)
	if math.Abs(obs[0]) > 0.01 || math.Abs(obs[1]-wantY) > 0.01 {
		t.Errorf("initial position (%v, %v), want about (0, %v)", obs[0], obs[1], wantY)
	}
	if obs[6] != 0 || obs[7] != 0 {
		t.Errorf("leg contacts %v %v at the start", obs[6], obs[7])
	}
	if math.Abs(HelipadY()-h/4) > 1e-12 {
		t.Errorf("helipad at %v, want H/4 = %v", HelipadY(), h/4)
	}
}

// TestMainEngineLifts: from the same start, firing the main engine leaves the lander rising
// faster (or falling slower) than doing nothing, and a side engine turns it.
func TestMainEngineLifts(t *testing.T) {
	run := func(action float64) []float64 {
		e := New()
		obs := make([]float64, StateDim)
		e.Reset(rand.New(rand.NewPCG(2, 2)), obs)
		for range 10 {
			if _, _, _, err := e.Step([]float64{action}, obs); err != nil {
				t.Fatal(err)
			}
		}
		return obs
	}
	idle, main, left, right := run(0), run(2), run(1), run(3)
	if !(main[3] > idle[3]+0.1) {
		t.Errorf("vertical speed after 10 main-engine steps %v, idle %v", main[3], idle[3])
	}
	// Left and right engines spin the lander in opposite directions.
	if !(left[5]-idle[5] > 0 && right[5]-idle[5] < 0 || left[5]-idle[5] < 0 && right[5]-idle[5] > 0) {
		t.Errorf("angular velocity: left %v, right %v, idle %v", left[5], right[5], idle[5])
	}
}

// TestEpisodesEnd: under the random policy every episode ends, by termination with reward
// ±100 or by truncation at 1000 steps, and a step after the end is an error.
func TestEpisodesEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	e := New()
	obs := make([]float64, StateDim)
	a := []float64{0}
	for ep := range 5 {
		e.Reset(rng, obs)
		for step := 1; ; step++ {
			e.RandomAction(rng, a)
			r, term, trunc, err := e.Step(a, obs)
			if err != nil {
				t.Fatal(err)
			}
			if term && math.Abs(r) != 100 {
				t.Errorf("episode %d ended at step %d with reward %v, want ±100", ep, step, r)
			}
			if trunc && step != MaxSteps {
				t.Errorf("truncated at step %d", step)
			}
			if term || trunc {
				t.Logf("episode %d: %d steps, final reward %v, state %.2f", ep, step, r, obs)
				break
			}
		}
		if _, _, _, err := e.Step(a, obs); err == nil {
			t.Error("step after the end: no error")
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
	for _, a := range [][]float64{{4}, {-1}, {1.5}, {}, {0, 1}, {math.NaN()}} {
		if _, _, _, err := e.Step(a, obs); err == nil {
			t.Errorf("action %v: no error", a)
		}
	}
}

func TestSeeded(t *testing.T) {
	envtest.Seeded(t, func() continuous.Env { return New() }, 2000)
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, New()) }
