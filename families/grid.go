package families

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// Grid is the family of the open grid world of the paper's Appendix F.5 ("large GridWorld").
const Grid = "grid"

// GridParams are grid's parameters: those of env.Grids.
type GridParams struct {
	env.GridConfig `yaml:",inline"`
}

// defaultGrid is simple_rl's GridWorld as Appendix F.5 uses it: 10×10, goal (10,10) terminal,
// reward 1, no slip.
func defaultGrid() Params {
	return &GridParams{env.GridConfig{Width: 10, Height: 10, Tasks: 1, Actions: 4, Goals: []env.Cell{{X: 10, Y: 10}},
		GoalReward: 1, LavaCost: 1, TerminalGoals: true}}
}

func (p *GridParams) Sequence(int, *rand.Rand) (env.Sequence, error) {
	return mazes(env.Grids(p.GridConfig))
}
