package env

// GoalRewards are what a maze without lava pays, as every maze family's config names them.
type GoalRewards struct {
	StepCost   float64 `yaml:"step_cost" doc:"cost of every step, the goal's included" range:"finite"`
	GoalReward float64 `yaml:"goal_reward" doc:"reward of landing on a goal cell" range:"finite"`
}

// Rewards are what a maze pays (Maze's StepCost, GoalReward and LavaCost), as every maze family's
// config names them.
type Rewards struct {
	GoalRewards `yaml:",inline"`
	LavaCost    float64 `yaml:"lava_cost" doc:"cost of landing on a lava cell" range:"finite"`
}

// PaperRewards are the rewards of the paper's mazes (docs/decisions.md, 19 and 20): step cost 0.2,
// goal reward 1, lava cost 1. The published task-sequence files do not store them.
var PaperRewards = Rewards{GoalRewards: GoalRewards{StepCost: 0.2, GoalReward: 1}, LavaCost: 1}

// WithRewards is m paying r.
func (m Maze) WithRewards(r Rewards) Maze {
	m.StepCost, m.GoalReward, m.LavaCost = r.StepCost, r.GoalReward, r.LavaCost
	return m
}
