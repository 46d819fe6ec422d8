package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/temple-rl/temple/episode"
)

func mustTasks(t testing.TB, family, params, set string) *tasks {
	t.Helper()
	ts, err := newTasks(family, params, set, 1, 0, "Q-learning")
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestNewTasksRefusals(t *testing.T) {
	for _, c := range []struct{ family, params, set, want string }{
		{"online-mazes", "", "", `family = "online-mazes"`},
		{"online-maze", `{"hieght": 3}`, "", `no parameter "hieght"`},
		{"online-maze", `{"width": "five"}`, "", `width = "five", want an integer`}, // no Go type names
		{"online-maze", `{"family": "grid"}`, "", `"family" is not a parameter here`},
		{"online-maze", `[1]`, "", "not a JSON object"},
		{"online-maze", "", `{"steps": 0}`, "steps = 0"},
		{"online-maze", "", `{"gamma": 1}`, "gamma = 1"},
		{"online-maze", "", `{"start": "often"}`, `start = "often"`},
		{"online-maze", "", `{"stpes": 3}`, `unknown field "stpes"`},
		{"online-maze", "", `{"episodes": "x"}`, "episodes = a JSON string, want an integer"},
		{"online-maze", "", `{"gamma": [1]}`, "gamma = a JSON array, want a number"},
		// Issue 37, case 6: temple.make("online-maze", count=10**12) aborted the interpreter.
		{"online-maze", `{"count": 1000000000000}`, "", "a run would hold 1000000000000 tasks"},
		{"mixed", `{"repeat": 1001, "parts": [{"family": "online-maze", "count": 1000}]}`, "", "a run would hold 1001000 tasks"},
		// A pool of mazes whose draw alone would exhaust the memory is refused before it is drawn (it
		// died out of memory).
		{"online-maze", `{"width": 2048, "height": 2048, "count": 1000000, "pool": 1000000}`, "", "more than the machine's"},
	} {
		_, err := newTasks(c.family, c.params, c.set, 1, 0, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("newTasks(%q, %q, %q) = %v, want an error with %q", c.family, c.params, c.set, err, c.want)
		}
	}
	if _, err := newTasks("online-maze", "", "", 1, -1, ""); err == nil || !strings.Contains(err.Error(), "run = -1") {
		t.Errorf("run -1: %v", err)
	}
}

// An episode: refused before reset, actions checked, truncated after steps, refused after its
// end, and a refused step changes nothing.
func TestEnvEpisodes(t *testing.T) {
	ts := mustTasks(t, "online-maze", `{"count": 2}`, `{"steps": 4}`)
	e, err := ts.newEnv(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.step(0); err == nil || !strings.Contains(err.Error(), "call reset first") {
		t.Fatalf("step before reset: %v", err)
	}
	s, err := e.reset()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.step(4); err == nil || !strings.Contains(err.Error(), "action 4 out of range [0, 4)") {
		t.Fatalf("action 4: %v", err)
	}
	for i := range 4 {
		x, _, err := e.step(0)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := x&stepTruncated != 0, i == 3; got != want {
			t.Fatalf("step %d: truncated %v, want %v", i, got, want)
		}
	}
	if _, _, err := e.step(0); !errors.Is(err, episode.ErrEpisodeOver) {
		t.Fatalf("step after the end: %v", err)
	}
	if s2, _ := e.reset(); s2 != s {
		t.Fatalf("random-per-task: second episode starts in %d, the first in %d", s2, s)
	}
	if _, err := ts.newEnv(2, 1); err == nil || !strings.Contains(err.Error(), "task 2 out of range [0, 2)") {
		t.Fatalf("task 2: %v", err)
	}
}

// The optimum of an episode from a state is the runner's: 0 in a terminal state, positive from
// FrozenLake's start, refused for a simulator.
func TestOptimalValue(t *testing.T) {
	ts := mustTasks(t, "frozenlake", `{"map": "4x4"}`, "")
	term := ts.list[0].table.TerminalStates()
	for s, isTerm := range term {
		v, err := ts.optimalValue(0, int64(s))
		if err != nil {
			t.Fatal(err)
		}
		if isTerm && v != 0 || !isTerm && s == 0 && !(v > 0) {
			t.Errorf("V_T(%d) = %v (terminal %v)", s, v, isTerm)
		}
	}
	if _, err := ts.optimalValue(0, 16); err == nil {
		t.Error("state 16 of 16 accepted")
	}
	sim := mustTasks(t, "mountaincar", "", "")
	if _, err := sim.optimalValue(0, 0); err == nil || !strings.Contains(err.Error(), "simulator") {
		t.Errorf("a simulator's optimal value: %v", err)
	}
}

// BenchmarkEnvStep is the Go side of one environment step behind a handle (lookup, lock, checks,
// one sampled transition) on the task of python/temple/bench.py's second line.
func BenchmarkEnvStep(b *testing.B) {
	ts := mustTasks(b, "online-maze", "", "")
	e, err := ts.newEnv(0, 1)
	if err != nil {
		b.Fatal(err)
	}
	h := register(e)
	defer unregister(h)
	e.reset()
	a := int64(0)
	for b.Loop() {
		x := callOn(h, func(e *taskEnv) (int64, error) { x, _, err := e.step(a); return x, err })
		if x&(stepTerminated|stepTruncated) != 0 {
			callOn(h, (*taskEnv).reset)
		}
		a = (a + 1) & 3
	}
}
