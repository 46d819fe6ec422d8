package experiment

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/continuous/discretize"
	"github.com/temple-rl/temple/continuous/mountaincar"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/results/resultstest"
)

// pendulumSpec is a small experiment on discretized Pendulum (no terminal states) with two
// physics variants.
func pendulumSpec(t *testing.T) Spec {
	t.Helper()
	s, err := Parse([]byte(`
name: pendulum-test
runs: 2
episodes: 6
steps: 100
start: random-per-episode
tasks:
  family: pendulum
  count: 3
  bins: [4, 4, 5]
  torques: 3
  variants:
    - {}
    - {gravity: 3.7, mass: 2}
agents:
  - type: q-learning
  - type: rmax
    m: 3
oracle:
  enabled: false
output:
  episodes: true
`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSimulatorTasksRunResumeAndReplay: a simulator experiment gives the same bytes at any
// parallelism, resumes from its cells, and replays from its tasks.json with the same results.
func TestSimulatorTasksRunResumeAndReplay(t *testing.T) {
	s := pendulumSpec(t)
	var runs []map[string][]byte
	dir := ""
	for _, jobs := range []int{1, 2} {
		dir = t.TempDir()
		sum, err := Execute(context.Background(), s, dir, jobs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Note != results.NoteSimulated || sum.Optimal != nil {
			t.Errorf("summary note %q, optimal %v; want the simulator note and no optimum", sum.Note, sum.Optimal)
		}
		runs = append(runs, resultstest.DataFiles(t, dir))
	}
	if !reflect.DeepEqual(runs[0], runs[1]) {
		t.Fatal("simulator results differ between 1 and 2 workers")
	}
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := Run(context.Background(), p, results.At(dir), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range resumed {
		if !c.Resumed {
			t.Errorf("cell run %d, %s recomputed, want resumed", c.Run, c.Agent)
		}
	}
	replay := s
	replay.Tasks = families.FromFile(dir + "/tasks.json")
	again := buildAndRun(t, replay, 2)
	for i, c := range again {
		if !reflect.DeepEqual(c.Tasks, resumed[i].Tasks) || !reflect.DeepEqual(c.EpisodeSums, resumed[i].EpisodeSums) {
			t.Fatalf("replayed cell %d differs from the original", i)
		}
	}
	// The tasks are the variants in order, with their sizes; every record says it was a simulator
	// and counts its unvisited cells.
	names := []string{"Pendulum-v1 3 torques 4x4x5 bins", "Pendulum-v1 (gravity=3.7, mass=2) 3 torques 4x4x5 bins", "Pendulum-v1 3 torques 4x4x5 bins"}
	for k, task := range p.Runs[0] {
		if task.Def.Name() != names[k] {
			t.Errorf("task %d is %q, want %q", k, task.Def.Name(), names[k])
		}
	}
	for _, rec := range again[0].Tasks {
		if !rec.Simulated || rec.States != 80 || rec.Actions != 3 || rec.Oracle != nil {
			t.Errorf("record %+v, want a simulated task of 80 states and 3 actions without oracle", rec)
		}
		if u := metric(rec, "unvisited_cells"); u < 0 || u >= 80 {
			t.Errorf("unvisited_cells = %v", u)
		}
		// Pendulum never terminates: every episode runs all 100 steps (its own limit is 200).
		if rec.Steps != 6*100 {
			t.Errorf("steps = %d, want 600", rec.Steps)
		}
	}
}

// recorder is a uniformly random learner that records what the runner tells it.
type recorder struct {
	task      agent.Task
	terminal  []int // ObserveTerminal calls
	pending   int   // the state last reported terminal, until its Observe
	starts    []int // the first state of every episode
	fresh     bool
	observes  int
	intoTerm  int // Observe calls into a reported terminal state
	badOrders int // Observe into a terminating state without ObserveTerminal first
}

func (r *recorder) BeginTask(t agent.Task) error {
	r.task, r.fresh, r.pending = t, true, -1
	return nil
}
func (r *recorder) Act(s int) int {
	if r.fresh {
		r.starts, r.fresh = append(r.starts, s), false
	}
	return r.task.Rand.IntN(r.task.A)
}
func (r *recorder) ObserveTerminal(s int) { r.terminal, r.pending = append(r.terminal, s), s }
func (r *recorder) Observe(_, _ int, _ float64, next int) {
	r.observes++
	if len(r.terminal) > 0 && next == r.terminal[0] {
		r.intoTerm++
		if r.intoTerm == 1 && r.pending != next {
			r.badOrders++
		}
	}
	r.pending = -1
}
func (r *recorder) EndEpisode() { r.fresh = true }
func (r *recorder) EndTask()    {}

// strongCar is MountainCar with an engine strong enough for a random policy to reach the goal.
func strongCar(t *testing.T, s Spec) Task {
	t.Helper()
	p := mountaincar.DefaultParams()
	p.Force = 0.004
	lo, hi, _ := env.DefaultBounds(env.KindMountainCar)
	task, err := simulatorTask(s, env.MountainCar{Params: p, Discretization: env.Discretization{Bins: []int{20}, Low: lo, High: hi}})
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// TestTerminalStatesAreLearnedFromSteps: the learner is not told the terminal states; the first
// step into the terminal state calls ObserveTerminal once, before its Observe; every episode
// that terminates ends there.
func TestTerminalStatesAreLearnedFromSteps(t *testing.T) {
	s := Default()
	s.Start, s.Oracle.Enabled = StartPerEpisode, false
	p := &Plan{Seed: 3, Episodes: 30, Steps: 300, Gamma: 0.95, Start: StartPerEpisode, Runs: [][]Task{{strongCar(t, s)}}}
	r := &recorder{}
	rec := runAgent(t, p, r)
	if r.task.Terminal != nil || r.task.Truth != nil {
		t.Error("the learner was told terminal states or a true model")
	}
	term := metric(rec, "terminated_episodes")
	if term < 1 {
		t.Fatalf("no episode reached the goal under the random policy (metrics %v)", rec.Metrics)
	}
	if len(r.terminal) != 1 || r.terminal[0] != 400 {
		t.Fatalf("ObserveTerminal calls %v, want once with the terminal state 400", r.terminal)
	}
	if r.badOrders != 0 || float64(r.intoTerm) != term {
		t.Errorf("%d steps into the terminal state (want %v, one per terminated episode), %d without ObserveTerminal first", r.intoTerm, term, r.badOrders)
	}
	if len(r.starts) != 30 || r.observes != rec.Steps {
		t.Errorf("%d episodes and %d observations, want 30 and %d", len(r.starts), r.observes, rec.Steps)
	}
	// Random starts per episode land in more than one cell; per task, always the same one.
	distinct := map[int]bool{}
	for _, s := range r.starts {
		distinct[s] = true
	}
	p.Start = StartPerTask
	r2 := &recorder{}
	runAgent(t, p, r2)
	same := true
	for _, s := range r2.starts {
		same = same && s == r2.starts[0]
	}
	if len(distinct) < 2 || !same {
		t.Errorf("per-episode starts in %d cells (want several), per-task starts all equal: %v", len(distinct), same)
	}
}

// TestAgentWithoutTerminalObserverIsRefused: on a terminating simulator, an agent that cannot
// learn terminal states fails with an error that says so.
func TestAgentWithoutTerminalObserverIsRefused(t *testing.T) {
	s := Default()
	s.Start, s.Oracle.Enabled = StartPerEpisode, false
	p := &Plan{Seed: 1, Episodes: 1, Steps: 10, Gamma: 0.95, Start: StartPerEpisode, Runs: [][]Task{{strongCar(t, s)}}}
	fac := AgentFactory{Name: "scripted", New: func(RunContext) (agent.Agent, error) { return &scripted{rule: always(0)}, nil }}
	_, err := runCell(context.Background(), p, results.At(t.TempDir()), 0, fac, silent{})
	if err == nil || !strings.Contains(err.Error(), "agent.TerminalObserver") {
		t.Fatalf("error %v, want one naming agent.TerminalObserver", err)
	}
	if err := checkSimulatorAgent(AgentSpec{Type: "scripted"}, fac, p.Runs); err == nil || !strings.Contains(err.Error(), "TerminalObserver") {
		t.Errorf("Build check: error %v", err)
	}
}

// nanTask is a simulator whose third step returns a NaN state.
type nanTask struct{}

func (nanTask) Kind() string                      { return "nan" }
func (nanTask) Name() string                      { return "nan" }
func (nanTask) Model() (*mdp.Model, error)        { return nil, env.ErrNoTable }
func (nanTask) Simulator() (env.Simulator, error) { return &nanSim{}, nil }

type nanSim struct{ steps int }

func (*nanSim) Size() (int, int)                { return 2, 1 }
func (*nanSim) Terminates() bool                { return false }
func (n *nanSim) Reset(*rand.Rand) (int, error) { n.steps = 0; return 0, nil }
func (n *nanSim) Step(int) (int, float64, bool, bool, error) {
	if n.steps++; n.steps == 3 {
		return 0, 0, false, false, fmt.Errorf("step of nan: %w", discretize.ErrNaNState)
	}
	return 1, 0, false, false, nil
}

func TestNaNStateStopsTheRunWithItsError(t *testing.T) {
	p := &Plan{Seed: 1, Episodes: 2, Steps: 10, Gamma: 0.95, Start: StartPerEpisode,
		Runs: [][]Task{{{Def: nanTask{}, Sim: nanTask{}, Start: -1}}}}
	fac := AgentFactory{Name: "scripted", New: func(RunContext) (agent.Agent, error) { return &scripted{rule: always(0)}, nil }}
	_, err := runCell(context.Background(), p, results.At(t.TempDir()), 0, fac, silent{})
	if !errors.Is(err, discretize.ErrNaNState) || !strings.Contains(err.Error(), "episode 0, step 2") {
		t.Fatalf("error %v, want ErrNaNState at episode 0, step 2", err)
	}
}

func TestSimulatorSpecErrors(t *testing.T) {
	base := `
runs: 1
episodes: 2
steps: 10
start: random-per-episode
oracle: {enabled: false}
agents: [{type: q-learning}]
`
	for _, c := range []struct{ yaml, want string }{
		{"tasks: {family: mountaincar, bins: [0]}", "bins[0] = 0"},
		{"tasks: {family: mountaincar, physics: {gravity: -1}}", "gravity = -1"},
		{"tasks: {family: mountaincar, physics: {friction: 1}}", `physics key "friction"`},
		{"tasks: {family: cartpole, physics: {max_steps: 2.5}}", "max_steps = 2.5"},
		{"tasks: {family: mountaincar, low: [0.6, 0.07], high: [-1.2, -0.07]}", "high[0] = -1.2"},
		{"tasks: {family: mountaincar, torques: 3}", "torques = 3"},
		{"tasks: {family: pendulum, torques: 0}", "torques = 0"},
		{"tasks: {family: mountaincar, order: shuffled}", `order = "shuffled"`},
		{"tasks: {family: mountaincar, count: 0}", "count = 0"},
	} {
		s, err := Parse([]byte(base + c.yaml))
		if err == nil {
			_, err = Build(s)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.yaml, err, c.want)
		}
	}
	for _, c := range []struct {
		change func(*Spec)
		want   string
	}{
		{func(s *Spec) { s.Start = StartFixed }, "start = fixed needs a table task"},
		{func(s *Spec) { s.Oracle.Enabled = true }, "oracle.enabled = true"},
		{func(s *Spec) { s.Agents = []AgentSpec{defaultAgent(TypeAbsRL)} }, "needs every task's true model"},
	} {
		s, err := Parse([]byte(base + "tasks: {family: pendulum}\n"))
		if err != nil {
			t.Fatal(err)
		}
		c.change(&s)
		if _, err = Build(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one with %q", err, c.want)
		}
	}
}
