package main

import (
	"testing"

	"github.com/temple-rl/temple/experiment"
)

// The environments step a task on demand from the size the runner does, so both step the same
// tasks the same way; the library cannot import the runner (its package doc), so the constant is
// written twice and this test keeps the copies equal.
func TestOnDemandPairsIsTheRunners(t *testing.T) {
	if onDemandPairs != experiment.OnDemandPairs {
		t.Errorf("capi's onDemandPairs = %d, experiment.OnDemandPairs = %d: change both", onDemandPairs, experiment.OnDemandPairs)
	}
}
