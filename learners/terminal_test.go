package learners

import (
	"math"
	"testing"

	"github.com/temple-rl/temple/agent"
)

// A terminal state has value 0: RMax plans it as such even though it is never visited (an
// unvisited pair would otherwise be planned as an R_max self-loop worth R_max/(1−γ)).
func TestRMaxPlansTerminalStatesAtZero(t *testing.T) {
	p := DefaultRMax()
	p.M = 1
	l := RMax{P: p}
	tk := task(2, 1, 1)
	tk.Terminal = []bool{false, true}
	l.Begin(tk)
	l.Record(0, 1, 0.5) // (0, 0) → terminal state 1 with reward 0.5, now known
	q := l.Q()
	if math.Abs(q[0]-0.5) > 1e-9 || q[1] != 0 {
		t.Fatalf("Q(0,0) = %v, Q(1,0) = %v; want 0.5 (nothing past the terminal state) and 0", q[0], q[1])
	}
	// Without terminal flags the same pair bootstraps the unknown state's optimism.
	l.Begin(task(2, 1, 1))
	l.Record(0, 1, 0.5)
	if want := 0.5 + 0.9*p.RMax/(1-0.9); math.Abs(l.Q()[0]-want) > 1e-3 {
		t.Fatalf("continuing task: Q(0,0) = %v, want %v", l.Q()[0], want)
	}
}

func TestQLearningBootstrapsNothingPastATerminalState(t *testing.T) {
	ql, err := NewQLearning(QLearningParams{Alpha: 1, Epsilon: 0.1, InitialQ: 5})
	if err != nil {
		t.Fatal(err)
	}
	tk := task(2, 1, 1)
	tk.Terminal = []bool{false, true}
	if err := ql.BeginTask(tk); err != nil {
		t.Fatal(err)
	}
	ql.Observe(0, 0, 1, 1)
	if q := ql.Q()[0]; q != 1 {
		t.Fatalf("Q(0,0) = %v after reaching the terminal state with reward 1 (α = 1), want 1", q)
	}
	ql.Observe(0, 0, 1, 0) // a non-terminal next state bootstraps: 1 + 0.9·Q(0,0)
	if q := ql.Q()[0]; math.Abs(q-1.9) > 1e-12 {
		t.Fatalf("Q(0,0) = %v, want 1.9", q)
	}
}

// A terminal state learned from a step (ObserveTerminal, as a simulator or the C ABI reports it)
// is treated exactly as a declared one: RMax, in every planning mode, and Q-learning, told at
// some step that state 1 is terminal, hold the same Q as the same learner told up front, given
// the same samples.
func TestTerminalLearnedFromAStepIsADeclaredTerminal(t *testing.T) {
	rmax := func(planning Planning) func() qAgent {
		return func() qAgent {
			p := DefaultRMax()
			p.M, p.Planning = 2, planning
			r, _ := NewRMax(p)
			return rmaxQ{agent.NewSingle(r), r}
		}
	}
	learners := map[string]func() qAgent{
		"rmax-full":        rmax(PlanFull),
		"rmax-incremental": rmax(PlanIncremental),
		"rmax-delta":       rmax(PlanDelta),
		"q-learning": func() qAgent {
			q, _ := NewQLearning(QLearningParams{Alpha: 0.5, Epsilon: 0.1, InitialQ: 3})
			return q
		},
	}
	// A 3-state chain, 2 actions: from 0 either action reaches 1 (terminal) or 2.
	steps := [][4]float64{{0, 0, 0.5, 2}, {2, 1, 0, 0}, {0, 1, 1, 1}, {0, 0, 0.5, 2}, {2, 0, 0, 0}, {0, 1, 1, 1}, {0, 0, 0.5, 2}}
	for name, mk := range learners {
		declared, learned := mk(), mk()
		tk := task(3, 2, 1)
		tk.Terminal = []bool{false, true, false}
		if err := declared.BeginTask(tk); err != nil {
			t.Fatal(err)
		}
		if err := learned.BeginTask(task(3, 2, 1)); err != nil {
			t.Fatal(err)
		}
		for k, x := range steps {
			s, a, r, next := int(x[0]), int(x[1]), x[2], int(x[3])
			if next == 1 {
				learned.ObserveTerminal(1) // the step reports terminated
			}
			declared.Observe(s, a, r, next)
			learned.Observe(s, a, r, next)
			if k < 2 {
				continue // before the terminal state is met the two may differ
			}
			qd, ql := declared.Q(), learned.Q()
			for i := range qd {
				if math.Abs(qd[i]-ql[i]) > 1e-9 {
					t.Fatalf("%s, step %d: Q = %v with the terminal state learned, want %v as declared", name, k, ql, qd)
				}
			}
		}
	}
}

// qAgent is a learner whose Q can be read and that learns terminal states from steps.
type qAgent interface {
	agent.TerminalObserver
	agent.Agent
	Q() []float64
}

// rmaxQ gives the RMax agent's planned Q.
type rmaxQ struct {
	*agent.Single
	l *RMax
}

func (r rmaxQ) Q() []float64 { return r.l.Q() }
