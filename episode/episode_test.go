package episode

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// walker acts uniformly at random from its own stream and logs what it is told.
type walker struct {
	rng       *rand.Rand
	A         int
	steps     []int // s, a, next of every observed step
	terminals []int // states observed terminal, with the number of steps observed before
	episodes  int
}

func (w *walker) BeginTask(t agent.Task) error { w.rng, w.A = t.Rand, t.A; return nil }
func (w *walker) Act(int) int                  { return w.rng.IntN(w.A) }
func (w *walker) Observe(s, a int, _ float64, next int) {
	w.steps = append(w.steps, s, a, next)
}
func (w *walker) ObserveTerminal(s int) { w.terminals = append(w.terminals, s, len(w.steps)/3) }
func (w *walker) EndEpisode()           { w.episodes++ }
func (w *walker) EndTask()              {}

// corridor is a 4-state corridor: action 1 moves right with probability 0.8, action 0 stays;
// reaching state 3 pays 1 and ends the episode.
func corridor(t *testing.T) *mdp.Model {
	t.Helper()
	rows := make([][]mdp.Transition, 8)
	rows[6], rows[7] = []mdp.Transition{{Next: 3, Prob: 1}}, []mdp.Transition{{Next: 3, Prob: 1}}
	for s := range 3 {
		rows[2*s] = []mdp.Transition{{Next: s, Prob: 1}}
		next := s + 1
		r := 0.0
		if next == 3 {
			r = 1
		}
		rows[2*s+1] = []mdp.Transition{{Next: s, Prob: 0.2}, {Next: next, Prob: 0.8, Reward: r}}
	}
	m, err := mdp.NewEpisodic(4, 2, rows, []float64{0.5, 0.5, 0, 0}, []bool{false, false, false, true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// onDemand hides the stored model, so the loop reads it as a task computed on demand.
type onDemand struct{ mdp.Dynamics }

// log is a Watcher and a Returns recorder that logs what it sees.
type log struct {
	starts, steps []int
	returns       []float64
}

func (l *log) Episode(s int) { l.starts = append(l.starts, s) }
func (l *log) Stepped(s, a int, _ float64, next, _ int, _ agent.Phase) {
	l.steps = append(l.steps, s, a, next)
}
func (l *log) Return(_ int, ret float64) { l.returns = append(l.returns, ret) }

func TestTableEpisodesEndAtTerminalStates(t *testing.T) {
	m := corridor(t)
	c := Config{Episodes: 50, Steps: 6, Gamma: 0.9, Starts: StartPerEpisode}
	var w walker
	l := &log{}
	rec, err := Run(&w, Task{Table: m}, c, StreamsOf(1, 0, "walker", 0), Hooks{Steps: l, Returns: l})
	if err != nil {
		t.Fatal(err)
	}
	if w.episodes != c.Episodes || len(l.starts) != c.Episodes || len(l.returns) != c.Episodes {
		t.Fatalf("%d episodes ended, %d started, %d returns; want %d", w.episodes, len(l.starts), len(l.returns), c.Episodes)
	}
	if !reflect.DeepEqual(l.steps, w.steps) || rec.Steps != len(w.steps)/3 {
		t.Fatalf("the watcher saw %d steps, the agent %d, the record says %d", len(l.steps)/3, len(w.steps)/3, rec.Steps)
	}
	terminated, sum := 0, 0.0
	for _, r := range l.returns {
		sum += r
		if r == 1 {
			terminated++
		}
	}
	want := []agent.Metric{{Name: "terminated_episodes", Value: float64(terminated)}, {Name: "truncated_episodes", Value: float64(c.Episodes - terminated)}}
	if rec.Reward != sum || !reflect.DeepEqual(rec.Metrics, want) || terminated == 0 || terminated == c.Episodes {
		t.Fatalf("reward %v (returns sum to %v), metrics %v, want %v", rec.Reward, sum, rec.Metrics, want)
	}
	for i := 2; i < len(w.steps); i += 3 {
		if w.steps[i] == 3 && i+1 < len(w.steps) && w.steps[i+1] == 3 {
			t.Fatalf("step %d goes on from the terminal state", i/3+1)
		}
	}
}

// A task computed on demand runs exactly as the stored model it computes, and the watcher changes
// nothing.
func TestOnDemandAndWatchedRunAsStored(t *testing.T) {
	m := corridor(t)
	c := Config{Episodes: 20, Steps: 5, Gamma: 0.9, Starts: StartPerTask}
	run := func(table mdp.Dynamics, h Hooks) (Record, []int) {
		var w walker
		rec, err := Run(&w, Task{Table: table}, c, StreamsOf(7, 1, "walker", 2), h)
		if err != nil {
			t.Fatal(err)
		}
		return rec, w.steps
	}
	rec, steps := run(m, Hooks{})
	for _, h := range []Hooks{{Steps: &log{}}, {}} {
		got, gotSteps := run(onDemand{m}, h)
		if !reflect.DeepEqual(got, rec) || !reflect.DeepEqual(gotSteps, steps) {
			t.Fatalf("on demand: %+v, stored: %+v", got, rec)
		}
	}
	if starts := TableStarts(Task{Table: m}, c, StreamsOf(7, 1, "", 2)); !reflect.DeepEqual(starts, []int{rec.Start}) {
		t.Fatalf("TableStarts = %v, the episodes started in %d", starts, rec.Start)
	}
}

// line is a simulator: a walk on 0..3 from a reset drawn uniformly in {0, 1}; action 1 moves
// right, 3 is terminal, and its own time limit truncates an episode after limit steps.
type line struct {
	s, t, limit int
}

func (l *line) Size() (int, int) { return 4, 2 }
func (l *line) Terminates() bool { return true }
func (l *line) Unvisited() int   { return 2 }
func (l *line) Reset(rng *rand.Rand) (int, error) {
	l.s, l.t = rng.IntN(2), 0
	return l.s, nil
}
func (l *line) Step(a int) (int, float64, bool, bool, error) {
	l.s, l.t = min(l.s+a, 3), l.t+1
	if l.s == 3 {
		return 3, 1, true, false, nil
	}
	return l.s, 0, false, l.t == l.limit, nil
}

func TestSimulatorEpisodes(t *testing.T) {
	c := Config{Episodes: 40, Steps: 10, Gamma: 0.9, Starts: StartPerTask}
	var w walker
	l := &log{}
	rec, err := Run(&w, Task{Sim: &line{limit: 4}}, c, StreamsOf(3, 0, "walker", 0), Hooks{Returns: l})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.terminals) != 2 || w.terminals[0] != 3 || w.steps[3*w.terminals[1]-1] == 3 {
		t.Fatalf("ObserveTerminal calls %v: want state 3 once, before the step into it is observed", w.terminals)
	}
	if !rec.Simulated || rec.Steps != len(w.steps)/3 || rec.Metrics[len(rec.Metrics)-1] != (agent.Metric{Name: "unvisited_cells", Value: 2}) {
		t.Fatalf("record %+v", rec)
	}
	if rec.Steps > c.Episodes*4 {
		t.Fatalf("%d steps: the simulator's time limit of 4 steps did not truncate", rec.Steps)
	}
	_, err = Run(&struct{ agent.Agent }{&walker{}}, Task{Sim: &line{limit: 4}, Name: "line"}, c, StreamsOf(3, 0, "x", 0), Hooks{})
	if !errors.Is(err, ErrNoTerminalObserver) {
		t.Fatalf("an agent without ObserveTerminal: %v", err)
	}
}

// silent stays where it is and learns nothing: the loop alone.
type silent struct{}

func (silent) BeginTask(agent.Task) error     { return nil }
func (silent) Act(int) int                    { return 0 }
func (silent) Observe(int, int, float64, int) {}
func (silent) EndEpisode()                    {}
func (silent) EndTask()                       {}

// The loop allocates nothing per step, and neither does an Env.
func TestEpisodeAllocatesNothing(t *testing.T) {
	c := Config{Episodes: 1, Steps: 1000, Gamma: 0.9}
	w, err := begin(silent{}, Task{Table: corridor(t)}, c, StreamsOf(1, 0, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		s, _ := w.reset()
		w.episode(silent{}, s, nil, Hooks{})
	}); n != 0 {
		t.Fatalf("%v allocations per episode", n)
	}
	e, err := NewEnv(Task{Table: corridor(t)}, c, StreamsOf(1, 0, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		e.Reset()
		for ended := false; !ended; {
			_, _, terminated, truncated, _ := e.Step(1)
			ended = terminated || truncated
		}
	}); n != 0 {
		t.Fatalf("%v allocations per episode of an Env", n)
	}
}
