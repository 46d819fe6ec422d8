package agenttypes

// modelBuilt is implemented by the parameters of agents built from the true models of the run's
// tasks (Context.Models): the offline baselines Abs-RL and MaxQInit and the identification
// oracle; and of those that read each task's true model as they act (agent.Task.Truth): the
// true-templates reference. BuiltFromModels marks them.
type modelBuilt interface{ BuiltFromModels() }

// NeedsModels reports whether agents with parameters p are built from the true models of the
// run's tasks. Such agents can only be run by the experiment runner, never driven step by step
// from outside (the C ABI), where no model exists.
func NeedsModels(p Params) bool {
	_, ok := p.(modelBuilt)
	return ok
}
