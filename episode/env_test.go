package episode

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// An Env stepped by the actions Run's agent took gives the same episodes as Run: the same starts,
// transitions, rewards, terminations and truncations, for a stored model, a table computed on
// demand and a simulator, under every start rule that applies.
func TestEnvReplaysRun(t *testing.T) {
	m := corridor(t)
	for _, c := range []struct {
		name   string
		task   func() Task
		starts []Starts
	}{
		{"stored", func() Task { return Task{Table: m, Fixed: 1} }, []Starts{StartPerTask, StartPerEpisode, StartFixed}},
		{"on demand", func() Task { return Task{Table: onDemand{m}, Fixed: 1} }, []Starts{StartPerTask, StartPerEpisode, StartFixed}},
		{"simulator", func() Task { return Task{Sim: &line{limit: 4}} }, []Starts{StartPerTask, StartPerEpisode}},
	} {
		for _, starts := range c.starts {
			cfg := Config{Episodes: 30, Steps: 5, Gamma: 0.9, Starts: starts}
			var w walker
			l := &log{}
			rec, err := Run(&w, c.task(), cfg, StreamsOf(5, 1, "walker", 3), Hooks{Steps: l, Returns: l})
			if err != nil {
				t.Fatal(err)
			}
			e, err := NewEnv(c.task(), cfg, StreamsOf(5, 1, "walker", 3))
			if err != nil {
				t.Fatal(err)
			}
			var starts, steps []int
			var returns []float64
			step := 0
			for range cfg.Episodes {
				s, err := e.Reset()
				if err != nil {
					t.Fatal(err)
				}
				starts = append(starts, s)
				ret := 0.0
				for ended := false; !ended; {
					a := w.steps[3*step+1] // the action Run's agent took
					next, r, terminated, truncated, err := e.Step(a)
					if err != nil {
						t.Fatal(err)
					}
					steps = append(steps, s, a, next)
					s, ret, ended, step = next, ret+r, terminated || truncated, step+1
				}
				returns = append(returns, ret)
			}
			if !reflect.DeepEqual(starts, l.starts) || !reflect.DeepEqual(steps, l.steps) || !reflect.DeepEqual(returns, l.returns) || step != rec.Steps {
				t.Errorf("%s, starts %d: the environment's episodes differ from Run's:\nstarts %v\nRun's  %v\nreturns %v\nRun's   %v",
					c.name, starts, starts, l.starts, returns, l.returns)
			}
		}
	}
}

// Steps outside an episode and actions out of range are refused and change nothing; a
// simulator cannot start at a fixed state.
func TestEnvRefusals(t *testing.T) {
	e, err := NewEnv(Task{Table: corridor(t)}, Config{Episodes: 1, Steps: 2}, StreamsOf(1, 0, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	if S, A := e.Size(); S != 4 || A != 2 {
		t.Fatalf("Size() = %d, %d, want 4, 2", S, A)
	}
	if _, _, _, _, err := e.Step(0); err == nil || !strings.Contains(err.Error(), "call reset first") {
		t.Fatalf("a step before Reset: %v", err)
	}
	s, _ := e.Reset()
	if _, _, _, _, err := e.Step(2); err == nil || !strings.Contains(err.Error(), "action 2 out of range [0, 2)") {
		t.Fatalf("action 2: %v", err)
	}
	for i := range 2 {
		next, _, _, truncated, err := e.Step(0) // action 0 stays
		if err != nil || next != s || truncated != (i == 1) {
			t.Fatalf("step %d: next %d (from %d), truncated %v, %v", i, next, s, truncated, err)
		}
	}
	if _, _, _, _, err := e.Step(0); !errors.Is(err, ErrEpisodeOver) {
		t.Fatalf("a step after the end: %v", err)
	}
	for _, c := range []struct {
		task Task
		cfg  Config
		want string
	}{
		{Task{Sim: &line{}, Name: "line"}, Config{Steps: 1, Starts: StartFixed}, "task 0 (line) is a simulator"},
		{Task{Name: "none"}, Config{Steps: 1}, "task 0 (none): give exactly one of a table and a simulator"},
		{Task{Table: corridor(t)}, Config{Steps: 0}, "steps = 0"},
	} {
		if _, err := NewEnv(c.task, c.cfg, StreamsOf(1, 0, "", 0)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewEnv(%+v, %+v) = %v, want an error with %q", c.task, c.cfg, err, c.want)
		}
	}
}
