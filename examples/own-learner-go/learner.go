package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
)

// EpsDecayQ is Q-learning whose exploration rate decays with the steps of a task:
// ε_t = ε₀ / (1 + t/τ). A learner of another module: this file is all it takes.
type EpsDecayQ struct {
	p        EpsDecayQParams
	q        []float64 // Q(s, a) at s*A + a
	A        int
	t        int // steps of the current task
	gamma    float64
	rng      *rand.Rand
	terminal []bool
}

// EpsDecayQParams are its parameters: their yaml tags are its config keys.
type EpsDecayQParams struct {
	Alpha    float64 `yaml:"alpha" doc:"learning rate α" range:"(0, 1]"`
	Epsilon0 float64 `yaml:"epsilon0" doc:"exploration rate ε₀ at the task's first step" range:"[0, 1]"`
	Tau      float64 `yaml:"tau" doc:"steps τ over which ε halves" range:"> 0"`
}

// Validate names the first parameter out of range.
func (p *EpsDecayQParams) Validate() error {
	switch {
	case !(p.Alpha > 0 && p.Alpha <= 1):
		return fmt.Errorf("eps-decay-q: alpha = %v, want 0 < alpha <= 1", p.Alpha)
	case !(p.Epsilon0 >= 0 && p.Epsilon0 <= 1):
		return fmt.Errorf("eps-decay-q: epsilon0 = %v, want 0 <= epsilon0 <= 1", p.Epsilon0)
	case !(p.Tau > 0) || math.IsInf(p.Tau, 0):
		return fmt.Errorf("eps-decay-q: tau = %v, want a finite number > 0", p.Tau)
	}
	return nil
}

// New builds a fresh learner for one run.
func (p *EpsDecayQParams) New(agenttypes.Context) (agent.Agent, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &EpsDecayQ{p: *p}, nil
}

// One call registers it: configs name it type: eps-decay-q, and temple tune searches alpha and
// epsilon0 unless a config's search: block says otherwise.
func init() {
	agenttypes.Register(agenttypes.Type{
		Name: "eps-decay-q", Display: "EpsDecayQ", Summary: "Q-learning with ε decaying as ε₀/(1 + t/τ) (examples/own-learner-go)",
		Defaults: func() agenttypes.Params { return &EpsDecayQParams{Alpha: 0.2, Epsilon0: 0.5, Tau: 1000} },
		Search:   []agenttypes.Dim{{Key: "alpha", Low: 0.01, High: 1, Log: true}, {Key: "epsilon0", Low: 0.01, High: 1, Log: true}},
	})
}

// BeginTask forgets everything: a single-task learner.
func (l *EpsDecayQ) BeginTask(t agent.Task) error {
	l.q, l.A, l.t, l.gamma, l.rng = make([]float64, t.S*t.A), t.A, 0, t.Gamma, t.Rand
	l.terminal = make([]bool, t.S)
	for s := range t.S {
		l.terminal[s] = t.IsTerminal(s)
	}
	return nil
}

// Act is ε_t-greedy on Q.
func (l *EpsDecayQ) Act(s int) int {
	l.t++
	if l.rng.Float64() < l.p.Epsilon0/(1+float64(l.t)/l.p.Tau) {
		return l.rng.IntN(l.A)
	}
	return agent.Greedy(l.q[s*l.A:(s+1)*l.A], l.rng)
}

// Observe is Q-learning's update: Q(s,a) += α (r + γ max_a′ Q(s′,a′) − Q(s,a)).
func (l *EpsDecayQ) Observe(s, a int, r float64, next int) {
	target := r
	if !l.terminal[next] {
		target += l.gamma * maxOf(l.q[next*l.A:(next+1)*l.A])
	}
	i := s*l.A + a
	l.q[i] += l.p.Alpha * (target - l.q[i])
}

// ObserveTerminal learns that s is terminal (on simulators, and from Python).
func (l *EpsDecayQ) ObserveTerminal(s int) { l.terminal[s] = true }

func (l *EpsDecayQ) EndEpisode() {}
func (l *EpsDecayQ) EndTask()    {}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}
