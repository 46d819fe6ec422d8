package families

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: FiniteModel, Summary: "grid worlds that differ only in their goal (Figure 2 \"Finite-Model MTRL\")",
		Defaults: defaultFiniteModel})
}

// FiniteModel is the family of the paper's finite-model setting: grid worlds that differ only in
// their goal.
const FiniteModel = "finite-model"

// FiniteModelParams are finite-model's parameters.
type FiniteModelParams struct {
	Width       int `yaml:"width" doc:"width W of the grids, in cells" range:">= 1, width·height >= 2"`
	Height      int `yaml:"height" doc:"height H of the grids, in cells" range:">= 1, width·height >= 2"`
	Models      int `yaml:"models" doc:"number of distinct goal cells, i.e. of distinct MDPs" range:"1 <= models <= width·height"`
	Tasks       int `yaml:"count" doc:"number of tasks of a run, each one of the models drawn uniformly" range:">= 1"`
	MazeActions `yaml:",inline"`
	Slip        float64    `yaml:"slip" doc:"slip probability of every cell" range:"[0, 1]"`
	Lava        []env.Cell `yaml:"lava" doc:"lava cells [x, y], 1-based; landing on one costs lava_cost" range:"inside the maze"`
	env.Rewards `yaml:",inline"`
}

// defaultFiniteModel is the published finite-model setting (decision 20): 4×4 grids of slip 0.4
// with 2 goals, no lava, 50 tasks.
func defaultFiniteModel() Params {
	return &FiniteModelParams{Width: 4, Height: 4, Models: 2, Tasks: 50, MazeActions: paperActions, Slip: 0.4,
		Rewards: env.PaperRewards}
}

// Validate names the first field out of range, before any draw.
func (p *FiniteModelParams) Validate() error {
	err := firstErr(checkSize(p.Width, p.Height), atLeast("models", p.Models, 1),
		atLeast("count", p.Tasks, 1), checkProbability("slip", p.Slip))
	if err == nil && p.Models > p.Width*p.Height {
		err = fmt.Errorf("models = %d, but a %dx%d grid has only %d cells", p.Models, p.Width, p.Height, p.Width*p.Height)
	}
	if err == nil {
		err = checkProto(p.proto())
	}
	return err
}

// proto is every grid of the family but its slips and goal.
func (p *FiniteModelParams) proto() env.Maze {
	return newMaze(p.Width, p.Height, p.MazeActions, p.Rewards, nil, p.Lava)
}

func (p *FiniteModelParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(p.Mazes(rng))
}

// Mazes generates a finite-model sequence (as the published finite-model sequences; decision 20):
// Models distinct goal cells drawn uniformly over all cells, then every task picks one of them
// uniformly. Every cell has slip Slip.
//
// Draw order: a partial Fisher–Yates shuffle of the cell indices 0..S−1 (for i = 0..Models−1,
// rng.IntN(S−i)) gives the goals in order; then for each task in turn, rng.IntN(Models).
func (p *FiniteModelParams) Mazes(rng *rand.Rand) ([]env.Maze, error) {
	if err := firstErr(checkRNG(rng), p.Validate()); err != nil {
		return nil, fmt.Errorf("finite-model grids: %w", err)
	}
	proto := p.proto()
	S := p.Width * p.Height
	cells := make([]int, S)
	for i := range cells {
		cells[i] = i
	}
	models := make([]env.Maze, p.Models)
	for i := range models {
		j := i + rng.IntN(S-i)
		cells[i], cells[j] = cells[j], cells[i]
		models[i] = proto.Clone()
		models[i].Slip = env.UniformSlip(S, p.Slip)
		models[i].Goals = []env.Cell{proto.CellOf(cells[i])}
	}
	return drawFromPool(rng, models, p.Tasks), nil
}
