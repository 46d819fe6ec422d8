package agenttypes_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners"
)

// NeedsModels is the truth about every registered type: the types it names fail to build without
// the tasks' models, or to begin a task without its true model; every other type builds without
// them and learns terminal states from steps (what a driver from outside needs).
func TestNeedsModelsMatchesTheTypes(t *testing.T) {
	for _, typ := range agenttypes.Types() {
		p := typ.Defaults()
		if agenttypes.Outside(p) { // built only to run, from the user's class or command (outside_test.go)
			continue
		}
		ag, err := p.New(agenttypes.Context{Gamma: 0.95})
		if agenttypes.NeedsModels(p) {
			if err == nil {
				err = ag.BeginTask(agent.Task{S: 2, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))})
			}
			if err == nil {
				t.Errorf("%s: agenttypes.NeedsModels, but it builds and begins a task without models", typ.Name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: builds without models: %v", typ.Name, err)
			continue
		}
		if _, ok := ag.(agent.TerminalObserver); !ok {
			t.Errorf("%s: %T does not implement agent.TerminalObserver", typ.Name, ag)
		}
	}
}

// The types a driver from outside (the C ABI) cannot build.
func ExampleNeedsModels() {
	for _, t := range agenttypes.Types() {
		if agenttypes.NeedsModels(t.Defaults()) {
			fmt.Println(t.Name)
		}
	}
	// Output:
	// abs-rl
	// known-models
	// maxqinit-delayed-q
	// maxqinit-q-learning
	// maxqinit-rmax
	// true-templates
}
