package agenttypes

// NeedsModels reports whether agents with parameters p are built from the true models of the
// run's tasks (Context.Models): the offline baselines Abs-RL and MaxQInit; or read each task's
// true model as they act (agent.Task.Truth): the true-templates reference. Such agents can only
// be run by the experiment runner on stored models, never driven step by step from outside (the
// C ABI), where no model exists.
func NeedsModels(p Params) bool {
	switch p.(type) {
	case *AbsRL, *MaxQInitQ, *MaxQInitDelayedQ, *MaxQInitRMax, *TrueTemplates:
		return true
	}
	return false
}
