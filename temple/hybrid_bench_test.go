package temple

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent/agenttest"
)

// BenchmarkHybridPrior measures hybrid-prior's cost per step beside BenchmarkLatentPSRL's PSRL
// (run them together: go test ./temple -run NONE -bench 'LatentPSRL|HybridPrior' -benchtime 40x):
// the same mazes, one whole task per iteration, the tasks cycling through 2 mazes or 16, so that
// it holds about as many whole-task models (the models metric) and a library of templates.
// With pair_concentration (γ) set the models share their pairs' dishes ("shared" below); with
// edit_share β set as well, a new model may be an edit of an earlier one ("edits").
func BenchmarkHybridPrior(b *testing.B) {
	for _, v := range []struct {
		name             string
		gamma, editShare float64
	}{{"hybrid", 0, 0}, {"hybrid-shared", 10, 0}, {"hybrid-edits", 10, 0.5}} {
		for _, mazes := range []int{2, 16} {
			b.Run(fmt.Sprintf("%s/mazes=%d", v.name, mazes), func(b *testing.B) {
				p := DefaultHybridParams()
				p.PairConcentration, p.EditShare, p.ChangeRate = v.gamma, v.editShare, 0.05
				h, err := NewHybridPrior(p, PSRLModel{Beta: true, RewardMax: 1, Schedule: DrawDoubling}, episodePSRL(b))
				if err != nil {
					b.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(1, 2))
				agenttest.Run(b, h, agenttest.Mazes(b, mazes, rng), rng)
				b.ReportMetric(float64(h.Models()), "models")
				b.ReportMetric(float64(h.mix.lib.Len()), "templates")
			})
		}
	}
}
