package learners

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// QLearningType is Q-learning's agent type: the name a config gives it (type: q-learning) and its
// errors begin with.
const QLearningType = "q-learning"

// QLearningParams are Q-learning's parameters (decision 17).
type QLearningParams struct {
	Alpha    float64 `yaml:"alpha" doc:"learning rate α" range:"0 < alpha <= 1"`                     // learning rate α
	Epsilon  float64 `yaml:"epsilon" doc:"exploration rate ε of ε-greedy" range:"0 <= epsilon <= 1"` // exploration rate ε of ε-greedy
	InitialQ float64 `yaml:"initial_q" doc:"Q(s,a) at the start of every task"`                      // Q(s,a) at the start of every task
}

// DefaultQLearning are the published settings: α 0.1, ε 0.1, Q initialised to 0.
func DefaultQLearning() QLearningParams { return QLearningParams{Alpha: 0.1, Epsilon: 0.1} }

// Validate names the first parameter out of range.
func (p QLearningParams) Validate() error {
	switch {
	case !(p.Alpha > 0 && p.Alpha <= 1):
		return fmt.Errorf("q-learning: alpha = %v, want 0 < alpha <= 1", p.Alpha)
	case !(p.Epsilon >= 0 && p.Epsilon <= 1):
		return fmt.Errorf("q-learning: epsilon = %v, want 0 <= epsilon <= 1", p.Epsilon)
	case math.IsNaN(p.InitialQ) || math.IsInf(p.InitialQ, 0):
		return fmt.Errorf("q-learning: initial_q = %v, want a finite number", p.InitialQ)
	}
	return nil
}

// QLearningSearch is what temple tune searches of Q-learning, and of the learners that have its
// keys (Abs-RL, MaxQInit on Q-learning).
var QLearningSearch = agenttypes.Dims(agenttypes.LogReal("alpha", 0.01, 1), agenttypes.LogReal("epsilon", 0.001, 0.5))

// Q-learning registers as the single-task agent q-learning (model-free: not a base learner).
func init() {
	agenttypes.Register(agenttypes.Type{Name: QLearningType, Display: "Q-learning", Summary: "tabular Q-learning with ε-greedy exploration (Watkins 1992)",
		Defaults: func() agenttypes.Params { p := DefaultQLearning(); return &p }, PairBytes: 16, Search: QLearningSearch, SingleTask: true, Rank: 70})
}

// New builds the single-task agent q-learning.
func (p *QLearningParams) New(agenttypes.Context) (agent.Agent, error) { return NewQLearning(*p) }

// QLearning is tabular Q-learning (Watkins 1992) with ε-greedy exploration; it forgets between
// tasks. Q(s,a) ← (1−α)Q(s,a) + α(r + γ max_a′ Q(s′,a′)), with nothing bootstrapped past a
// terminal state s′.
type QLearning struct {
	p     QLearningParams
	A     int
	gamma float64
	rng   *rand.Rand
	q     []float64
	// terminal states bootstrap nothing: Q(s,a) ← (1−α)Q(s,a) + α·r on reaching one.
	terminal []bool
	// initial, when set, replaces InitialQ as the table a task starts from (MaxQInit).
	initial []float64
	version uint64 // changes with every update of Q (agent.PolicyInfo)
}

// NewQLearning validates p and returns the agent.
func NewQLearning(p QLearningParams) (*QLearning, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &QLearning{p: p}, nil
}

// ObserveTerminal marks s terminal: nothing is bootstrapped past it from now on
// (agent.TerminalObserver).
func (a *QLearning) ObserveTerminal(s int) {
	if a.terminal == nil || !a.terminal[s] {
		a.terminal = agent.WithTerminal(a.terminal, len(a.q)/a.A, s)
	}
}

func (a *QLearning) BeginTask(t agent.Task) error {
	a.A, a.gamma, a.rng, a.terminal = t.A, t.Gamma, t.Rand, t.Terminal
	a.version++
	a.q = buf.Zeroed(a.q, t.S*t.A)
	if a.initial != nil {
		if len(a.initial) != len(a.q) {
			return fmt.Errorf("q-learning: initial table has %d entries, task has %d pairs", len(a.initial), len(a.q))
		}
		copy(a.q, a.initial)
	} else {
		for i := range a.q {
			a.q[i] = a.p.InitialQ
		}
	}
	return nil
}

// Act is ε-greedy: with probability ε a uniformly random action, otherwise a greedy one with
// ties broken at random.
func (a *QLearning) Act(s int) int {
	if a.rng.Float64() < a.p.Epsilon {
		return a.rng.IntN(a.A)
	}
	return agent.Greedy(a.q[s*a.A:s*a.A+a.A], a.rng)
}

func (a *QLearning) Observe(s, act int, r float64, next int) {
	i := s*a.A + act
	target := r
	if a.terminal == nil || !a.terminal[next] {
		target += a.gamma * mdp.Max(a.q[next*a.A:next*a.A+a.A])
	}
	a.q[i] += a.p.Alpha * (target - a.q[i])
	a.version++
}

// PolicyVersion changes whenever the ε-greedy policy may have changed (agent.PolicyInfo): at every
// update of Q, although most leave the greedy actions as they were (the oracle compares the
// policies before evaluating; checking here would cost Q-learning a fifth of its speed).
func (a *QLearning) PolicyVersion() uint64 { return a.version }

// Policy writes into dst the ε-greedy distribution of Act in s: ε/A for every action, and 1 − ε
// shared by the maximisers of Q(s,·) (agent.PolicyInfo).
func (a *QLearning) Policy(s int, dst []float64) {
	q := a.q[s*a.A : s*a.A+a.A]
	best, ties := mdp.Max(q), 0.0
	for _, x := range q {
		if x == best {
			ties++
		}
	}
	for b, x := range q {
		dst[b] = a.p.Epsilon / float64(a.A)
		if x == best {
			dst[b] += (1 - a.p.Epsilon) / ties
		}
	}
}

func (a *QLearning) EndEpisode() {}
func (a *QLearning) EndTask()    {}

// Q is the current action-value table, indexed s*A+a.
func (a *QLearning) Q() []float64 { return a.q }

// SetInitial makes later tasks start from a copy of q instead of InitialQ (nil restores it).
func (a *QLearning) SetInitial(q []float64) { a.initial = q }
