package families

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// VaryingSize is the family of the paper's varying-sized setting: landform mazes of growing size.
const VaryingSize = "varying-size"

// VaryingSizeParams are varying-size's parameters: those of env.VaryingSizeMazes.
type VaryingSizeParams struct {
	env.VaryingSizeConfig `yaml:",inline"`
}

// defaultVaryingSize is the published varying-size setting (decision 21): 20 mazes each of
// 3×3, 4×4, 5×5 and 6×6.
func defaultVaryingSize() Params {
	return &VaryingSizeParams{env.VaryingSizeConfig{Sizes: []int{3, 4, 5, 6}, PerSize: 20, Actions: 4,
		Landforms: paperLandforms(), StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
}

func (p *VaryingSizeParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(env.VaryingSizeMazes(rng, p.VaryingSizeConfig))
}
