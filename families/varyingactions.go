package families

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: VaryingActions, Summary: "online mazes, the first tasks with 4 actions and the rest with 8 (Appendix F.4)",
		Defaults: defaultVaryingActions})
}

// VaryingActions is the family of the paper's Appendix F.4: online mazes whose first source_tasks
// tasks have the 4 moves and the rest 8 actions (moves and diagonals).
const VaryingActions = "varying-actions"

// VaryingActionsParams are online-maze's parameters and the number of 4-action tasks.
type VaryingActionsParams struct {
	OnlineMazeParams `yaml:",inline"`
	SourceTasks      int `yaml:"source_tasks" doc:"number of 4-action tasks before the 8-action ones" range:"0 <= source_tasks <= count"`
}

// defaultVaryingActions is Appendix F.4's setting: 5 tasks with 4 actions, then 5 with 8, 4×4
// mazes drawn from a pool of 10.
func defaultVaryingActions() Params {
	online := defaultOnlineMaze().(*OnlineMazeParams)
	online.Pool, online.Tasks = 10, 10
	return &VaryingActionsParams{OnlineMazeParams: *online, SourceTasks: 5}
}

func (p *VaryingActionsParams) Validate() error {
	if err := p.OnlineMazeParams.Validate(); err != nil {
		return err
	}
	if p.SourceTasks < 0 || p.SourceTasks > p.Tasks {
		return fmt.Errorf("source_tasks = %d, want 0 <= source_tasks <= count (%d)", p.SourceTasks, p.Tasks)
	}
	return nil
}

func (p *VaryingActionsParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	seq, err := p.Mazes(rng)
	if err != nil {
		return nil, err
	}
	for k := p.SourceTasks; k < len(seq); k++ {
		seq[k].Actions = 8
	}
	return env.Mazes(seq...), nil
}
