package temple

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/benchmaze"
	"github.com/temple-rl/temple/learners"
)

// BenchmarkLatentPSRL measures latent-psrl's cost per step against the PSRL it builds on, in the
// same run: random 4×4 mazes of the online setting, one whole task (3000 episodes × 30 steps) per
// iteration, PSRL with its defaults (the doubling rule). The library grows over the iterations
// as it would over a sequence (each maze is new, so most tasks found a model of their own: the
// cost of many components).
func BenchmarkLatentPSRL(b *testing.B) {
	b.Run("psrl", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 2))
		benchmaze.Run(b, agent.NewSingle(latentBase(b, learners.Doubling)), benchmaze.Mazes(b, 16, rng), rng)
	})
	b.Run("latent", func(b *testing.B) {
		lp, err := NewLatentPSRL(DefaultLatentParams(), LatentPrior{Alpha: 1, RewardMin: 0, RewardMax: 1, Schedule: LatentDoubling},
			latentBase(b, learners.PerEpisode))
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		benchmaze.Run(b, lp, benchmaze.Mazes(b, 16, rng), rng)
		b.ReportMetric(float64(lp.Components()), "models")
	})
}
