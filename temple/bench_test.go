package temple

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

// BenchmarkOTempLeMaze4x4 runs O-TempLe through a stream of random 4×4 mazes of the online setting,
// one whole task (3000 episodes × 30 steps) per iteration, template work and planning included.
func BenchmarkOTempLeMaze4x4(b *testing.B) {
	o, err := NewOTempLe(DefaultParams(), rmaxBase(500))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	models := make([]*mdp.Model, 16)
	for k := range models {
		slip := make([]float64, 16)
		for i := range slip {
			slip[i] = []float64{0, 0.2, 0.4}[rng.IntN(3)]
		}
		mz := env.Maze{Width: 4, Height: 4, Slip: slip, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
			StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
		if models[k], err = mz.Model(); err != nil {
			b.Fatal(err)
		}
	}
	const episodes, steps = 3000, 30
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		m := models[k%len(models)]
		if err := o.BeginTask(agent.Task{Index: k, S: m.S, A: m.A, Gamma: 0.95, Rand: rng}); err != nil {
			b.Fatal(err)
		}
		for e := 0; e < episodes; e++ {
			s := 0
			for t := 0; t < steps; t++ {
				a := o.Act(s)
				next, r := m.Step(s, a, rng)
				o.Observe(s, a, r, next)
				s = next
			}
			o.EndEpisode()
		}
		o.EndTask()
	}
	b.ReportMetric(float64(b.N*episodes*steps)/b.Elapsed().Seconds(), "steps/s")
}
