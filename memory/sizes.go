package memory

import (
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/oracle"
)

// Task is the size of one task: its states and actions. A simulator has no table and no oracle,
// but its agents' tables and its visit counts are as large as a table task's of its size. A task
// computed on demand stores no model, and its oracle solves at most Region states around the
// start states of a run.
type Task struct {
	S, A      int
	Simulated bool
	OnDemand  bool
	Region    int64
}

// size is the size of a task of S states and A actions with definition def; for a task computed
// on demand, with the states its oracle solves around a run's start states bounded through the
// task's bound on its rewards.
func (x Experiment) size(def env.Task, S, A int) Task {
	t := Task{S: S, A: A}
	if x.OnDemand == nil {
		return t
	}
	od, ok := x.OnDemand(def)
	if !ok {
		return t
	}
	t.OnDemand = true
	radius := mdp.RadiusFor(x.Steps, x.Gamma, od.RewardBound()/(1-x.Gamma), oracle.Tolerance/2)
	starts := int64(1)
	if x.StartPerEpisode {
		starts = int64(x.Episodes)
	}
	t.Region = min(int64(S), starts*int64(od.Reach(radius)))
	return t
}

// Known are the sizes of every run's tasks that their definitions know before any model is
// built (env.Sized); the others are left out until the models exist.
func (x Experiment) Known(runs []env.Sequence) [][]Task {
	out := make([][]Task, len(runs))
	for r, seq := range runs {
		for _, def := range seq {
			sized, ok := def.(env.Sized)
			if !ok {
				continue
			}
			S, A := sized.Size()
			if _, simulated := def.(env.Simulated); simulated {
				out[r] = append(out[r], Task{S: S, A: A, Simulated: true})
				continue
			}
			out[r] = append(out[r], x.size(def, S, A))
		}
	}
	return out
}

// A BuiltTask is a task of a plan: its definition, and its true model (nil for a simulator).
type BuiltTask interface {
	Definition() env.Task
	Dynamics() mdp.Dynamics
}

// BuiltSizes are the sizes of the distinct tasks of every run (equal tasks share one model).
func BuiltSizes[T BuiltTask](x Experiment, runs [][]T) [][]Task {
	seen := map[mdp.Dynamics]bool{}
	out := make([][]Task, len(runs))
	for r, tasks := range runs {
		for _, t := range tasks {
			d := t.Dynamics()
			if d == nil { // a simulator: no table to hold, but agents as large
				if sized, ok := t.Definition().(env.Sized); ok {
					S, A := sized.Size()
					out[r] = append(out[r], Task{S: S, A: A, Simulated: true})
				}
				continue
			}
			if !seen[d] {
				seen[d] = true
				S, A := d.Size()
				out[r] = append(out[r], x.size(t.Definition(), S, A))
			}
		}
	}
	return out
}
