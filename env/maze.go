// Package env holds the tasks of the experiments and their sequences. A task is any tabular MDP
// (Task): the slippery maze with per-cell landforms — which also makes the grid worlds, FourRoom
// and the 8-action grid — and the other task kinds. A sequence (Sequence) is the list of tasks
// one run faces; package families draws them, this package writes and reads their JSON form and
// reads the published sequences. It also holds what every maze family shares: the rewards
// (Rewards, PaperRewards) and the bound on a maze's size (MaxCells). A maze can also compute its model's rows on demand (OnDemand,
// MazeDynamics), for mazes too large to store.
package env

import (
	"fmt"
	"math"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/mdp"
)

// Cell is a maze cell (X, Y), both 1-based: X is the column, Y the row.
type Cell struct{ X, Y int }

func (c Cell) String() string { return fmt.Sprintf("(%d,%d)", c.X, c.Y) }

// MarshalYAML writes a cell as the flow sequence [x, y].
func (c Cell) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, v := range []int{c.X, c.Y} {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(v)})
	}
	return n, nil
}

// UnmarshalYAML reads a cell from [x, y], naming the line of anything else.
func (c *Cell) UnmarshalYAML(n *yaml.Node) error {
	var xy []int
	if err := n.Decode(&xy); err != nil || len(xy) != 2 {
		return fmt.Errorf("line %d: a cell is [x, y] with two integers", n.Line)
	}
	c.X, c.Y = xy[0], xy[1]
	return nil
}

// Actions of the maze, in table order. Up moves to larger Y, so the goal (W,H) is the top-right cell.
const (
	Up = iota
	Down
	Left
	Right
	UpLeft
	UpRight
	DownLeft
	DownRight
)

// ActionNames are the names of the actions in table order.
var ActionNames = [8]string{"up", "down", "left", "right", "up-left", "up-right", "down-left", "down-right"}

var moves = [8]Cell{{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}}

// slipTo lists, for each action, the two directions it slips to. With 4 actions these are the
// perpendicular moves (simple_rl's maze: up/down slip left or right, left/right slip up or down; never
// backwards). With 8 actions they are the two neighbours on the ring of 8 directions (up slips to
// up-left or up-right, up-right to up or right, …).
var (
	slip4 = [4][2]int{Up: {Left, Right}, Down: {Left, Right}, Left: {Up, Down}, Right: {Up, Down}}
	slip8 = [8][2]int{
		Up: {UpLeft, UpRight}, Down: {DownLeft, DownRight}, Left: {UpLeft, DownLeft}, Right: {UpRight, DownRight},
		UpLeft: {Up, Left}, UpRight: {Up, Right}, DownLeft: {Down, Left}, DownRight: {Down, Right},
	}
)

// Maze is a slippery grid maze (simple_rl's MazeMDP). Each cell carries the slip probability of its
// landform: from cell c the intended move happens with probability 1 − Slip[c] and each of the
// two slip directions with Slip[c]/2; a move into the border or a wall stays in c. The reward
// depends on the cell landed in: GoalReward − StepCost on a goal, −LavaCost on lava, −StepCost
// elsewhere (a cell that is both goal and lava pays as a goal). In the paper's experiments the
// goal is not terminal; with TerminalGoals an episode ends on reaching a goal (FourRoom and the
// grid worlds of Appendix F.5, as simple_rl's is_goal_terminal).
type Maze struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// Slip[(x−1)+(y−1)·Width] is the slip probability of cell (x, y).
	Slip       []float64 `json:"slip"`
	Goals      []Cell    `json:"goals,omitempty"`
	Lava       []Cell    `json:"lava,omitempty"`
	Walls      []Cell    `json:"walls,omitempty"`
	StepCost   float64   `json:"step_cost"`
	GoalReward float64   `json:"goal_reward"`
	LavaCost   float64   `json:"lava_cost"`
	// Actions is 4 (up, down, left, right) or 8 (plus the diagonals).
	Actions int `json:"actions"`
	// TerminalGoals makes the goal cells terminal: the episode ends on reaching one.
	TerminalGoals bool `json:"terminal_goals,omitempty"`
}

// Kind is KindMaze.
func (m Maze) Kind() string { return KindMaze }

// Name is "maze WxH", with "8 actions" when it has the diagonals.
func (m Maze) Name() string {
	if m.Actions == 8 {
		return fmt.Sprintf("maze %dx%d, 8 actions", m.Width, m.Height)
	}
	return fmt.Sprintf("maze %dx%d", m.Width, m.Height)
}

// Size is the number of states (cells) and actions of the maze's model, known before it is built.
func (m Maze) Size() (states, actions int) { return m.Width * m.Height, m.Actions }

// StateOfCell is the state of cell c, false when c is outside the maze or a wall.
func (m Maze) StateOfCell(c Cell) (int, bool) {
	if !m.inside(c) || m.IsWall(m.Index(c)) {
		return 0, false
	}
	return m.Index(c), true
}

