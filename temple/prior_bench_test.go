package temple

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/benchmaze"
)

// BenchmarkPriorPSRL and BenchmarkPriorTemplatePrior measure template-prior's cost per step
// against the PSRL it builds on, in the same run: random 4×4 mazes of the online setting, one
// whole task (3000 episodes × 30 steps) per iteration, over PSRL with the sparse prior and a draw
// per episode (template-prior's schedule).
// The library grows over the iterations as it would over a sequence.
func BenchmarkPriorPSRL(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	benchmaze.Run(b, agent.NewSingle(episodePSRL(b)), benchmaze.Mazes(b, 16, rng), rng)
}

func BenchmarkPriorTemplatePrior(b *testing.B) {
	tp, err := NewTemplatePrior(DefaultPriorParams(), RewardPrior{Mean: 0, SD: 1, Noise: 1}, episodePSRL(b))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	benchmaze.Run(b, tp, benchmaze.Mazes(b, 16, rng), rng)
}
