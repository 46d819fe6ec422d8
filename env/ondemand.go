package env

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/temple-rl/temple/mdp"
)

// OnDemand is a task that can compute its model's rows when they are read instead of storing
// them (mdp.Dynamics): a large maze is a few bytes per cell this way, against about 80 bytes per
// state-action pair as a Model. The runner and the C ABI step such a task on demand from
// OnDemandPairs pairs on (LargeOnDemand).
type OnDemand interface {
	Task
	Sized
	Dynamics() (mdp.Dynamics, error)
	// Reach is the most states within r steps of one state, for memory estimates.
	Reach(r int) int
	// RewardBound is at least every |r| of the task's transitions, for memory estimates.
	RewardBound() float64
}

// OnDemandPairs is the size, in state-action pairs, from which a task that can compute its rows
// when they are read (OnDemand: a maze, from 256×256 cells on) is stepped that way instead of from
// a stored model: a stored model costs about 80 bytes per pair and minutes to solve whole, while
// an experiment reads only the pairs its episodes meet.
const OnDemandPairs = 1 << 18

// LargeOnDemand returns def as a task to compute on demand: one that can be (OnDemand) with at
// least OnDemandPairs pairs.
func LargeOnDemand(def Task) (OnDemand, bool) {
	od, ok := def.(OnDemand)
	if !ok {
		return nil, false
	}
	if S, A := od.Size(); int64(S)*int64(A) < OnDemandPairs {
		return nil, false
	}
	return od, true
}

// FixedStart is the start state of task def, whose MDP is d, under a fixed start: state when it is
// given, otherwise the state of cell in a grid task (CellTask). It must be a state of the task and
// not terminal.
func FixedStart(def Task, d mdp.Dynamics, state *int, cell Cell) (int, error) {
	var s int
	if state != nil {
		s = *state
		if S, _ := d.Size(); s < 0 || s >= S {
			return 0, fmt.Errorf("start_state = %d, but the task has %d states", s, S)
		}
	} else {
		grid, ok := def.(CellTask)
		if !ok {
			return 0, fmt.Errorf("start_cell = %v needs a grid task; give start_state instead", cell)
		}
		if s, ok = grid.StateOfCell(cell); !ok {
			return 0, fmt.Errorf("start_cell = %v is not an open cell of the task", cell)
		}
	}
	if d.Terminal(s) {
		return 0, fmt.Errorf("the fixed start state %d is terminal", s)
	}
	return s, nil
}

// MazeDynamics is a maze's model computed on demand: each pair's outcomes are worked out from the
// maze when they are read, from a byte per cell and the maze's slips. Maze.Model stores the same
// rows, so both draw alike. It is safe for concurrent use.
type MazeDynamics struct {
	maze     Maze
	kind     []cellKind // per cell
	slips    *[8][2]int
	terminal []bool // nil when no cell is terminal
	// The start distribution μ is uniform over the starts (the open cells that are not terminal);
	// startSum[k] is the sum of μ over starts[0..k], added in state order as Model.SampleStart adds
	// it, so that a binary search finds the state its linear scan finds.
	starts   []int32
	startSum []float64
	maxAbs   struct {
		once sync.Once
		r    float64
	}
	rewards struct {
		once   sync.Once
		lo, hi float64
	}
}

type cellKind uint8

const (
	openCell cellKind = iota
	wallCell
	goalCell
	lavaCell
)

var _ mdp.Dynamics = (*MazeDynamics)(nil)

// Dynamics is the maze's model computed on demand (OnDemand).
func (m Maze) Dynamics() (mdp.Dynamics, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	S := m.Width * m.Height
	d := &MazeDynamics{maze: m, kind: make([]cellKind, S), slips: &slip4x}
	if m.Actions == 8 {
		d.slips = &slip8
	}
	// Reward gives a goal precedence over lava.
	for _, c := range m.Lava {
		d.kind[m.Index(c)] = lavaCell
	}
	for _, c := range m.Goals {
		d.kind[m.Index(c)] = goalCell
	}
	for _, c := range m.Walls {
		d.kind[m.Index(c)] = wallCell
	}
	if m.TerminalGoals {
		d.terminal = m.cellSet(m.Goals)
	}
	for s := range S {
		if d.kind[s] != wallCell && (d.terminal == nil || !d.terminal[s]) {
			d.starts = append(d.starts, int32(s))
		}
	}
	p, c := 1/float64(len(d.starts)), 0.0
	d.startSum = make([]float64, len(d.starts))
	for k := range d.starts {
		c += p
		d.startSum[k] = c
	}
	return d, nil
}

// Reach is the most cells within r moves of one cell: a diamond of 2r(r+1)+1 cells with 4
// actions, a (2r+1)² square with the diagonals, and never more than the maze.
func (m Maze) Reach(r int) int {
	S := int64(m.Width) * int64(m.Height)
	if r >= m.Width+m.Height { // every cell, and no overflow below
		return int(S)
	}
	n := int64(2*r+1) * int64(2*r+1)
	if m.Actions == 4 {
		n = 2*int64(r)*int64(r+1) + 1
	}
	return int(min(n, S))
}

// RewardBound is the largest |r| a step can pay: a goal's, lava's or a step's.
func (m Maze) RewardBound() float64 {
	return max(math.Abs(m.GoalReward-m.StepCost), math.Abs(0-m.LavaCost), math.Abs(0-m.StepCost))
}

