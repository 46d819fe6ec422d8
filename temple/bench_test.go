package temple

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent/agenttest"
)

// BenchmarkOTempLeMaze4x4 runs O-TempLe through a stream of random 4×4 mazes of the online setting,
// one whole task (3000 episodes × 30 steps) per iteration, template work and planning included.
func BenchmarkOTempLeMaze4x4(b *testing.B) {
	o, err := NewOTempLe(DefaultParams(), rmaxBase(500))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	agenttest.Run(b, o, agenttest.Mazes(b, 16, rng), rng)
}
