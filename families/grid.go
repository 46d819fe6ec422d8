package families

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: Grid, Summary: "an open grid world with a terminal goal, simple_rl's GridWorld (Appendix F.5)",
		Defaults: defaultGrid})
}

// Grid is the family of the open grid world of the paper's Appendix F.5 ("large GridWorld").
const Grid = "grid"

// GridParams are grid's parameters: Count copies of one grid world — a maze with one slip
// probability in every cell, optional walls, and by default a terminal goal (the GridWorld of
// simple_rl, which the paper's Appendix F.5 uses for its "large GridWorld").
type GridParams struct {
	Width         int `yaml:"width" doc:"width W of the grid, in cells" range:">= 1, width·height >= 2"`
	Height        int `yaml:"height" doc:"height H of the grid, in cells" range:">= 1, width·height >= 2"`
	Tasks         int `yaml:"count" doc:"number of tasks of a run, copies of the one grid" range:">= 1"`
	MazeActions   `yaml:",inline"`
	Slip          float64    `yaml:"slip" doc:"slip probability of every cell" range:"[0, 1]"`
	Goals         []env.Cell `yaml:"goals" doc:"goal cells [x, y], 1-based; landing on one pays goal_reward" range:"inside the grid"`
	Lava          []env.Cell `yaml:"lava" doc:"lava cells [x, y], 1-based; landing on one costs lava_cost" range:"inside the grid"`
	Walls         []env.Cell `yaml:"walls" doc:"wall cells [x, y], 1-based; a move into one stays put" range:"inside the grid, not a goal or lava cell"`
	env.Rewards   `yaml:",inline"`
	TerminalGoals bool `yaml:"terminal_goals" doc:"an episode ends on reaching a goal cell (simple_rl's is_goal_terminal)"`
}

// defaultGrid is simple_rl's GridWorld as Appendix F.5 uses it: 10×10, goal (10,10) terminal,
// reward 1, no step cost, no slip.
func defaultGrid() Params {
	return &GridParams{Width: 10, Height: 10, Tasks: 1, MazeActions: paperActions, Goals: []env.Cell{{X: 10, Y: 10}},
		Rewards: env.Rewards{GoalRewards: env.GoalRewards{GoalReward: 1}, LavaCost: 1}, TerminalGoals: true}
}

// Validate names the first field out of range.
func (p *GridParams) Validate() error {
	if err := firstErr(checkSize(p.Width, p.Height), atLeast("count", p.Tasks, 1), checkProbability("slip", p.Slip)); err != nil {
		return err
	}
	return p.grid().Validate()
}

// grid is the one grid world of the family.
func (p *GridParams) grid() env.Maze {
	m := newMaze(p.Width, p.Height, p.MazeActions, p.Rewards, p.Goals, p.Lava)
	m.Walls, m.TerminalGoals = p.Walls, p.TerminalGoals
	m = m.Clone() // before the slips: a grid of 2048×2048 cells copies no 32 MB
	m.Slip = env.UniformSlip(p.Width*p.Height, p.Slip)
	return m
}

func (p *GridParams) Sequence(int, *rand.Rand) (env.Sequence, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	return repeated(p.grid, p.Tasks), nil
}

// repeated is the sequence of count mazes that maze makes, each its own.
func repeated(maze func() env.Maze, count int) env.Sequence {
	out := make(env.Sequence, count)
	for k := range out {
		out[k] = maze()
	}
	return out
}
