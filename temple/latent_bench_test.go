package temple

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/learners"
)

// BenchmarkLatentPSRL measures latent-psrl's cost per step against the PSRL it builds on, in the
// same run: random 4×4 mazes of the online setting, one whole task (3000 episodes × 30 steps) per
// iteration, PSRL with its defaults (Beta rewards on [0, 1], the doubling rule). The tasks cycle
// through 2 mazes (as the finite-model family's two models) or 16, so the library grows to about
// as many models over the iterations (the models metric).
func BenchmarkLatentPSRL(b *testing.B) {
	for _, mazes := range []int{2, 16} {
		b.Run(fmt.Sprintf("psrl/mazes=%d", mazes), func(b *testing.B) {
			p := learners.DefaultPSRL()
			p.RewardMin, p.RewardMax = learners.Bound(0), learners.Bound(1) // as the latent model's below
			base, err := learners.NewPSRL(p)
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			agenttest.Run(b, agent.NewSingle(base), agenttest.Mazes(b, mazes, rng), rng)
		})
		b.Run(fmt.Sprintf("latent/mazes=%d", mazes), func(b *testing.B) {
			lp, err := NewLatentPrior(DefaultLatentParams(), PSRLModel{Beta: true, RewardMax: 1, Schedule: DrawDoubling}, episodePSRL(b))
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			agenttest.Run(b, lp, agenttest.Mazes(b, mazes, rng), rng)
			b.ReportMetric(float64(lp.Models()), "models")
		})
	}
}
