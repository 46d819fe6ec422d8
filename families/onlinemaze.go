package families

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: OnlineMaze, Summary: "random landform mazes drawn from a pool (Figure 2 \"Online MTRL\")",
		Defaults: defaultOnlineMaze})
}

// OnlineMaze is the family of the paper's online setting: random landform mazes drawn from a pool.
const OnlineMaze = "online-maze"

// OnlineMazeParams are online-maze's parameters (as the published online-maze sequences: W = H = 4,
// Pool = Tasks = 100, Landforms {0, 0.2, 0.4}, goal (4,4), lava (2,2), the paper's rewards).
type OnlineMazeParams struct {
	Width       int `yaml:"width" doc:"width W of the mazes, in cells" range:">= 1, width·height >= 2"`
	Height      int `yaml:"height" doc:"height H of the mazes, in cells" range:">= 1, width·height >= 2"`
	Pool        int `yaml:"pool" doc:"number of distinct random mazes the tasks are drawn from (the published code's mdps)" range:">= 1"`
	Tasks       int `yaml:"count" doc:"number of tasks of a run, drawn from the pool with replacement (the published code's samples)" range:">= 1"`
	MazeActions `yaml:",inline"`
	Landforms   []float64  `yaml:"landforms" doc:"slip probabilities of the landforms; each cell's slip is one of them, drawn uniformly" range:"at least one, each in [0, 1]"`
	Goals       []env.Cell `yaml:"goals" doc:"goal cells [x, y], 1-based; landing on one pays goal_reward" range:"inside the maze"`
	Lava        []env.Cell `yaml:"lava" doc:"lava cells [x, y], 1-based; landing on one costs lava_cost" range:"inside the maze"`
	env.Rewards `yaml:",inline"`
}

// defaultOnlineMaze is the published online-maze setting: 4×4 mazes of landforms {0, 0.2, 0.4},
// goal (4,4), lava (2,2), 100 tasks drawn from a pool of 100.
func defaultOnlineMaze() Params {
	return &OnlineMazeParams{Width: 4, Height: 4, Pool: 100, Tasks: 100, MazeActions: paperActions,
		Landforms: paperLandforms(), Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		Rewards: env.PaperRewards}
}

// Validate names the first field out of range, before any draw.
func (p *OnlineMazeParams) Validate() error {
	err := firstErr(checkSize(p.Width, p.Height), atLeast("pool", p.Pool, 1),
		atLeast("count", p.Tasks, 1), checkLandforms(p.Landforms))
	if err == nil {
		err = checkProto(p.proto())
	}
	return err
}

// proto is every maze of the family but its slips.
func (p *OnlineMazeParams) proto() env.Maze {
	return newMaze(p.Width, p.Height, p.MazeActions, p.Rewards, p.Goals, p.Lava)
}

func (p *OnlineMazeParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(p.Mazes(rng))
}

// Mazes generates an online-MTRL sequence (as the published online-maze sequences): a pool of Pool
// random mazes, each cell's slip uniform over Landforms, then Tasks tasks drawn uniformly with
// replacement from the pool (so Pool = Tasks = 100 gives about 63 distinct tasks).
//
// Draw order: for each pool maze in turn, for each cell in index order, rng.IntN(len(Landforms));
// then for each task in turn, rng.IntN(Pool).
func (p *OnlineMazeParams) Mazes(rng *rand.Rand) ([]env.Maze, error) {
	if err := firstErr(checkRNG(rng), p.Validate()); err != nil {
		return nil, fmt.Errorf("online mazes: %w", err)
	}
	// The pool keeps each maze's landform numbers, two bytes a cell, and only the drawn mazes get
	// their slips: a pool of large mazes costs a quarter of its slips. The draws are those of
	// drawing every slip.
	pool := make([][]uint16, p.Pool)
	for k := range pool {
		pool[k] = make([]uint16, p.Width*p.Height)
		for i := range pool[k] {
			pool[k][i] = uint16(rng.IntN(len(p.Landforms)))
		}
	}
	proto := p.proto()
	seq := make([]env.Maze, p.Tasks)
	for k := range seq {
		seq[k] = proto.Clone()
		seq[k].Slip = make([]float64, p.Width*p.Height)
		for i, l := range pool[rng.IntN(p.Pool)] {
			seq[k].Slip[i] = p.Landforms[l]
		}
	}
	return seq, nil
}

// DrawBytes is the pool's landforms, a uint16 per cell of every maze.
func (p *OnlineMazeParams) DrawBytes() int64 {
	return int64(p.Pool) * int64(p.Width) * int64(p.Height) * 2
}
