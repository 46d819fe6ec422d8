package env

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

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

// GridConfig configures Grids: Count copies of one grid world — a maze with one slip probability
// in every cell, optional walls, and by default a terminal goal (the GridWorld of simple_rl, which
// the paper's Appendix F.5 uses for its "large GridWorld").
type GridConfig struct {
	Width         int     `yaml:"width" doc:"width W of the grid, in cells" range:">= 1, width·height >= 2"`
	Height        int     `yaml:"height" doc:"height H of the grid, in cells" range:">= 1, width·height >= 2"`
	Tasks         int     `yaml:"count" doc:"number of tasks of a run, copies of the one grid" range:">= 1"`
	Actions       int     `yaml:"actions" doc:"actions of every task: the 4 moves, or 8 with the diagonals (0: 4)" range:"0 | 4 | 8"`
	Slip          float64 `yaml:"slip" doc:"slip probability of every cell" range:"[0, 1]"`
	Goals         []Cell  `yaml:"goals" doc:"goal cells [x, y], 1-based; landing on one pays goal_reward" range:"inside the grid"`
	Lava          []Cell  `yaml:"lava" doc:"lava cells [x, y], 1-based; landing on one costs lava_cost" range:"inside the grid"`
	Walls         []Cell  `yaml:"walls" doc:"wall cells [x, y], 1-based; a move into one stays put" range:"inside the grid, not a goal or lava cell"`
	StepCost      float64 `yaml:"step_cost" doc:"cost of every step, the goal's included" range:"finite"`
	GoalReward    float64 `yaml:"goal_reward" doc:"reward of landing on a goal cell" range:"finite"`
	LavaCost      float64 `yaml:"lava_cost" doc:"cost of landing on a lava cell" range:"finite"`
	TerminalGoals bool    `yaml:"terminal_goals" doc:"an episode ends on reaching a goal cell (simple_rl's is_goal_terminal)"`
}

// Validate names the first field out of range.
func (c GridConfig) Validate() error {
	if err := firstErr(checkSize(c.Width, c.Height), atLeast("count", c.Tasks, 1), checkProbability("slip", c.Slip)); err != nil {
		return err
	}
	return c.grid().Validate()
}

func (c GridConfig) grid() Maze {
	return Maze{Width: c.Width, Height: c.Height, Slip: uniformSlip(c.Width*c.Height, c.Slip),
		Goals: cloneCells(c.Goals), Lava: cloneCells(c.Lava), Walls: cloneCells(c.Walls),
		StepCost: c.StepCost, GoalReward: c.GoalReward, LavaCost: c.LavaCost,
		Actions: defaultActions(c.Actions), TerminalGoals: c.TerminalGoals}
}

// Grids returns Count copies of the grid world of c.
func Grids(c GridConfig) ([]Maze, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("env: grid: %w", err)
	}
	out := make([]Maze, c.Tasks)
	for k := range out {
		out[k] = c.grid()
	}
	return out, nil
}

// FourRoomConfig configures FourRooms: the four-room grid of Sutton, Precup & Singh (1999) as
// simple_rl's FourRoomMDP builds it, which the paper's Appendix F.5 uses: a Size×Size grid split
// by a wall along the middle row and one along the middle column, each with two doorways, the
// goal in the corner (Size, Size).
type FourRoomConfig struct {
	Size          int     `yaml:"size" doc:"width and height of the grid, in cells" range:">= 5"`
	Tasks         int     `yaml:"count" doc:"number of tasks of a run, copies of the one grid" range:">= 1"`
	Actions       int     `yaml:"actions" doc:"actions of every task: the 4 moves, or 8 with the diagonals (0: 4)" range:"0 | 4 | 8"`
	Slip          float64 `yaml:"slip" doc:"slip probability of every cell" range:"[0, 1]"`
	StepCost      float64 `yaml:"step_cost" doc:"cost of every step, the goal's included" range:"finite"`
	GoalReward    float64 `yaml:"goal_reward" doc:"reward of landing on a goal cell" range:"finite"`
	TerminalGoals bool    `yaml:"terminal_goals" doc:"an episode ends on reaching the goal (simple_rl's is_goal_terminal)"`
}

// FourRoomWalls are the wall cells of simple_rl's FourRoomMDP on an n×n grid: the row and the
// column ⌈n/2⌉, except the doorways at (n+1)/3 and ⌈2(n+1)/3⌉ on each. Those positions follow
// the original Python 2 code, where (n+1)/3 is an integer division: under Python 3 — the
// authors' fork — it is a fraction that never equals a cell, so each wall keeps one doorway and
// the start room around (1,1) is sealed off from the goal; that is a bug and is not reproduced.
// For n = 9: walls on row 5 and column 5, doorways at 3 and 7.
func FourRoomWalls(n int) []Cell {
	half := (n + 1) / 2
	doorway := func(i int) bool { return i == (n+1)/3 || i == (2*(n+1)+2)/3 }
	var walls []Cell
	for x := 1; x <= n; x++ {
		if !doorway(x) {
			walls = append(walls, Cell{x, half})
		}
	}
	for y := 1; y <= n; y++ {
		if !doorway(y) && y != half {
			walls = append(walls, Cell{half, y})
		}
	}
	return walls
}

// Validate names the first field out of range.
func (c FourRoomConfig) Validate() error {
	if c.Size < 5 {
		return fmt.Errorf("size = %d, want at least 5 (two rooms of at least two cells each way)", c.Size)
	}
	if err := checkCells(c.Size, c.Size); err != nil {
		return fmt.Errorf("size: %w", err)
	}
	if err := firstErr(atLeast("count", c.Tasks, 1), checkProbability("slip", c.Slip)); err != nil {
		return err
	}
	return c.grid().Validate()
}

func (c FourRoomConfig) grid() Maze {
	return GridConfig{Width: c.Size, Height: c.Size, Tasks: c.Tasks, Actions: c.Actions, Slip: c.Slip,
		Goals: []Cell{{c.Size, c.Size}}, Walls: FourRoomWalls(c.Size), StepCost: c.StepCost, GoalReward: c.GoalReward,
		TerminalGoals: c.TerminalGoals}.grid()
}

// FourRooms returns Count copies of the four-room grid of c.
func FourRooms(c FourRoomConfig) ([]Maze, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("env: fourroom: %w", err)
	}
	out := make([]Maze, c.Tasks)
	for k := range out {
		out[k] = c.grid()
	}
	return out, nil
}