// slip4x is slip4 in the array type of slip8, so that both index alike.
var slip4x = [8][2]int{Up: slip4[Up], Down: slip4[Down], Left: slip4[Left], Right: slip4[Right]}

// Size is the number of cells and of actions.
func (d *MazeDynamics) Size() (S, A int) { return d.maze.Width * d.maze.Height, d.maze.Actions }

// reward is the reward paid for landing in cell s: a goal's (also when it is lava), lava's, or a
// step's. 0 − x rather than −x, so that a cost of 0 pays +0, not −0.
func (d *MazeDynamics) reward(s int) float64 {
	switch d.kind[s] {
	case goalCell:
		return d.maze.GoalReward - d.maze.StepCost
	case lavaCell:
		return 0 - d.maze.LavaCost
	}
	return 0 - d.maze.StepCost
}

// target is the cell a move in direction dir from s lands in: s itself at the border or a wall.
func (d *MazeDynamics) target(s, dir int) int {
	w, h := d.maze.Width, d.maze.Height
	x, y := s%w+moves[dir].X, s/w+moves[dir].Y
	if x < 0 || x >= w || y < 0 || y >= h {
		return s
	}
	if to := x + y*w; d.kind[to] != wallCell {
		return to
	}
	return s
}

// row writes the outcomes of pair i into out and returns how many there are, as Maze.Model
// builds them: a wall loops on itself with reward 0, a terminal cell is absorbing, and an open
// cell moves to the intended target with 1 − slip and to each slip direction with slip/2, equal
// targets merged in that order and outcomes of probability 0 dropped.
func (d *MazeDynamics) row(i int, out *[3]mdp.Transition) int {
	A := d.maze.Actions
	s, a := i/A, i%A
	if d.kind[s] == wallCell || d.terminal != nil && d.terminal[s] {
		out[0] = mdp.Transition{Next: s, Prob: 1}
		return 1
	}
	p := d.maze.Slip[s]
	n := 0
	add := func(next int, prob float64) {
		for k := range n {
			if out[k].Next == next {
				out[k].Prob += prob
				return
			}
		}
		out[n] = mdp.Transition{Next: next, Prob: prob, Reward: d.reward(next)}
		n++
	}
	add(d.target(s, a), 1-p)
	add(d.target(s, d.slips[a][0]), p/2)
	add(d.target(s, d.slips[a][1]), p/2)
	kept := 0
	for k := range n {
		if out[k].Prob != 0 {
			out[kept] = out[k]
			kept++
		}
	}
	return kept
}

// AppendRow appends the outcomes of pair i to dst (mdp.Dynamics).
func (d *MazeDynamics) AppendRow(dst []mdp.Transition, i int) []mdp.Transition {
	var out [3]mdp.Transition
	n := d.row(i, &out)
	return append(dst, out[:n]...)
}

// Step samples one transition from (s, a) as Model.Step does.
func (d *MazeDynamics) Step(s, a int, rng *rand.Rand) (next int, reward float64) {
	var out [3]mdp.Transition
	n := d.row(s*d.maze.Actions+a, &out)
	u := rng.Float64()
	c := 0.0
	for k := range n - 1 {
		if c += out[k].Prob; u < c {
			return out[k].Next, out[k].Reward
		}
	}
	return out[n-1].Next, out[n-1].Reward
}

// Terminal reports whether s is a terminal goal.
func (d *MazeDynamics) Terminal(s int) bool { return d.terminal != nil && d.terminal[s] }

// TerminalStates returns a copy of the terminal flags, nil when no cell is terminal.
func (d *MazeDynamics) TerminalStates() []bool { return slices.Clone(d.terminal) }

// SampleStart draws a start cell uniformly over the open cells that are not terminal, as
// Model.SampleStart does: the first start whose running sum exceeds the draw, else the last.
func (d *MazeDynamics) SampleStart(rng *rand.Rand) int {
	u := rng.Float64()
	// The running sum strictly increases (each term is at least 2^-22, far above its rounding).
	k, _ := slices.BinarySearchFunc(d.startSum, u, func(sum, u float64) int {
		if u < sum {
			return 1
		}
		return -1
	})
	return int(d.starts[min(k, len(d.starts)-1)])
}

// MaxAbsReward is the largest |r| over the outcomes of every pair, computed once.
func (d *MazeDynamics) MaxAbsReward() float64 {
	d.maxAbs.once.Do(func() {
		S, A := d.Size()
		var out [3]mdp.Transition
		for i := range S * A {
			for _, t := range out[:d.row(i, &out)] {
				d.maxAbs.r = math.Max(d.maxAbs.r, math.Abs(t.Reward))
			}
		}
	})
	return d.maxAbs.r
}

// RewardRange is the smallest and largest reward of the outcomes of every pair of a state that is
// not terminal (mdp.RewardRange), computed once.
func (d *MazeDynamics) RewardRange() (lo, hi float64) {
	d.rewards.once.Do(func() {
		S, A := d.Size()
		lo, hi := math.Inf(1), math.Inf(-1)
		var out [3]mdp.Transition
		for i := range S * A {
			if d.Terminal(i / A) {
				continue
			}
			for _, t := range out[:d.row(i, &out)] {
				lo, hi = math.Min(lo, t.Reward), math.Max(hi, t.Reward)
			}
		}
		if lo > hi {
			lo, hi = 0, 0
		}
		d.rewards.lo, d.rewards.hi = lo, hi
	})
	return d.rewards.lo, d.rewards.hi
}
