package agent

import (
	"math"
	"testing"
)

// A terminal state has value 0: RMax plans it as such even though it is never visited (an
// unvisited pair would otherwise be planned as an R_max self-loop worth R_max/(1−γ)).
func TestRMaxPlansTerminalStatesAtZero(t *testing.T) {
	p := DefaultRMax()
	p.M = 1
	l := Learner{P: p}
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
