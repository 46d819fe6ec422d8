package families

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: FourRoom, Summary: "the four-room grid of Sutton, Precup & Singh, simple_rl's FourRoomMDP (Appendix F.5)",
		Defaults: defaultFourRoom})
}

// FourRoom is the family of the four-room grid of the paper's Appendix F.5.
const FourRoom = "fourroom"

// FourRoomParams are fourroom's parameters: Count copies of the four-room grid of Sutton, Precup
// & Singh (1999) as simple_rl's FourRoomMDP builds it, which the paper's Appendix F.5 uses: a
// Size×Size grid split by a wall along the middle row and one along the middle column, each with
// two doorways, the goal in the corner (Size, Size).
type FourRoomParams struct {
	Size            int `yaml:"size" doc:"width and height of the grid, in cells" range:">= 5"`
	Tasks           int `yaml:"count" doc:"number of tasks of a run, copies of the one grid" range:">= 1"`
	MazeActions     `yaml:",inline"`
	Slip            float64 `yaml:"slip" doc:"slip probability of every cell" range:"[0, 1]"`
	env.GoalRewards `yaml:",inline"`
	TerminalGoals   bool `yaml:"terminal_goals" doc:"an episode ends on reaching the goal (simple_rl's is_goal_terminal)"`
}

// defaultFourRoom is simple_rl's FourRoomMDP: 9×9, goal (9,9) terminal, reward 1, no slip.
func defaultFourRoom() Params {
	return &FourRoomParams{Size: 9, Tasks: 1, MazeActions: paperActions, GoalRewards: env.GoalRewards{GoalReward: 1},
		TerminalGoals: true}
}

// Validate names the first field out of range.
func (p *FourRoomParams) Validate() error {
	if p.Size < 5 {
		return fmt.Errorf("size = %d, want at least 5 (two rooms of at least two cells each way)", p.Size)
	}
	if err := env.CheckCells(p.Size, p.Size); err != nil {
		return fmt.Errorf("size: %w", err)
	}
	if err := firstErr(atLeast("count", p.Tasks, 1), checkProbability("slip", p.Slip)); err != nil {
		return err
	}
	return p.grid().Validate()
}

// grid is the four-room grid: a grid world without lava.
func (p *FourRoomParams) grid() env.Maze {
	g := GridParams{Width: p.Size, Height: p.Size, Tasks: p.Tasks, MazeActions: p.MazeActions, Slip: p.Slip,
		Goals: []env.Cell{{X: p.Size, Y: p.Size}}, Walls: fourRoomWalls(p.Size), Rewards: env.Rewards{GoalRewards: p.GoalRewards},
		TerminalGoals: p.TerminalGoals}
	return g.grid()
}

func (p *FourRoomParams) Sequence(int, *rand.Rand) (env.Sequence, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("fourroom: %w", err)
	}
	return repeated(p.grid, p.Tasks), nil
}

// fourRoomWalls are the wall cells of simple_rl's FourRoomMDP on an n×n grid: the row and the
// column ⌈n/2⌉, except the doorways at (n+1)/3 and ⌈2(n+1)/3⌉ on each. Those positions follow
// the original Python 2 code, where (n+1)/3 is an integer division: under Python 3 — the
// authors' fork — it is a fraction that never equals a cell, so each wall keeps one doorway and
// the start room around (1,1) is sealed off from the goal; that is a bug and is not reproduced.
// For n = 9: walls on row 5 and column 5, doorways at 3 and 7.
func fourRoomWalls(n int) []env.Cell {
	half := (n + 1) / 2
	doorway := func(i int) bool { return i == (n+1)/3 || i == (2*(n+1)+2)/3 }
	var walls []env.Cell
	for x := 1; x <= n; x++ {
		if !doorway(x) {
			walls = append(walls, env.Cell{X: x, Y: half})
		}
	}
	for y := 1; y <= n; y++ {
		if !doorway(y) && y != half {
			walls = append(walls, env.Cell{X: half, Y: y})
		}
	}
	return walls
}
