package external

import (
	"fmt"
	"math"
	"regexp"
	"slices"

	"github.com/temple-rl/temple/agent"
)

// Task is agent.Task as the other side sees it: no random stream but a seed drawn from it, the
// terminal states as a list, and no true model.
type Task struct {
	Index, States, Actions int
	Gamma                  float64
	Terminal               []int
	Seed                   uint64
}

// Step is one transition (s, a, r, s′), with whether s′ is terminal.
type Step struct {
	State, Action int
	Reward        float64
	Next          int
	Terminated    bool
}

// Conn is the other side of a learner outside temple, one learner for one cell: a process
// speaking the protocol (Process), or a Python object behind the C library's callbacks. Every
// call may fail; Learner checks what comes back.
type Conn interface {
	BeginTask(t Task) error
	Act(s int) (int, error)
	// ObserveAct is Observe(st) then Act(st.Next), in one call.
	ObserveAct(st Step) (int, error)
	Observe(st Step) error
	EndEpisode() error
	// EndTask ends the task and returns the learner's diagnostics of it (nil: none).
	EndTask() (map[string]float64, error)
	Close() error
}

// Learner is a learner outside temple as an agent.Agent: it tells conn what the runner tells an
// agent, one call a step (the step just taken is sent with the next request for an action), and
// checks every answer. Its first failure is its error (agent.Remote): from then on it asks conn
// nothing and acts 0.
type Learner struct {
	name     string
	conn     Conn
	err      error
	task     int
	A        int
	terminal []bool
	pending  Step
	waiting  bool // pending is a step not yet told to conn
	metrics  []agent.Metric
}

// NewLearner is the agent named name whose learner is conn.
func NewLearner(name string, conn Conn) *Learner { return &Learner{name: name, conn: conn} }

// fail keeps the first error, naming the call that failed.
func (l *Learner) fail(call string, err error) {
	if l.err == nil {
		l.err = fmt.Errorf("learner %s, %s of task %d: %w", l.name, call, l.task, err)
	}
}

// BeginTask tells conn the task, with a seed drawn from the agent's stream of the task.
func (l *Learner) BeginTask(t agent.Task) error {
	if l.err != nil {
		return l.err
	}
	l.task, l.A, l.waiting, l.metrics = t.Index, t.A, false, nil
	l.terminal = make([]bool, t.S)
	var terminal []int
	for s := range t.S {
		if t.IsTerminal(s) {
			l.terminal[s] = true
			terminal = append(terminal, s)
		}
	}
	if err := l.conn.BeginTask(Task{Index: t.Index, States: t.S, Actions: t.A, Gamma: t.Gamma, Terminal: terminal,
		Seed: t.Rand.Uint64()}); err != nil {
		l.fail("begin_task", err)
		return l.err
	}
	return nil
}

// Act asks for the action in s, telling the step that led to s with the request.
func (l *Learner) Act(s int) int {
	if l.err != nil {
		return 0
	}
	var a int
	var err error
	call := "act"
	if l.waiting && l.pending.Next == s {
		call = "observe_act"
		a, err = l.conn.ObserveAct(l.pending)
	} else {
		if l.waiting {
			err = l.conn.Observe(l.pending)
		}
		if err == nil {
			a, err = l.conn.Act(s)
		}
	}
	l.waiting = false
	if err == nil && (a < 0 || a >= l.A) {
		err = fmt.Errorf("answered action %d in state %d, want one of 0..%d", a, s, l.A-1)
	}
	if err != nil {
		l.fail(call, err)
		return 0
	}
	return a
}

// Observe keeps the step, to be told with the next request.
func (l *Learner) Observe(s, a int, r float64, next int) {
	l.pending = Step{State: s, Action: a, Reward: r, Next: next, Terminated: l.terminal[next]}
	l.waiting = true
}

// ObserveTerminal marks s terminal (a simulator's step reached it).
func (l *Learner) ObserveTerminal(s int) { l.terminal[s] = true }

// EndEpisode tells the episode's last step and its end.
func (l *Learner) EndEpisode() {
	if l.err != nil {
		return
	}
	if l.waiting {
		l.waiting = false
		if err := l.conn.Observe(l.pending); err != nil {
			l.fail("observe", err)
			return
		}
	}
	if err := l.conn.EndEpisode(); err != nil {
		l.fail("end_episode", err)
	}
}

// metricName is what a metric of metrics.csv may be called.
var metricName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// EndTask ends the task and keeps the learner's diagnostics of it, in name order.
func (l *Learner) EndTask() {
	if l.err != nil {
		return
	}
	m, err := l.conn.EndTask()
	if err != nil {
		l.fail("end_task", err)
		return
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		switch v := m[k]; {
		case !metricName.MatchString(k):
			l.fail("end_task", fmt.Errorf("metric %q: a metric's name is a letter or _ then letters, digits or _ (at most 64)", k))
			return
		case math.IsNaN(v) || math.IsInf(v, 0):
			l.fail("end_task", fmt.Errorf("metric %s = %v, want a finite number", k, v))
			return
		default:
			l.metrics = append(l.metrics, agent.Metric{Name: k, Value: v})
		}
	}
}

// TaskMetrics are the diagnostics the learner gave at the end of the last task.
func (l *Learner) TaskMetrics() []agent.Metric { return l.metrics }

// Err is the learner's first failure, nil while it has none.
func (l *Learner) Err() error { return l.err }

// Close ends the learner's side; an error of closing is its error when it had none.
func (l *Learner) Close() error {
	if err := l.conn.Close(); err != nil && l.err == nil {
		l.err = fmt.Errorf("learner %s, close: %w", l.name, err)
	}
	return l.err
}
