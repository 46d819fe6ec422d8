package experiment

import (
	"fmt"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
)

// An agent that cannot learn a config's tasks is refused when the plan is built (Build, which
// Check calls before anything is written), naming the family and the reason, instead of failing
// in the middle of a run after other cells have run: a type that needs the tasks of a run to
// share a size (agenttypes.Type.Needs) on a family whose tasks differ, and an agent that needs
// something a task does not state (agent.TaskChecker: PSRL's Beta posterior without a given
// range, on a simulator that states no reward range).

// checkNeeds refuses agent a when its type needs every task of a run to have one number of
// states, or of actions, and some run's tasks do not.
func checkNeeds(s Spec, a AgentSpec, runs [][]Task) error {
	t, err := agenttypes.Lookup(a.Type)
	if err != nil {
		return err
	}
	n := t.Needs
	if !n.SameStates && !n.SameActions {
		return nil
	}
	what := "the same number of states"
	switch {
	case n.SameStates && n.SameActions:
		what = "the same numbers of states and of actions"
	case n.SameActions:
		what = "the same number of actions"
	}
	for run, tasks := range runs {
		first := -1
		var S0, A0 int
		for k, task := range tasks {
			S, A, ok := task.size()
			if !ok {
				continue
			}
			if first < 0 {
				first, S0, A0 = k, S, A
				continue
			}
			if n.SameStates && S != S0 || n.SameActions && A != A0 {
				return fmt.Errorf("agent type %s needs every task of a run to have %s (%s), but %s gives run %d task %d (%s) %d states and %d actions "+
					"and task %d (%s) %d states and %d actions; give it tasks of one size",
					a.Type, what, n.Why, familyName(s), run, first, tasks[first].Def.Name(), S0, A0, k, task.Def.Name(), S, A)
			}
		}
	}
	return nil
}

// checkTasks refuses agent ag (built for a run) when it, or the base learner it runs over, needs
// something some task of the plan does not state (agent.CheckTask), naming the family.
func checkTasks(s Spec, ag agent.Agent, runs [][]Task) error {
	if agent.CheckTask(ag, agent.Task{Gamma: s.Gamma}) == nil {
		return nil // it needs nothing that a task may leave unstated
	}
	for run, tasks := range runs {
		for k, task := range tasks {
			S, A, _ := task.size()
			if err := agent.CheckTask(ag, agent.Task{Index: k, S: S, A: A, Gamma: s.Gamma, Rewards: task.rewardRange()}); err != nil {
				return fmt.Errorf("%s, run %d, task %d (%s): %w", familyName(s), run, k, task.Def.Name(), err)
			}
		}
	}
	return nil
}

// size is the task's numbers of states and of actions, when known before it runs.
func (t Task) size() (S, A int, ok bool) {
	if d := t.Dynamics(); d != nil {
		S, A = d.Size()
		return S, A, true
	}
	if sz, ok := t.Def.(env.Sized); ok {
		S, A = sz.Size()
		return S, A, true
	}
	return 0, 0, false
}

// rewardRange is the range of rewards the task states (agent.Task.Rewards): a table's, or the
// simulator's environment's, nil when it states none.
func (t Task) rewardRange() *agent.RewardRange {
	if d := t.Dynamics(); d != nil {
		return agent.RewardsOf(d)
	}
	return t.rewards
}

// familyName names the config's tasks in messages: "family varying-size", or the file read.
func familyName(s Spec) string {
	if p, ok := s.Tasks.Params.(*families.FileParams); ok {
		return fmt.Sprintf("family %s (%s)", s.Tasks.Family, p.File)
	}
	return "family " + s.Tasks.Family
}
