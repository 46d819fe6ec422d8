//go:build mujoco

package hopper

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/envtest"
)

func newEnv(t testing.TB) *Env {
	t.Helper()
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestModel checks the compiled model against the facts it was written from.
func TestModel(t *testing.T) {
	e := newEnv(t)
	t.Logf("MuJoCo %d; body masses %v", Version(), bodyMasses(e))
	if dt := float64(e.m.opt.timestep); dt != 0.002 {
		t.Errorf("timestep %v, want 0.002", dt)
	}
	// qpos0: rootz starts at its reference 1.25, everything else at 0.
	if got := float64(*e.m.qpos0); got != 0 {
		t.Errorf("qpos0[rootx] = %v, want 0", got)
	}
	e.Reset(rand.New(rand.NewPCG(1, 1)), make([]float64, StateDim))
	if z := e.qpos()[1]; math.Abs(z-1.25) > ResetNoise {
		t.Errorf("reset z = %v, want 1.25 ± 0.005", z)
	}
	// The capsule masses at density 1000: ρ π r² (2h + 4r/3).
	want := []float64{
		1000 * math.Pi * 0.05 * 0.05 * (0.4 + 4*0.05/3),
		1000 * math.Pi * 0.05 * 0.05 * (0.45 + 4*0.05/3),
		1000 * math.Pi * 0.04 * 0.04 * (0.5 + 4*0.04/3),
		1000 * math.Pi * 0.06 * 0.06 * (0.39 + 4*0.06/3),
	}
	for i, m := range bodyMasses(e)[1:] {
		if math.Abs(m-want[i]) > 1e-6*want[i] {
			t.Errorf("body %d mass %v, want %v", i+1, m, want[i])
		}
	}
}

func bodyMasses(e *Env) []float64 {
	out := make([]float64, e.m.nbody)
	for i := range out {
		out[i] = float64(*(*float64)(ptrAdd(e.m.body_mass, i)))
	}
	return out
}

// TestResetNoise: the initial observation is (1.25, 0, 0, 0, 0, 0, …) up to U(±0.005).
func TestResetNoise(t *testing.T) {
	e := newEnv(t)
	obs := make([]float64, StateDim)
	e.Reset(rand.New(rand.NewPCG(2, 2)), obs)
	for i, v := range obs {
		centre := 0.0
		if i == 0 {
			centre = 1.25
		}
		if math.Abs(v-centre) > ResetNoise+1e-12 {
			t.Errorf("obs[%d] = %v, want %v ± 0.005", i, v, centre)
		}
	}
}

// TestFallsAndTerminates: without torques the hopper tips over; the episode terminates when it
// is unhealthy, before the time limit, and the reward is 1 + Δx/dt while healthy.
func TestFallsAndTerminates(t *testing.T) {
	e := newEnv(t)
	obs := make([]float64, StateDim)
	e.Reset(rand.New(rand.NewPCG(3, 3)), obs)
	for step := 1; ; step++ {
		x0 := e.X()
		r, term, trunc, err := e.Step([]float64{0, 0, 0}, obs)
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 + (e.X()-x0)/0.008; !term && math.Abs(r-want) > 1e-9 {
			t.Fatalf("step %d: reward %v, want %v", step, r, want)
		}
		if trunc {
			t.Fatalf("a passive hopper stood for %d steps", step)
		}
		if term {
			z, angle := obs[0], obs[1]
			if z > MinZ && math.Abs(angle) < MaxAngle {
				t.Errorf("terminated at step %d while healthy: z %v, angle %v", step, z, angle)
			}
			t.Logf("terminated at step %d: z %.3f, angle %.3f", step, z, angle)
			break
		}
	}
	if _, _, _, err := e.Step([]float64{0, 0, 0}, obs); err == nil {
		t.Error("step after termination: no error")
	}
}

func TestStepErrors(t *testing.T) {
	e := newEnv(t)
	obs := make([]float64, StateDim)
	if _, _, _, err := e.Step([]float64{0, 0, 0}, obs); err == nil {
		t.Error("step before reset: no error")
	}
	e.Reset(rand.New(rand.NewPCG(4, 4)), obs)
	for _, a := range [][]float64{{0, 0}, {0, 0, 1.5}, {math.NaN(), 0, 0}} {
		if _, _, _, err := e.Step(a, obs); err == nil {
			t.Errorf("action %v: no error", a)
		}
	}
}

// TestSeeded: the same seed gives the same transitions, and velocities are clipped.
func TestSeeded(t *testing.T) {
	a := envtest.Seeded(t, func() continuous.Env { return newEnv(t) }, 2000)
	for i := range a.Len() {
		_, _, next := a.Row(i)
		for _, v := range next[5:] {
			if math.Abs(v) > VelClip {
				t.Fatalf("observed velocity %v beyond the clip", v)
			}
		}
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, newEnv(b)) }
