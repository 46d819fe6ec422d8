package experiment

import (
	"strings"
	"testing"

	"github.com/temple-rl/temple/env"
)

// TestImpossibleExperimentsAreRefusedUpFront: a maze too large to index is refused when the
// config is read, and an experiment whose estimate exceeds max_memory when it is built, each
// naming the fields to change, before any model is allocated.
func TestImpossibleExperimentsAreRefusedUpFront(t *testing.T) {
	_, err := Parse([]byte("tasks:\n  family: online-maze\n  width: 100000\n  height: 100000\n"))
	if err == nil || !strings.Contains(err.Error(), "width = 100000, height = 100000") {
		t.Fatalf("a 100000x100000 maze: %v, want a refusal naming width and height", err)
	}
	s, err := Parse([]byte("runs: 2\nmax_memory: 100\ntasks:\n  family: online-maze\n  count: 2\n  pool: 1\n  width: 300\n  height: 300\n  goals: [[300, 300]]\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(s)
	if err == nil || !strings.Contains(err.Error(), "more than max_memory = 100") || !strings.Contains(err.Error(), "tasks: width, height") {
		t.Fatalf("2 runs of 2 300x300 mazes under max_memory 100 MB: %v, want a refusal with the estimate", err)
	}
	if _, err := Parse([]byte("max_memory: -1\n")); err == nil || !strings.Contains(err.Error(), "max_memory = -1") {
		t.Errorf("max_memory -1: %v", err)
	}
}

// TestMemoryEstimateCoversTheAgents: the estimate grows with the agents' tables, phase-1 records
// and the oracle.
func TestMemoryEstimateCoversTheAgents(t *testing.T) {
	s := scaleSpec(TypeRMax, 100, 1000)
	p, err := s.Tasks.Params.Sequence(0, stream(1, 0, "", 0, purposeSequence))
	if err != nil {
		t.Fatal(err)
	}
	rmax := estimateMemory(s, sizesKnown(s, []env.Sequence{p[:1]}))
	s.Agents = append(s.Agents, defaultAgent(TypeFMTempLe))
	s.Oracle.Enabled = true
	fm := estimateMemory(s, sizesKnown(s, []env.Sequence{p[:1]}))
	if rmax.models != 100*100*4*modelPairBytes || fm.agents <= rmax.agents || fm.agent != TypeFMTempLe {
		t.Errorf("estimates rmax %+v, fm-temple %+v", rmax, fm)
	}
	s.Oracle.Enabled = false
	if off := estimateMemory(s, sizesKnown(s, []env.Sequence{p[:1]})); off.total() >= fm.total() || off.oracles != 0 {
		t.Errorf("the oracle adds nothing: %+v with it, %+v without", fm, off)
	}
	s.Oracle.Enabled, s.Oracle.PolicyMistakes = true, true
	if pm := estimateMemory(s, sizesKnown(s, []env.Sequence{p[:1]})); pm.agents <= fm.agents {
		t.Errorf("policy mistakes add nothing: %+v with them, %+v without", pm, fm)
	}
}

// TestEveryFamilyIsEstimated: tasks that know their size only once built (Taxi) are checked after
// the models are built, and the maze pool a sequence is drawn from before anything is drawn,
// each refusal naming its fields.
func TestEveryFamilyIsEstimated(t *testing.T) {
	taxi, err := LookupPreset("taxi")
	if err != nil {
		t.Fatal(err)
	}
	s := taxi.Spec()
	s.MaxMemory = 1
	s.Agents = append(s.Agents, defaultAgent(TypeFMTempLe))
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), "more than max_memory = 1") {
		t.Errorf("Taxi under 1 MB: %v, want a refusal", err)
	}
	s, err = Parse([]byte("max_memory: 700\ntasks:\n  width: 2000\n  height: 2000\n  count: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), "drawing each run's mazes: 762 MB (tasks: pool)") {
		t.Errorf("a pool of 100 2000x2000 mazes under 700 MB: %v, want a refusal naming tasks: pool", err)
	}
}

// TestSimulatorsAreEstimatedAsAgentsOnly: a simulator has no table and no oracle, but its agents'
// tables are as large as its grid; a grid too large for the machine is refused before anything
// runs, naming the bins, and validating it costs nothing.
func TestSimulatorsAreEstimatedAsAgentsOnly(t *testing.T) {
	s, err := Parse([]byte("tasks:\n  family: mountaincar\n  bins: [40000, 40000]\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(s)
	if err == nil || !strings.Contains(err.Error(), "bins") || strings.Contains(err.Error(), "task models") ||
		strings.Contains(err.Error(), "oracle solutions") {
		t.Fatalf("a 40000x40000 MountainCar: %v, want a refusal of the agents' memory naming bins", err)
	}
	small, err := Parse([]byte("tasks:\n  family: mountaincar\n  bins: [20, 20]\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := estimateMemory(small, [][]taskSize{{{S: 401, A: 3, simulated: true}}})
	if e.models != 0 || e.oracles != 0 || e.agents < 401*3*100 {
		t.Errorf("estimate of a 20x20 simulator: models %d, oracles %d, agents %d; want 0, 0 and the agents' tables",
			e.models, e.oracles, e.agents)
	}
}
