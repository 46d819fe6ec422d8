package families

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: Gaussian, Summary: "mazes whose slips are drawn from a mixture of normals (Figure 2 \"Infinite number of TTs\")",
		Defaults: defaultGaussian})
}

// Gaussian is the family of the paper's setting with infinitely many templates: mazes whose slips
// are drawn from a mixture of normals.
const Gaussian = "gaussian"

// GaussianParams are gaussian's parameters.
type GaussianParams struct {
	Width  int `yaml:"width" doc:"width W of the mazes, in cells" range:">= 1, width·height >= 2"`
	Height int `yaml:"height" doc:"height H of the mazes, in cells" range:">= 1, width·height >= 2"`
	// Pool > 0 draws a pool of Pool mazes and the tasks from it with replacement, like online-maze.
	// Pool == 0 draws every task afresh, so (almost surely) every task and nearly every template
	// is new: this is our reading of the paper's "infinite number of templates".
	Pool        int `yaml:"pool" doc:"number of distinct random mazes the tasks are drawn from (0: every task drawn afresh)" range:">= 0"`
	Tasks       int `yaml:"count" doc:"number of tasks of a run" range:">= 1"`
	MazeActions `yaml:",inline"`
	Means       []float64  `yaml:"means" doc:"means of the mixture of normals each cell's slip is drawn from (clipped to [0, 1])" range:"at least one, each finite"`
	SD          float64    `yaml:"sd" doc:"standard deviation of every normal of the mixture" range:">= 0, finite"`
	Goals       []env.Cell `yaml:"goals" doc:"goal cells [x, y], 1-based; landing on one pays goal_reward" range:"inside the maze"`
	Lava        []env.Cell `yaml:"lava" doc:"lava cells [x, y], 1-based; landing on one costs lava_cost" range:"inside the maze"`
	env.Rewards `yaml:",inline"`
}

// defaultGaussian is our reading of the paper's setting (decision 22): 4×4 mazes, means 0.2, 0.4
// and 0.6, sd 0.05, every one of 100 tasks drawn afresh.
func defaultGaussian() Params {
	return &GaussianParams{Width: 4, Height: 4, Tasks: 100, MazeActions: paperActions,
		Means: []float64{0.2, 0.4, 0.6}, SD: 0.05, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		Rewards: env.PaperRewards}
}

// Validate names the first field out of range, before any draw.
func (p *GaussianParams) Validate() error {
	err := firstErr(checkSize(p.Width, p.Height), atLeast("pool", p.Pool, 0),
		atLeast("count", p.Tasks, 1), checkMixture(p.Means, p.SD))
	if err == nil {
		err = checkProto(p.proto())
	}
	return err
}

// checkMixture requires at least one finite mean and a finite sd ≥ 0.
func checkMixture(means []float64, sd float64) error {
	if len(means) == 0 {
		return errors.New("means is empty, want at least one mixture mean")
	}
	for i, m := range means {
		if math.IsNaN(m) || math.IsInf(m, 0) {
			return fmt.Errorf("means[%d] = %v, want a finite number", i, m)
		}
	}
	if !(sd >= 0) || math.IsInf(sd, 0) {
		return fmt.Errorf("sd = %v, want a finite number at least 0", sd)
	}
	return nil
}

// proto is every maze of the family but its slips.
func (p *GaussianParams) proto() env.Maze {
	return newMaze(p.Width, p.Height, p.MazeActions, p.Rewards, p.Goals, p.Lava)
}

func (p *GaussianParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(p.Mazes(rng))
}

// Mazes generates a sequence with continuous landforms (paper §"MTRL with Infinite Templates";
// decision 22): each cell's slip is drawn from an equal-weight mixture of normals with the given
// Means and standard deviation SD, clipped to [0, 1]. With Pool > 0 the tasks are drawn with
// replacement from a pool of Pool mazes as in online-maze; with Pool == 0 every task is a fresh
// draw.
//
// Draw order: for each maze drawn (the pool mazes in turn, or with Pool == 0 the tasks in turn),
// for each cell in index order, rng.IntN(len(Means)) then rng.NormFloat64(); then with Pool > 0,
// for each task in turn, rng.IntN(Pool).
func (p *GaussianParams) Mazes(rng *rand.Rand) ([]env.Maze, error) {
	if err := firstErr(checkRNG(rng), p.Validate()); err != nil {
		return nil, fmt.Errorf("gaussian mazes: %w", err)
	}
	proto := p.proto()
	n := p.Pool
	if n == 0 {
		n = p.Tasks
	}
	mazes := make([]env.Maze, n)
	for i := range mazes {
		mazes[i] = proto.Clone()
		mazes[i].Slip = gaussianSlip(rng, p.Width*p.Height, p.Means, p.SD)
	}
	if p.Pool == 0 {
		return mazes, nil
	}
	return drawFromPool(rng, mazes, p.Tasks), nil
}

// gaussianSlip draws n slips from the equal-weight normal mixture, clipped to [0, 1]: per cell
// the component (rng.IntN) and then the normal deviate (rng.NormFloat64).
func gaussianSlip(rng *rand.Rand, n int, means []float64, sd float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		mean := means[rng.IntN(len(means))]
		s[i] = min(1, max(0, rng.NormFloat64()*sd+mean))
	}
	return s
}
