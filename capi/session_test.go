package main

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/stream"
)

func mustSession(t testing.TB, typ, params string) *session {
	t.Helper()
	s, err := newSession(typ, params, 1, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewSessionRefusals(t *testing.T) {
	for _, c := range []struct{ typ, params, want string }{
		{"nope", "", `agent type "nope"`},
		{"o-temple", `{"taux": 0.1}`, `no parameter "taux"`},
		{"o-temple", `{"tau": -1}`, "tau"},
		{"rmax", `{"m": "x"}`, `m = "x", want an integer`}, // no Go type names
		{"rmax", `[1]`, "not a JSON object"},
		{"rmax", `{"m": `, "not a JSON object"},
		{"rmax", `{"name": "x"}`, `"name" is not a parameter here`},
		{"abs-rl", "", "true models"},
		{"maxqinit-q-learning", "", "true models"},
	} {
		_, err := newSession(c.typ, c.params, 1, 0, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("newSession(%q, %q) = %v, want an error with %q", c.typ, c.params, err, c.want)
		}
	}
}

// The agent's stream in task k is the runner's for the same seed, run and name: the learner
// draws what it draws in the runner.
func TestBeginTaskGivesTheRunnersStream(t *testing.T) {
	s, err := newSession("q-learning", `{"epsilon": 1}`, 9, 2, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.name != "Q-learning" {
		t.Fatalf("default name %q, want the runner's Q-learning", s.name)
	}
	qp := learners.DefaultQLearning()
	qp.Epsilon = 1
	ql, err := learners.NewQLearning(qp)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 3 {
		if err := s.beginTask(k, 4, 3, 0.9, nil); err != nil {
			t.Fatal(err)
		}
		if err := ql.BeginTask(agent.Task{Index: k, S: 4, A: 3, Gamma: 0.9, Rand: stream.ForAgent(9, 2, "Q-learning", k)}); err != nil {
			t.Fatal(err)
		}
		for i := range 100 { // ε = 1: every action is a draw of the stream
			a, err := s.act(int64(i % 4))
			if err != nil {
				t.Fatal(err)
			}
			if b := ql.Act(i % 4); a != b {
				t.Fatalf("task %d, step %d: action %d, want the runner stream's %d", k, i, a, b)
			}
		}
		if err := s.endTask(); err != nil {
			t.Fatal(err)
		}
		ql.EndTask()
	}
}

func TestEveryCallIsChecked(t *testing.T) {
	s := mustSession(t, "rmax", `{"m": 2}`)
	if _, err := s.act(0); !errors.Is(err, errNoTask) {
		t.Fatalf("act before begin_task: %v", err)
	}
	if err := s.beginTask(0, 3, 2, 0.9, []int64{2}); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		s.observe(3, 0, 0, 0, false),
		s.observe(0, 2, 0, 0, false),
		s.observe(0, 0, 0, 3, false),
		s.beginTask(1, 3, 2, 0.9, nil),
	} {
		if err == nil {
			t.Fatal("a bad call was accepted")
		}
	}
	if _, err := s.act(3); err == nil {
		t.Fatal("act(3) of 3 states accepted")
	}
}

// A step that reports terminated tells the learner once, before the step; a declared terminal
// state is not told again.
func TestTerminatedIsToldOnce(t *testing.T) {
	s := mustSession(t, "q-learning", "")
	told := &countTerminal{Agent: s.ag}
	s.ag, s.term = told, told
	if err := s.beginTask(0, 3, 2, 0.9, []int64{2}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := s.observe(0, 0, 1, 1, true); err != nil {
			t.Fatal(err)
		}
		if err := s.observe(0, 0, 1, 2, true); err != nil {
			t.Fatal(err)
		}
	}
	if len(told.states) != 1 || told.states[0] != 1 {
		t.Fatalf("ObserveTerminal calls %v, want [1]", told.states)
	}
}

type countTerminal struct {
	agent.Agent
	states []int
}

func (c *countTerminal) ObserveTerminal(s int) {
	c.states = append(c.states, s)
	c.Agent.(agent.TerminalObserver).ObserveTerminal(s)
}

// A panic inside a learner comes back as an error, and the handle is unusable from then on.
func TestPanicsAreRecovered(t *testing.T) {
	s := mustSession(t, "rmax", "")
	h := register(s)
	defer unregister(h)
	if got := call(h, func(*session) (int64, error) { panic("boom") }); got != codeError {
		t.Fatalf("call returned %d after a panic, want %d", got, codeError)
	}
	if !strings.Contains(s.err, "boom") {
		t.Fatalf("error %q, want the panic's message", s.err)
	}
	if got := call(h, func(s *session) (int64, error) { return 0, s.beginTask(0, 2, 2, 0.9, nil) }); got != codeError || !strings.Contains(s.err, "unusable") {
		t.Fatalf("call after a panic: %d, %q", got, s.err)
	}
	if got := call(h+1000, func(*session) (int64, error) { return 0, nil }); got != codeNoAgent {
		t.Fatalf("unknown handle: %d, want %d", got, codeNoAgent)
	}
}

// BenchmarkSessionActObserve is the Go side of one act + observe pair behind a handle (lookup,
// lock, checks, the learner) on the no-op environment of python/temple/bench.py; the Python
// figure adds the two crossings of the boundary.
func BenchmarkSessionActObserve(b *testing.B) {
	for _, typ := range []string{"o-temple", "rmax", "q-learning"} {
		b.Run(typ, func(b *testing.B) {
			h := register(mustSession(b, typ, ""))
			defer unregister(h)
			const S = 64
			if call(h, func(s *session) (int64, error) { return 0, s.beginTask(0, S, 4, 0.95, nil) }) != 0 {
				b.Fatal("begin_task")
			}
			st := int64(0)
			for b.Loop() {
				a := call(h, func(s *session) (int64, error) { a, err := s.act(st); return int64(a), err })
				next := (st + 1) % S
				if call(h, func(s *session) (int64, error) { return 0, s.observe(st, a, 0, next, false) }) != 0 {
					b.Fatal("observe")
				}
				st = next
			}
		})
	}
}

// Handles opened, used and closed from many goroutines at once (as from many threads of the
// caller): each sees its own agent, a closed handle is gone, and one handle's calls serialize.
func TestConcurrentHandles(t *testing.T) {
	shared := register(mustSession(t, "q-learning", ""))
	defer unregister(shared)
	if call(shared, func(s *session) (int64, error) { return 0, s.beginTask(0, 4, 2, 0.9, nil) }) != 0 {
		t.Fatal("begin_task")
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				h := register(mustSession(t, "rmax", `{"m": 2}`))
				if call(h, func(s *session) (int64, error) { return 0, s.beginTask(i, 3, 2, 0.9, nil) }) != 0 {
					t.Error("begin_task")
				}
				st := int64(g % 4)
				if a := call(shared, func(s *session) (int64, error) { a, err := s.act(st); return int64(a), err }); a < 0 ||
					call(shared, func(s *session) (int64, error) { return 0, s.observe(st, a, 1, (st+1)%4, false) }) != 0 {
					t.Error("shared handle refused a call")
				}
				if !unregister(h) || lookup(h) != nil || unregister(h) {
					t.Errorf("handle %d still open after close", h)
				}
			}
		})
	}
	wg.Wait()
}

// A task begun through the C library states no reward range: PSRL's Beta posterior on the task's
// range is refused at begin_task with what to give, and runs once given one.
func TestBeginTaskRefusesPSRLWithoutARewardRange(t *testing.T) {
	s := mustSession(t, "psrl", "")
	err := s.beginTask(0, 4, 2, 0.9, nil)
	if err == nil || !strings.Contains(err.Error(), "begin_task: psrl: reward_posterior beta with reward_min and reward_max task") ||
		!strings.Contains(err.Error(), "give reward_min and reward_max") {
		t.Errorf("begin_task of PSRL at its defaults: %v, want a refusal naming reward_min and reward_max", err)
	}
	s = mustSession(t, "psrl", `{"reward_min": -1, "reward_max": 1}`)
	if err := s.beginTask(0, 4, 2, 0.9, nil); err != nil {
		t.Errorf("begin_task of PSRL on [-1, 1]: %v", err)
	}
}
