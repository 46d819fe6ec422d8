package env

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Generators of task sequences. Each draws only from the given rng, in the order its doc comment
// states, so the sequence is a function of the rng state. Config fields are named in errors by
// their snake_case names.

// OnlineConfig configures OnlineMazes (as the published online-maze sequences: W = H = 4, Pool = Tasks = 100,
// Landforms {0, 0.2, 0.4}, goal (4,4), lava (2,2), step cost 0.2, goal reward 1, lava cost 1).
// The yaml keys are those of a config's tasks: block.
type OnlineConfig struct {
	Width      int       `yaml:"width" doc:"width W of the mazes, in cells" range:">= 1, width·height >= 2"`
	Height     int       `yaml:"height" doc:"height H of the mazes, in cells" range:">= 1, width·height >= 2"`
	Pool       int       `yaml:"pool" doc:"number of distinct random mazes the tasks are drawn from (the published code's mdps)" range:">= 1"`
	Tasks      int       `yaml:"count" doc:"number of tasks of a run, drawn from the pool with replacement (the published code's samples)" range:">= 1"`
	Actions    int       `yaml:"actions" doc:"actions of every task: the 4 moves, or 8 with the diagonals (0: 4)" range:"0 | 4 | 8"`
	Landforms  []float64 `yaml:"landforms" doc:"slip probabilities of the landforms; each cell's slip is one of them, drawn uniformly" range:"at least one, each in [0, 1]"`
	Goals      []Cell    `yaml:"goals" doc:"goal cells [x, y], 1-based; landing on one pays goal_reward" range:"inside the maze"`
	Lava       []Cell    `yaml:"lava" doc:"lava cells [x, y], 1-based; landing on one costs lava_cost" range:"inside the maze"`
	StepCost   float64   `yaml:"step_cost" doc:"cost of every step, the goal's included" range:"finite"`
	GoalReward float64   `yaml:"goal_reward" doc:"reward of landing on a goal cell" range:"finite"`
	LavaCost   float64   `yaml:"lava_cost" doc:"cost of landing on a lava cell" range:"finite"`
}

// FiniteModelConfig configures FiniteModelGrids (decision 20: 4×4, Models 2, Slip 0.4, no lava).
type FiniteModelConfig struct {
	Width      int     `yaml:"width" doc:"width W of the grids, in cells" range:">= 1, width·height >= 2"`
	Height     int     `yaml:"height" doc:"height H of the grids, in cells" range:">= 1, width·height >= 2"`
	Models     int     `yaml:"models" doc:"number of distinct goal cells, i.e. of distinct MDPs" range:"1 <= models <= width·height"`
	Tasks      int     `yaml:"count" doc:"number of tasks of a run, each one of the models drawn uniformly" range:">= 1"`
	Actions    int     `yaml:"actions" doc:"actions of every task: the 4 moves, or 8 with the diagonals (0: 4)" range:"0 | 4 | 8"`
	Slip       float64 `yaml:"slip" doc:"slip probability of every cell" range:"[0, 1]"`
	Lava       []Cell  `yaml:"lava" doc:"lava cells [x, y], 1-based; landing on one costs lava_cost" range:"inside the maze"`
	StepCost   float64 `yaml:"step_cost" doc:"cost of every step, the goal's included" range:"finite"`
	GoalReward float64 `yaml:"goal_reward" doc:"reward of landing on a goal cell" range:"finite"`
	LavaCost   float64 `yaml:"lava_cost" doc:"cost of landing on a lava cell" range:"finite"`
}

// VaryingSizeConfig configures VaryingSizeMazes (decision 21: Sizes 3, 4, 5, 6 and PerSize 20).
type VaryingSizeConfig struct {
	Sizes      []int     `yaml:"sizes" doc:"side n of the n×n mazes, one block of per_size tasks per size, in this order" range:"at least one, each >= 2"`
	PerSize    int       `yaml:"per_size" doc:"number of tasks of each size" range:">= 1"`
	Actions    int       `yaml:"actions" doc:"actions of every task: the 4 moves, or 8 with the diagonals (0: 4)" range:"0 | 4 | 8"`
	Landforms  []float64 `yaml:"landforms" doc:"slip probabilities of the landforms; each cell's slip is one of them, drawn uniformly" range:"at least one, each in [0, 1]"`
	StepCost   float64   `yaml:"step_cost" doc:"cost of every step, the goal's included" range:"finite"`
	GoalReward float64   `yaml:"goal_reward" doc:"reward of landing on a goal cell" range:"finite"`
	LavaCost   float64   `yaml:"lava_cost" doc:"cost of landing on a lava cell" range:"finite"`
}

