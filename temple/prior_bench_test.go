package temple

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
)

// BenchmarkPriorPSRL and BenchmarkPriorTemplatePrior measure template-prior's cost per step
// against the PSRL it builds on, in the same run: random 4×4 mazes of the online setting, one
// whole task (3000 episodes × 30 steps) per iteration, PSRL with the sparse prior, drawing every
// episode or on TSDE's epochs. The library grows over the iterations as it would over a
// sequence.
func BenchmarkPriorPSRL(b *testing.B) {
	b.Run("episode", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 2))
		agenttest.Run(b, agent.NewSingle(episodePSRL(b)), agenttest.Mazes(b, 16, rng), rng)
	})
	b.Run("tsde", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 2))
		agenttest.Run(b, agent.NewSingle(psrlBase(b)), agenttest.Mazes(b, 16, rng), rng)
	})
}

func BenchmarkPriorTemplatePrior(b *testing.B) {
	for name, schedule := range map[string]DrawSchedule{"episode": DrawPerEpisode, "tsde": DrawTSDE} {
		b.Run(name, func(b *testing.B) {
			tp, err := NewTemplatePrior(DefaultPriorParams(), PSRLModel{RewardMean: 0, RewardSD: 1, RewardNoise: 1, Schedule: schedule}, episodePSRL(b))
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			agenttest.Run(b, tp, agenttest.Mazes(b, 16, rng), rng)
		})
	}
}