// Index is the state index of cell c: (x−1) + (y−1)·Width.
func (m Maze) Index(c Cell) int { return (c.X - 1) + (c.Y-1)*m.Width }

// CellOf is the cell of state index i.
func (m Maze) CellOf(i int) Cell { return Cell{X: i%m.Width + 1, Y: i/m.Width + 1} }

func (m Maze) inside(c Cell) bool { return c.X >= 1 && c.X <= m.Width && c.Y >= 1 && c.Y <= m.Height }

// Validate reports the first field that is out of range.
func (m Maze) Validate() error {
	if m.Width < 1 || m.Height < 1 {
		return fmt.Errorf("maze: width %d and height %d must both be at least 1", m.Width, m.Height)
	}
	if err := CheckCells(m.Width, m.Height); err != nil {
		return fmt.Errorf("maze: %w", err)
	}
	if m.Width*m.Height < 2 {
		return fmt.Errorf("maze: a %dx%d maze has a single cell; need at least 2", m.Width, m.Height)
	}
	if m.Actions != 4 && m.Actions != 8 {
		return fmt.Errorf("maze: actions = %d, want 4 or 8", m.Actions)
	}
	if len(m.Slip) != m.Width*m.Height {
		return fmt.Errorf("maze: %d slip probabilities for a %dx%d maze, want %d", len(m.Slip), m.Width, m.Height, m.Width*m.Height)
	}
	for i, p := range m.Slip {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("maze: slip of cell %v is %v, want a probability in [0, 1]", m.CellOf(i), p)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"step cost", m.StepCost}, {"goal reward", m.GoalReward}, {"lava cost", m.LavaCost}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("maze: %s is %v, want a finite number", f.name, f.v)
		}
	}
	for _, l := range []struct {
		name  string
		cells []Cell
	}{{"goal", m.Goals}, {"lava", m.Lava}, {"wall", m.Walls}} {
		for _, c := range l.cells {
			if !m.inside(c) {
				return fmt.Errorf("maze: %s cell %v is outside the %dx%d maze", l.name, c, m.Width, m.Height)
			}
		}
	}
	walls := m.cellSet(m.Walls)
	for _, c := range append(append([]Cell(nil), m.Goals...), m.Lava...) {
		if walls[m.Index(c)] {
			return fmt.Errorf("maze: cell %v is both a wall and a goal or lava cell", c)
		}
	}
	if len(m.Walls) >= m.Width*m.Height {
		return fmt.Errorf("maze: every cell is a wall")
	}
	if m.TerminalGoals && len(m.Goals) == 0 {
		return fmt.Errorf("maze: terminal_goals is set but the maze has no goal cell")
	}
	if m.TerminalGoals {
		goals, canStart := m.cellSet(m.Goals), false
		for s, w := range walls {
			if !w && !goals[s] {
				canStart = true
				break
			}
		}
		if !canStart {
			return fmt.Errorf("maze: every open cell is a terminal goal, so no episode can start")
		}
	}
	return nil
}

func (m Maze) cellSet(cells []Cell) []bool {
	set := make([]bool, m.Width*m.Height)
	for _, c := range cells {
		set[m.Index(c)] = true
	}
	return set
}

// IsWall reports whether cell index i is a wall.
func (m Maze) IsWall(i int) bool {
	for _, c := range m.Walls {
		if m.Index(c) == i {
			return true
		}
	}
	return false
}

// Model builds the validated MDP of the maze. Every cell is a state; wall cells are unreachable
// and loop on themselves with reward 0. With TerminalGoals the goal cells are terminal. The start
// distribution is uniform over the open cells that are not terminal (the experiment runner
// chooses start cells by its own rule).
func (m Maze) Model() (*mdp.Model, error) {
	dyn, err := m.Dynamics()
	if err != nil {
		return nil, err
	}
	d := dyn.(*MazeDynamics)
	S, A := d.Size()
	// Rows go to the builder pair by pair: a 2000×2000 maze never holds 16 M row slices.
	b, err := mdp.NewBuilder(S, A, d.terminal, S*A*3)
	if err != nil {
		return nil, err
	}
	var out [3]mdp.Transition
	for i := range S * A {
		if err := b.Add(out[:d.row(i, &out)]); err != nil {
			return nil, err
		}
	}
	start := make([]float64, S)
	for _, s := range d.starts {
		start[s] = 1 / float64(len(d.starts))
	}
	return b.Model(start)
}

// Clone is a deep copy of m.
func (m Maze) Clone() Maze {
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

// MaxCells is the largest maze, in cells (2048 × 2048). A maze's model takes about 100 bytes per
// state-action pair and each learner as much again, so a larger maze needs gigabytes per task;
// it is refused before any array of one entry per cell is allocated.
const MaxCells = 1 << 22

// CheckCells refuses a maze of more than MaxCells cells, naming its size.
func CheckCells(w, h int) error {
	if w > MaxCells/h {
		return fmt.Errorf("width = %d, height = %d: %d cells, more than the %d (2048x2048) a maze may have; "+
			"use a smaller width and height", w, h, int64(w)*int64(h), MaxCells)
	}
	return nil
}