// GaussianConfig configures GaussianMazes (decision 22: Means 0.2, 0.4, 0.6 and SD 0.05).
type GaussianConfig struct {
	Width  int `yaml:"width" doc:"width W of the mazes, in cells" range:">= 1, width·height >= 2"`
	Height int `yaml:"height" doc:"height H of the mazes, in cells" range:">= 1, width·height >= 2"`
	// Pool > 0 draws a pool of Pool mazes and the tasks from it with replacement, like OnlineMazes.
	// Pool == 0 draws every task afresh, so (almost surely) every task and nearly every template
	// is new: this is our reading of the paper's "infinite number of templates".
	Pool       int       `yaml:"pool" doc:"number of distinct random mazes the tasks are drawn from (0: every task drawn afresh)" range:">= 0"`
	Tasks      int       `yaml:"count" doc:"number of tasks of a run" range:">= 1"`
	Actions    int       `yaml:"actions" doc:"actions of every task: the 4 moves, or 8 with the diagonals (0: 4)" range:"0 | 4 | 8"`
	Means      []float64 `yaml:"means" doc:"means of the mixture of normals each cell's slip is drawn from (clipped to [0, 1])" range:"at least one, each finite"`
	SD         float64   `yaml:"sd" doc:"standard deviation of every normal of the mixture" range:">= 0, finite"`
	Goals      []Cell    `yaml:"goals" doc:"goal cells [x, y], 1-based; landing on one pays goal_reward" range:"inside the maze"`
	Lava       []Cell    `yaml:"lava" doc:"lava cells [x, y], 1-based; landing on one costs lava_cost" range:"inside the maze"`
	StepCost   float64   `yaml:"step_cost" doc:"cost of every step, the goal's included" range:"finite"`
	GoalReward float64   `yaml:"goal_reward" doc:"reward of landing on a goal cell" range:"finite"`
	LavaCost   float64   `yaml:"lava_cost" doc:"cost of landing on a lava cell" range:"finite"`
}

// Validate names the first field out of range, before any draw.
func (c OnlineConfig) Validate() error {
	err := firstErr(checkSize(c.Width, c.Height), atLeast("pool", c.Pool, 1),
		atLeast("count", c.Tasks, 1), checkLandforms(c.Landforms))
	if err == nil {
		err = checkProto(c.proto())
	}
	return err
}

func (c OnlineConfig) proto() Maze {
	return Maze{Width: c.Width, Height: c.Height, Goals: cloneCells(c.Goals), Lava: cloneCells(c.Lava),
		StepCost: c.StepCost, GoalReward: c.GoalReward, LavaCost: c.LavaCost, Actions: defaultActions(c.Actions)}
}

// Validate names the first field out of range, before any draw.
func (c FiniteModelConfig) Validate() error {
	err := firstErr(checkSize(c.Width, c.Height), atLeast("models", c.Models, 1),
		atLeast("count", c.Tasks, 1), checkProbability("slip", c.Slip))
	if err == nil && c.Models > c.Width*c.Height {
		err = fmt.Errorf("models = %d, but a %dx%d grid has only %d cells", c.Models, c.Width, c.Height, c.Width*c.Height)
	}
	if err == nil {
		err = checkProto(c.proto())
	}
	return err
}

func (c FiniteModelConfig) proto() Maze {
	return Maze{Width: c.Width, Height: c.Height, Lava: cloneCells(c.Lava),
		StepCost: c.StepCost, GoalReward: c.GoalReward, LavaCost: c.LavaCost, Actions: defaultActions(c.Actions)}
}

// Validate names the first field out of range, before any draw.
func (c VaryingSizeConfig) Validate() error {
	err := firstErr(checkSizes(c.Sizes), atLeast("per_size", c.PerSize, 1), checkLandforms(c.Landforms))
	if err == nil {
		err = checkProto(Maze{Width: 2, Height: 2, StepCost: c.StepCost, GoalReward: c.GoalReward, LavaCost: c.LavaCost,
			Actions: defaultActions(c.Actions)})
	}
	return err
}

// Validate names the first field out of range, before any draw.
func (c GaussianConfig) Validate() error {
	err := firstErr(checkSize(c.Width, c.Height), atLeast("pool", c.Pool, 0),
		atLeast("count", c.Tasks, 1), checkMixture(c.Means, c.SD))
	if err == nil {
		err = checkProto(c.proto())
	}
	return err
}

func (c GaussianConfig) proto() Maze {
	return Maze{Width: c.Width, Height: c.Height, Goals: cloneCells(c.Goals), Lava: cloneCells(c.Lava),
		StepCost: c.StepCost, GoalReward: c.GoalReward, LavaCost: c.LavaCost, Actions: defaultActions(c.Actions)}
}

// defaultActions is the number of actions, 4 when not given.
func defaultActions(a int) int {
	if a == 0 {
		return 4
	}
	return a
}

