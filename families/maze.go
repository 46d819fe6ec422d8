package families

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// What the maze families (online-maze, finite-model, varying-size, gaussian, varying-actions, grid,
// fourroom) share: the actions key, the drawing of slips and the checks of their parameters. Their
// rewards are env.Rewards. Every generator draws only from the given rng, in the order its doc
// comment states, so the sequence is a function of the rng state; parameters are named in errors
// by their config keys.

// MazeActions is the actions key of every maze family.
type MazeActions struct {
	Actions int `yaml:"actions" doc:"actions of every task: the 4 moves, or 8 with the diagonals (0: 4)" range:"0 | 4 | 8"`
}

// count is the number of actions, 4 when not given.
func (a MazeActions) count() int {
	if a.Actions == 0 {
		return 4
	}
	return a.Actions
}

// paperActions are the 4 moves of the paper's mazes.
var paperActions = MazeActions{Actions: 4}

// paperLandforms are the slips of the paper's three landforms.
func paperLandforms() []float64 { return []float64{0, 0.2, 0.4} }

// newMaze is the width×height maze with these actions, rewards, goals and lava (copied), without
// slips.
func newMaze(width, height int, a MazeActions, r env.Rewards, goals, lava []env.Cell) env.Maze {
	return env.Maze{Width: width, Height: height, Goals: goals, Lava: lava, Actions: a.count()}.WithRewards(r).Clone()
}

// mazes is the sequence of the mazes a generator made, or its error.
func mazes(ms []env.Maze, err error) (env.Sequence, error) {
	if err != nil {
		return nil, err
	}
	return env.Mazes(ms...), nil
}

// drawFromPool draws tasks mazes uniformly with replacement from pool (rng.IntN(len(pool)) per
// task, in order); each task is its own deep copy.
func drawFromPool(rng *rand.Rand, pool []env.Maze, tasks int) []env.Maze {
	seq := make([]env.Maze, tasks)
	for k := range seq {
		seq[k] = pool[rng.IntN(len(pool))].Clone()
	}
	return seq
}

// landformSlip draws n slips uniformly from landforms, one rng.IntN per cell.
func landformSlip(rng *rand.Rand, n int, landforms []float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = landforms[rng.IntN(len(landforms))]
	}
	return s
}

// checkProto validates the maze a generator copies, with zero slips, so that bad goals, lava,
// rewards or actions are reported before any draw.
func checkProto(m env.Maze) error {
	m.Slip = make([]float64, m.Width*m.Height)
	return m.Validate()
}

func checkRNG(rng *rand.Rand) error {
	if rng == nil {
		return errors.New("rng is nil")
	}
	return nil
}

func checkSize(w, h int) error {
	if w < 1 || h < 1 || w == 1 && h == 1 {
		return fmt.Errorf("width = %d, height = %d, want both at least 1 and at least 2 cells", w, h)
	}
	return env.CheckCells(w, h)
}

func atLeast(name string, v, lo int) error {
	if v < lo {
		return fmt.Errorf("%s = %d, want at least %d", name, v, lo)
	}
	return nil
}

func checkProbability(name string, p float64) error {
	if !(p >= 0 && p <= 1) {
		return fmt.Errorf("%s = %v, want a probability in [0, 1]", name, p)
	}
	return nil
}

// maxLandforms is the most landforms a maze pool can number (online-maze keeps them as uint16).
const maxLandforms = 1 << 16

// checkLandforms requires a non-empty list of slip probabilities.
func checkLandforms(landforms []float64) error {
	if len(landforms) == 0 {
		return errors.New("landforms is empty, want at least one slip probability")
	}
	if len(landforms) > maxLandforms {
		return fmt.Errorf("landforms has %d values, want at most %d", len(landforms), maxLandforms)
	}
	for i, p := range landforms {
		if err := checkProbability(fmt.Sprintf("landforms[%d]", i), p); err != nil {
			return err
		}
	}
	return nil
}

// firstErr is the first non-nil error, checked in the order the config fields are documented.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
