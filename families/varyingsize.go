package families

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: VaryingSize, Summary: "landform mazes of growing size, one goal drawn per task (Figure 2 \"Varying-sized MTRL\")",
		Defaults: defaultVaryingSize})
}

// VaryingSize is the family of the paper's varying-sized setting: landform mazes of growing size.
const VaryingSize = "varying-size"

// VaryingSizeParams are varying-size's parameters.
type VaryingSizeParams struct {
	Sizes       []int `yaml:"sizes" doc:"side n of the n×n mazes, one block of per_size tasks per size, in this order" range:"at least one, each >= 2"`
	PerSize     int   `yaml:"per_size" doc:"number of tasks of each size" range:">= 1"`
	MazeActions `yaml:",inline"`
	Landforms   []float64 `yaml:"landforms" doc:"slip probabilities of the landforms; each cell's slip is one of them, drawn uniformly" range:"at least one, each in [0, 1]"`
	env.Rewards `yaml:",inline"`
}

// defaultVaryingSize is the published varying-size setting (decision 21): 20 mazes each of
// 3×3, 4×4, 5×5 and 6×6.
func defaultVaryingSize() Params {
	return &VaryingSizeParams{Sizes: []int{3, 4, 5, 6}, PerSize: 20, MazeActions: paperActions,
		Landforms: paperLandforms(), Rewards: env.PaperRewards}
}

// Validate names the first field out of range, before any draw.
func (p *VaryingSizeParams) Validate() error {
	err := firstErr(checkSizes(p.Sizes), atLeast("per_size", p.PerSize, 1), checkLandforms(p.Landforms))
	if err == nil {
		err = checkProto(newMaze(2, 2, p.MazeActions, p.Rewards, nil, nil))
	}
	return err
}

// checkSizes requires a non-empty list of maze sides, each at least 2.
func checkSizes(sizes []int) error {
	if len(sizes) == 0 {
		return errors.New("sizes is empty, want at least one size")
	}
	for i, n := range sizes {
		if n < 2 {
			return fmt.Errorf("sizes[%d] = %d, want at least 2", i, n)
		}
		if err := env.CheckCells(n, n); err != nil {
			return fmt.Errorf("sizes[%d]: %w", i, err)
		}
	}
	return nil
}

func (p *VaryingSizeParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(p.Mazes(rng))
}

// Mazes generates a varying-size sequence (as the published varying-size sequences; decision 21):
// PerSize tasks of each n×n size in the order of Sizes, each cell's slip uniform over Landforms,
// one goal per task drawn uniformly over its cells and stored in the maze, no lava.
//
// Draw order: for each task in turn, rng.IntN(len(Landforms)) for each cell in index order, then
// rng.IntN(n·n) for the goal.
func (p *VaryingSizeParams) Mazes(rng *rand.Rand) ([]env.Maze, error) {
	if err := firstErr(checkRNG(rng), p.Validate()); err != nil {
		return nil, fmt.Errorf("varying-size mazes: %w", err)
	}
	seq := make([]env.Maze, 0, len(p.Sizes)*p.PerSize)
	for _, n := range p.Sizes {
		for range p.PerSize {
			m := newMaze(n, n, p.MazeActions, p.Rewards, nil, nil)
			m.Slip = landformSlip(rng, n*n, p.Landforms)
			m.Goals = []env.Cell{m.CellOf(rng.IntN(n * n))}
			seq = append(seq, m)
		}
	}
	return seq, nil
}