// OnlineMazes generates an online-MTRL sequence (as the published online-maze sequences): a pool of Pool
// random mazes, each cell's slip uniform over Landforms, then Tasks tasks drawn uniformly with
// replacement from the pool (so Pool = Tasks = 100 gives about 63 distinct tasks).
//
// Draw order: for each pool maze in turn, for each cell in index order, rng.IntN(len(Landforms));
// then for each task in turn, rng.IntN(Pool).
func OnlineMazes(rng *rand.Rand, c OnlineConfig) ([]Maze, error) {
	if err := firstErr(checkRNG(rng), c.Validate()); err != nil {
		return nil, fmt.Errorf("env: online mazes: %w", err)
	}
	// The pool keeps each maze's landform numbers, two bytes a cell, and only the drawn mazes get
	// their slips: a pool of large mazes costs a quarter of its slips. The draws are those of
	// drawing every slip.
	pool := make([][]uint16, c.Pool)
	for p := range pool {
		pool[p] = make([]uint16, c.Width*c.Height)
		for i := range pool[p] {
			pool[p][i] = uint16(rng.IntN(len(c.Landforms)))
		}
	}
	proto := c.proto()
	seq := make([]Maze, c.Tasks)
	for k := range seq {
		seq[k] = proto.clone()
		seq[k].Slip = make([]float64, c.Width*c.Height)
		for i, l := range pool[rng.IntN(c.Pool)] {
			seq[k].Slip[i] = c.Landforms[l]
		}
	}
	return seq, nil
}

// FiniteModelGrids generates a finite-model sequence (as the published finite-model sequences; decision 20):
// Models distinct goal cells drawn uniformly over all cells, then every task picks one of them
// uniformly. Every cell has slip Slip.
//
// Draw order: a partial Fisher–Yates shuffle of the cell indices 0..S−1 (for i = 0..Models−1,
// rng.IntN(S−i)) gives the goals in order; then for each task in turn, rng.IntN(Models).
func FiniteModelGrids(rng *rand.Rand, c FiniteModelConfig) ([]Maze, error) {
	if err := firstErr(checkRNG(rng), c.Validate()); err != nil {
		return nil, fmt.Errorf("env: finite-model grids: %w", err)
	}
	proto := c.proto()
	S := c.Width * c.Height
	cells := make([]int, S)
	for i := range cells {
		cells[i] = i
	}
	models := make([]Maze, c.Models)
	for i := range models {
		j := i + rng.IntN(S-i)
		cells[i], cells[j] = cells[j], cells[i]
		models[i] = proto.clone()
		models[i].Slip = uniformSlip(S, c.Slip)
		models[i].Goals = []Cell{proto.CellOf(cells[i])}
	}
	return drawFromPool(rng, models, c.Tasks), nil
}

// VaryingSizeMazes generates a varying-size sequence (as the published varying-size sequences; decision
// 21): PerSize tasks of each n×n size in the order of Sizes, each cell's slip uniform over
// Landforms, one goal per task drawn uniformly over its cells and stored in the maze, no lava.
//
// Draw order: for each task in turn, rng.IntN(len(Landforms)) for each cell in index order, then
// rng.IntN(n·n) for the goal.
func VaryingSizeMazes(rng *rand.Rand, c VaryingSizeConfig) ([]Maze, error) {
	if err := firstErr(checkRNG(rng), c.Validate()); err != nil {
		return nil, fmt.Errorf("env: varying-size mazes: %w", err)
	}
	actions := defaultActions(c.Actions)
	seq := make([]Maze, 0, len(c.Sizes)*c.PerSize)
	for _, n := range c.Sizes {
		for range c.PerSize {
			m := Maze{Width: n, Height: n, StepCost: c.StepCost, GoalReward: c.GoalReward, LavaCost: c.LavaCost, Actions: actions}
			m.Slip = landformSlip(rng, n*n, c.Landforms)
			m.Goals = []Cell{m.CellOf(rng.IntN(n * n))}
			seq = append(seq, m)
		}
	}
	return seq, nil
}

// DrawGoals returns a copy of seq in which every maze without a goal gets one goal drawn
// uniformly over its open (non-wall) cells; other tasks are copied unchanged (mazes deeply). It is
// used for the published varying-size sequences, whose goals were drawn at run time.
//
// Draw order: for each maze without a goal in turn, rng.IntN(number of open cells). A maze with
// no open cell or an invalid size, and every maze when rng is nil, is left without a goal (the
// result still NeedsGoals and fails later validation of the experiment).
func DrawGoals(rng *rand.Rand, seq Sequence) Sequence {
	out := make(Sequence, len(seq))
	for k, t := range seq {
		m, ok := t.(Maze)
		if !ok {
			out[k] = t
			continue
		}
		m = m.clone()
		if len(m.Goals) == 0 && rng != nil {
			if open := openCells(&m); len(open) > 0 {
				m.Goals = []Cell{open[rng.IntN(len(open))]}
			}
		}
		out[k] = m
	}
	return out
}

