package families

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// Gaussian is the family of the paper's setting with infinitely many templates: mazes whose slips
// are drawn from a mixture of normals.
const Gaussian = "gaussian"

// GaussianParams are gaussian's parameters: those of env.GaussianMazes.
type GaussianParams struct {
	env.GaussianConfig `yaml:",inline"`
}

// defaultGaussian is our reading of the paper's setting (decision 22): 4×4 mazes, means 0.2, 0.4
// and 0.6, sd 0.05, every one of 100 tasks drawn afresh.
func defaultGaussian() Params {
	return &GaussianParams{env.GaussianConfig{Width: 4, Height: 4, Tasks: 100, Actions: 4,
		Means: []float64{0.2, 0.4, 0.6}, SD: 0.05, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
}

func (p *GaussianParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(env.GaussianMazes(rng, p.GaussianConfig))
}
