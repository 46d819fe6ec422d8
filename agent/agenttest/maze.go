package agenttest

// The workload the learners' benchmarks share: random 4×4 mazes of the online setting (landforms
// {0, 0.2, 0.4}, goal (4,4), lava (2,2)), each iteration one whole task of the paper's size (3000
// episodes × 30 steps), planning and template work included; for the benchmarks of the learners,
// temple and agenttypes.

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

// Episodes and Steps are the size of one task: the paper's 3000 episodes of 30 steps.
const Episodes, Steps = 3000, 30

// Mazes draws n random 4×4 mazes of the online setting from rng.
func Mazes(tb testing.TB, n int, rng *rand.Rand) []*mdp.Model {
	tb.Helper()
	models := make([]*mdp.Model, n)
	for k := range models {
		slip := make([]float64, 16)
		for i := range slip {
			slip[i] = []float64{0, 0.2, 0.4}[rng.IntN(3)]
		}
		mz := env.Maze{Width: 4, Height: 4, Slip: slip, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
			Actions: 4}.WithRewards(env.PaperRewards)
		var err error
		if models[k], err = mz.Model(); err != nil {
			tb.Fatal(err)
		}
	}
	return models
}

// Run runs ag through the mazes in turn, one whole task per iteration from state 0, drawing from
// rng, and reports steps per second.
func Run(b *testing.B, ag agent.Agent, models []*mdp.Model, rng *rand.Rand) {
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		m := models[k%len(models)]
		if err := ag.BeginTask(agent.Task{Index: k, S: m.S, A: m.A, Gamma: 0.95, Rand: rng, Rewards: agent.RewardsOf(m)}); err != nil {
			b.Fatal(err)
		}
		loop := Loop{Agent: ag, Task: m, Rand: rng}
		for range Episodes {
			loop.Episode(0, Steps)
		}
		ag.EndTask()
	}
	b.ReportMetric(float64(b.N*Episodes*Steps)/b.Elapsed().Seconds(), "steps/s")
}