// GaussianMazes generates a sequence with continuous landforms (paper §"MTRL with Infinite
// Templates"; decision 22): each cell's slip is drawn from an equal-weight mixture of normals
// with the given Means and standard deviation SD, clipped to [0, 1]. With Pool > 0 the tasks are
// drawn with replacement from a pool of Pool mazes as in OnlineMazes; with Pool == 0 every task is
// a fresh draw.
//
// Draw order: for each maze drawn (the pool mazes in turn, or with Pool == 0 the tasks in turn),
// for each cell in index order, rng.IntN(len(Means)) then rng.NormFloat64(); then with Pool > 0,
// for each task in turn, rng.IntN(Pool).
func GaussianMazes(rng *rand.Rand, c GaussianConfig) ([]Maze, error) {
	if err := firstErr(checkRNG(rng), c.Validate()); err != nil {
		return nil, fmt.Errorf("env: gaussian mazes: %w", err)
	}
	proto := c.proto()
	n := c.Pool
	if n == 0 {
		n = c.Tasks
	}
	mazes := make([]Maze, n)
	for i := range mazes {
		mazes[i] = proto.clone()
		mazes[i].Slip = gaussianSlip(rng, c.Width*c.Height, c.Means, c.SD)
	}
	if c.Pool == 0 {
		return mazes, nil
	}
	return drawFromPool(rng, mazes, c.Tasks), nil
}

// drawFromPool draws tasks mazes uniformly with replacement from pool (rng.IntN(len(pool)) per
// task, in order); each task is its own deep copy.
func drawFromPool(rng *rand.Rand, pool []Maze, tasks int) []Maze {
	seq := make([]Maze, tasks)
	for k := range seq {
		seq[k] = pool[rng.IntN(len(pool))].clone()
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

// openCells lists the non-wall cells of m in index order (nil for an invalid size).
func openCells(m *Maze) []Cell {
	if m.Width < 1 || m.Height < 1 {
		return nil
	}
	walls := make(map[Cell]bool, len(m.Walls))
	for _, w := range m.Walls {
		walls[w] = true
	}
	var open []Cell
	for i := range m.Width * m.Height {
		if c := m.CellOf(i); !walls[c] {
			open = append(open, c)
		}
	}
	return open
}

// clone is a deep copy of m.
func (m Maze) clone() Maze {
	m.Slip = cloneFloats(m.Slip)
	m.Goals = cloneCells(m.Goals)
	m.Lava = cloneCells(m.Lava)
	m.Walls = cloneCells(m.Walls)
	return m
}

// cloneCells copies cells; an empty list becomes nil, as it reads back from JSON.
func cloneCells(cells []Cell) []Cell {
	if len(cells) == 0 {
		return nil
	}
	return append([]Cell(nil), cells...)
}

func cloneFloats(xs []float64) []float64 {
	if xs == nil {
		return nil
	}
	return append([]float64{}, xs...)
}

// checkProto validates the maze a generator copies, with zero slips, so that bad goals, lava,
// rewards or actions are reported before any draw.
func checkProto(m Maze) error {
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
	return checkCells(w, h)
}

// MaxCells is the largest maze, in cells (2048 × 2048). A maze's model takes about 100 bytes per
// state-action pair and each learner as much again, so a larger maze needs gigabytes per task;
// it is refused before any array of one entry per cell is allocated.
const MaxCells = 1 << 22

// checkCells refuses a maze of more than MaxCells cells, naming its size.
func checkCells(w, h int) error {
	if w > MaxCells/h {
		return fmt.Errorf("width = %d, height = %d: %d cells, more than the %d (2048x2048) a maze may have; "+
			"use a smaller width and height", w, h, int64(w)*int64(h), MaxCells)
	}
	return nil
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

// checkLandforms requires a non-empty list of slip probabilities.
// maxLandforms is the most landforms a maze pool can number (OnlineMazes keeps them as uint16).
const maxLandforms = 1 << 16

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

// checkSizes requires a non-empty list of maze sides, each at least 2.
func checkSizes(sizes []int) error {
	if len(sizes) == 0 {
		return errors.New("sizes is empty, want at least one size")
	}
	for i, n := range sizes {
		if n < 2 {
			return fmt.Errorf("sizes[%d] = %d, want at least 2", i, n)
		}
		if err := checkCells(n, n); err != nil {
			return fmt.Errorf("sizes[%d]: %w", i, err)
		}
	}
	return nil
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

// firstErr is the first non-nil error, checked in the order the config fields are documented.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
