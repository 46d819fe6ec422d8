package experiment

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/memory"
	"github.com/temple-rl/temple/stream"
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

// A run count the machine could never hold is refused before the runs are drawn: a billion runs
// of the default experiment (98 TB of the cells' records alone) fail at once with an error that
// names runs, instead of drawing sequences until memory runs out.
func TestRunCountTooLargeIsRefusedBeforeDrawing(t *testing.T) {
	s := Default()
	s.Runs, s.MaxMemory = 1_000_000_000, 1000
	start := time.Now()
	_, err := Build(s)
	if err == nil || !strings.Contains(err.Error(), "the finished cells' records") || !strings.Contains(err.Error(), "(runs;") {
		t.Fatalf("a billion runs: %v, want a refusal naming runs", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the refusal took %v: the runs were drawn first", d)
	}
	// The first runs stand for the others: their models' estimate scales with the run count.
	seqs, err := drawRuns(s, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	budget := s.memory()
	sizes := budget.Known(seqs)
	two, many := budget.EstimateRuns(sizes, 2), budget.EstimateRuns(sizes, 2000)
	if two != budget.Estimate(sizes) || many.Models != 1000*two.Models || many.Agents != two.Agents {
		t.Errorf("estimate of 2000 runs %+v from 2 runs %+v: want a thousand times the models, the same agents", many, two)
	}
}

// The estimate of an experiment's tasks is checked on the sizes the drawn definitions know: a
// 100×100 maze's model is its 40 000 pairs (memory.TestEstimateCoversTheAgents checks the rest).
func TestMemoryEstimateReadsTheDrawnTasks(t *testing.T) {
	s := scaleSpec(TypeRMax, 100, 1000)
	p, err := s.Tasks.Params.Sequence(0, stream.New(1, 0, "", 0, stream.Sequence))
	if err != nil {
		t.Fatal(err)
	}
	budget := s.memory()
	if e := budget.Estimate(budget.Known([]env.Sequence{p[:1]})); e.Models != 100*100*4*memory.ModelPairBytes || e.Agent != TypeRMax {
		t.Errorf("estimate of a 100x100 maze %+v", e)
	}
}

// TestEveryFamilyIsEstimated: tasks that know their size only once built (Taxi) are checked after
// the models are built, and the maze pool a sequence is drawn from before anything is drawn,
// each refusal naming its fields.
func TestEveryFamilyIsEstimated(t *testing.T) {
	s := paper("taxi", families.Taxi, TypeOTempLe, TypeQLearning, TypeRMax)
	s.MaxMemory = 1
	s.Agents = append(s.Agents, defaultAgent(TypeFMTempLe))
	_, err := Build(s)
	if err == nil || !strings.Contains(err.Error(), "more than max_memory = 1") {
		t.Errorf("Taxi under 1 MB: %v, want a refusal", err)
	}
	s, err = Parse([]byte("max_memory: 700\ntasks:\n  width: 2000\n  height: 2000\n  count: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	pools := fmt.Sprintf("drawing the runs' mazes, a run per core: %d MB (tasks: pool)", int64(100*2000*2000*2*generators(s))>>20)
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), pools) {
		t.Errorf("a pool of 100 2000x2000 mazes under 700 MB: %v, want a refusal naming tasks: pool", err)
	}
}

// TestSimulatorsAreEstimatedAsAgentsOnly: a simulator grid too large for the machine is refused
// before anything runs, naming the bins, and validating it costs nothing.
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
	// memory.TestSimulatorsAreEstimatedAsAgentsOnly checks the estimate of a small one.
}

// On a task of more than lazy.FlatMax pairs, what RMax, O-TempLe (with every option) and
// Q-learning hold after a task of E·T steps — heap in use, measured — is within their estimate,
// and at least their estimate for a task that writes one pair; the estimate of the learners
// with lazy tables is under half their flat figure. (It counts a block for every pair written:
// the steps of a maze share blocks, those of a task with far jumps need not.)
func TestLargeTaskAgentsWithinEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1100x1100 maze")
	}
	s := largeMazeSpec(1100) // 4.84 M pairs
	s.Runs, s.Episodes, s.Steps = 1, 20, 50
	options := defaultAgent(TypeOTempLe)
	options.Name += "+retry+early"
	options.mustSet("retry", true)
	options.mustSet("early_match", 10)
	s.Agents = append(s.Agents, options)
	refute := defaultAgent(TypeOTempLe)
	refute.mustSet("refute", true)
	refute.Name = "O-TempLe+refute"
	s.Agents = append(s.Agents, refute)
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	task := p.Runs[0][0]
	S, A := task.Truth.Size()
	for k, a := range s.Agents {
		typ, _ := agenttypes.Lookup(a.Type)
		estimate := agenttypes.Memory(typ, a.Params, int64(S), int64(A), 1, int64(s.Episodes*s.Steps))
		var before, after runtime.MemStats
		ag, err := p.Agents[k].New(RunContext{Tasks: p.Runs[0], Gamma: p.Gamma})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&before)
		runTask(t, p, ag, task)
		runtime.GC()
		runtime.ReadMemStats(&after)
		held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		runtime.KeepAlive(ag)
		flat := typ.PairBytes * int64(S) * int64(A)
		fixed := agenttypes.Memory(typ, a.Params, int64(S), int64(A), 1, 1) // one pair written
		t.Logf("%s: %d MB held, estimate %d MB (%d MB for one pair written), flat figure %d MB", a.Name, held>>20, estimate>>20, fixed>>20, flat>>20)
		if held > estimate {
			t.Errorf("%s holds %d MB after a task; its estimate is %d MB", a.Name, held>>20, estimate>>20)
		}
		if a.Type != TypeQLearning && (held < fixed || estimate > flat/2) {
			t.Errorf("%s holds %d MB, less than its %d MB for one pair written, or its estimate %d MB is over half its flat %d MB",
				a.Name, held>>20, fixed>>20, estimate>>20, flat>>20)
		}
	}
}

// runTask runs agent ag on one task of p, Episodes × Steps from its start states.
func runTask(t *testing.T, p *Plan, ag agent.Agent, task Task) {
	t.Helper()
	d := task.Truth
	S, A := d.Size()
	rng := rand.New(rand.NewPCG(1, 2))
	if err := ag.BeginTask(agent.Task{S: S, A: A, Gamma: p.Gamma, Rand: rng, Terminal: d.TerminalStates()}); err != nil {
		t.Fatal(err)
	}
	loop := agenttest.Loop{Agent: ag, Task: d, Rand: rng}
	for range p.Episodes {
		loop.Episode(d.SampleStart(rng), p.Steps)
	}
}
