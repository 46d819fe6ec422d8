package memory

import (
	"strings"
	"testing"

	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners" // the built-in learners register
)

// stored is an experiment that stores every task's model.
func stored(types ...string) Experiment {
	x := Experiment{Episodes: 1000, Steps: 100, Gamma: 0.95, Generators: 1}
	for _, name := range types {
		t, err := agenttypes.Lookup(name)
		if err != nil {
			panic(err)
		}
		x.Agents = append(x.Agents, Agent{Type: name, Params: t.Defaults()})
	}
	return x
}

// TestEstimateCoversTheAgents: the estimate grows with the agents' tables, phase-1 records and
// the oracle.
func TestEstimateCoversTheAgents(t *testing.T) {
	maze := [][]Task{{{S: 100 * 100, A: 4}}} // a 100×100 maze
	x := stored("rmax")
	rmax := x.Estimate(maze)
	x = stored("rmax", "fm-temple")
	x.Oracle = true
	fm := x.Estimate(maze)
	if rmax.Models != 100*100*4*ModelPairBytes || fm.Agents <= rmax.Agents || fm.Agent != "fm-temple" {
		t.Errorf("estimates rmax %+v, fm-temple %+v", rmax, fm)
	}
	x.Oracle = false
	if off := x.Estimate(maze); off.Total() >= fm.Total() || off.Oracles != 0 {
		t.Errorf("the oracle adds nothing: %+v with it, %+v without", fm, off)
	}
	x.Oracle, x.PolicyMistakes = true, true
	if pm := x.Estimate(maze); pm.Agents <= fm.Agents {
		t.Errorf("policy mistakes add nothing: %+v with them, %+v without", pm, fm)
	}
}

// TestSampleRunsStandForAll: the estimate of many runs from a sample of runs scales the sample's
// models with the run count and keeps its agents.
func TestSampleRunsStandForAll(t *testing.T) {
	x := stored("rmax")
	sizes := [][]Task{{{S: 100, A: 4}, {S: 50, A: 4}}, {{S: 100, A: 4}}}
	two, many := x.EstimateRuns(sizes, 2), x.EstimateRuns(sizes, 2000)
	if two != x.Estimate(sizes) || many.Models != 1000*two.Models || many.Agents != two.Agents {
		t.Errorf("estimate of 2000 runs %+v from 2 runs %+v: want a thousand times the models, the same agents", many, two)
	}
}

// TestSimulatorsAreEstimatedAsAgentsOnly: a simulator has no table and no oracle, but its agents'
// tables are as large as its grid.
func TestSimulatorsAreEstimatedAsAgentsOnly(t *testing.T) {
	x := stored("rmax")
	x.Oracle = true
	e := x.Estimate([][]Task{{{S: 401, A: 3, Simulated: true}}})
	if e.Models != 0 || e.Oracles != 0 || e.Agents < 401*3*100 {
		t.Errorf("estimate of a 20x20 simulator: models %d, oracles %d, agents %d; want 0, 0 and the agents' tables",
			e.Models, e.Oracles, e.Agents)
	}
}

// TestRefusalNamesThePartsLargestFirst: a refusal gives every non-zero part with the fields that
// change it, largest first, and the limit's source.
func TestRefusalNamesThePartsLargestFirst(t *testing.T) {
	x := stored("rmax")
	x.MaxMemory, x.DrawBytes = 1, 1<<20
	err := x.Check([][]Task{{{S: 1000 * 1000, A: 4}}})
	if err == nil {
		t.Fatal("a 1000×1000 maze under 1 MB: no refusal")
	}
	msg := err.Error()
	models, drawing := strings.Index(msg, "task models of 1 runs: 305 MB"), strings.Index(msg, "drawing the runs' mazes")
	if models < 0 || drawing < models || !strings.Contains(msg, "more than max_memory = 1;") || strings.Contains(msg, "oracle solutions") {
		t.Errorf("refusal %q: want the models before the drawing, no oracle, and max_memory = 1", msg)
	}
	if err := x.Check(nil); err != nil {
		t.Errorf("drawing 1 MB under 1 MB: %v", err)
	}
}
