package families

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// FiniteModel is the family of the paper's finite-model setting: grid worlds that differ only in
// their goal.
const FiniteModel = "finite-model"

// FiniteModelParams are finite-model's parameters: those of env.FiniteModelGrids.
type FiniteModelParams struct {
	env.FiniteModelConfig `yaml:",inline"`
}

// defaultFiniteModel is the published finite-model setting (decision 20): 4×4 grids of slip 0.4
// with 2 goals, 50 tasks.
func defaultFiniteModel() Params {
	return &FiniteModelParams{env.FiniteModelConfig{Width: 4, Height: 4, Models: 2, Tasks: 50, Actions: 4, Slip: 0.4,
		StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
}

func (p *FiniteModelParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(env.FiniteModelGrids(rng, p.FiniteModelConfig))
}
