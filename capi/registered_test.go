package main

import (
	"testing"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/agenttypes/agenttypestest"
)

// TestEveryBuiltInLearnerIsRegistered: every file of the module that registers an agent type
// (agenttypes.Register, from its init) is linked into the C library, which imports
// alllearners: the Python library drives every built-in learner.
func TestEveryBuiltInLearnerIsRegistered(t *testing.T) {
	agenttypestest.RegisteringFilesAreLinked(t, "..")
	if len(agenttypes.BaseNames()) == 0 || agenttypes.BaseNames()[0] != "rmax" {
		t.Errorf("base learners %v, want the paper's rmax first", agenttypes.BaseNames())
	}
}
