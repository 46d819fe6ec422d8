// Package envtest holds the checks every continuous environment's tests share: the same seed
// gives the same transitions, and the step benchmark.
package envtest

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/continuous"
)

// Seeded collects n random-policy transitions twice from fresh environments with the same seed
// and fails unless they are identical; it returns the first collection.
func Seeded(t *testing.T, newEnv func() continuous.Env, n int) *continuous.Transitions {
	t.Helper()
	collect := func() *continuous.Transitions {
		tr, err := continuous.CollectRandom(newEnv(), rand.New(rand.NewPCG(7, 7)), n)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	a, b := collect(), collect()
	if a.Len() != n || b.Len() != n {
		t.Fatalf("collected %d and %d transitions, want %d", a.Len(), b.Len(), n)
	}
	for i := range a.S {
		if a.S[i] != b.S[i] || a.Next[i] != b.Next[i] {
			t.Fatalf("same seed, different transitions at value %d", i)
		}
	}
	for i := range a.A {
		if a.A[i] != b.A[i] {
			t.Fatalf("same seed, different actions at value %d", i)
		}
	}
	return a
}

// BenchmarkSteps steps e under the random policy, resetting at the end of every episode, and
// reports steps per second.
func BenchmarkSteps(b *testing.B, e continuous.Env) {
	rng := rand.New(rand.NewPCG(1, 1))
	obs := make([]float64, e.StateDim())
	act := make([]float64, e.ActionDim())
	e.Reset(rng, obs)
	for b.Loop() {
		e.RandomAction(rng, act)
		_, term, trunc, _ := e.Step(act, obs)
		if term || trunc {
			e.Reset(rng, obs)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}
