package agenttypes

import (
	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/temple"
)

// modelBuilt is implemented by the parameters of agents built from the true models of the run's
// tasks (Context.Models): the offline baselines Abs-RL and MaxQInit (types.go); and of those that
// read each task's true model as they act (agent.Task.Truth): the true-templates reference
// (templateprior.go).
type modelBuilt interface{ builtFromModels() }

// NeedsModels reports whether agents with parameters p are built from the true models of the
// run's tasks. Such agents can only be run by the experiment runner, never driven step by step
// from outside (the C ABI), where no model exists.
func NeedsModels(p Params) bool {
	_, ok := p.(modelBuilt)
	return ok
}

func (*AbsRL) builtFromModels()            {}
func (*MaxQInitQ) builtFromModels()        {}
func (*MaxQInitDelayedQ) builtFromModels() {}
func (*MaxQInitRMax) builtFromModels()     {}

// KnownModels is the identification oracle (temple.KnownModels): it has no parameters; it is
// built from the distinct models of the run's tasks.
type KnownModels struct{}

func (*KnownModels) Validate() error { return nil }

func (*KnownModels) New(ctx Context) (agent.Agent, error) {
	return temple.NewKnownModels(ctx.Models, ctx.Gamma)
}

func (*KnownModels) builtFromModels() {}

// memory is a model per task at most (a distinct model of each), its type's bytes per pair each.
func (*KnownModels) memory(typeBytes, S, A, tasks int64) int64 {
	return typeBytes * S * A * max(tasks, 1)
}
