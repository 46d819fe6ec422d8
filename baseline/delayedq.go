package baseline

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// DelayedQType is Delayed Q-learning's agent type: the name a config gives it (type: delayed-q) and
// its errors begin with.
const DelayedQType = "delayed-q"

// DelayedQParams are Delayed Q-learning's parameters (simple_rl's DelayedQAgent).
type DelayedQParams struct {
	M        int     `yaml:"m" doc:"m: samples gathered per attempted update" range:">= 1"`                                                          // m: samples gathered per attempted update
	Epsilon1 float64 `yaml:"epsilon1" doc:"ε1: an attempted update must lower Q(s,a) by at least 2ε1; it sets Q to the average plus ε1" range:"> 0"` // ε1: an attempted update must lower Q(s,a) by at least 2ε1; it sets Q to the average + ε1
	RMax     float64 `yaml:"r_max" doc:"R_max, the largest reward: Q starts at R_max/(1−γ)"`                                                         // R_max, the largest reward; the default initial value is R_max/(1−γ)
	// InitialQ is Q(s,a) at the start of every task; nil means R_max/(1−γ) with the task's γ.
	InitialQ *float64 `yaml:"-"`
}

// DefaultDelayedQ are the published defaults (simple_rl's DelayedQAgent): m = 5, ε1 = 0.1,
// R_max = 1, initial Q = R_max/(1−γ).
func DefaultDelayedQ() DelayedQParams { return DelayedQParams{M: 5, Epsilon1: 0.1, RMax: 1} }

// Validate names the first parameter out of range.
func (p DelayedQParams) Validate() error {
	switch {
	case p.M < 1:
		return fmt.Errorf("delayed-q: m = %d, want at least 1", p.M)
	case !(p.Epsilon1 > 0) || math.IsInf(p.Epsilon1, 0):
		return fmt.Errorf("delayed-q: epsilon1 = %v, want a finite number > 0", p.Epsilon1)
	case !finite(p.RMax):
		return fmt.Errorf("delayed-q: r_max = %v, want a finite number", p.RMax)
	case p.InitialQ != nil && !finite(*p.InitialQ):
		return fmt.Errorf("delayed-q: initial_q = %v, want a finite number", *p.InitialQ)
	}
	return nil
}

// DelayedQSearch is what temple tune searches of Delayed-Q, and of MaxQInit on Delayed-Q.
var DelayedQSearch = agenttypes.Dims(agenttypes.LogInt("m", 1, 500), agenttypes.LogReal("epsilon1", 0.001, 1))

// Delayed-Q registers as the single-task agent delayed-q. Its PairBytes are measured on 100×100
// mazes, as RMax's.
func init() {
	agenttypes.Register(agenttypes.Type{Name: DelayedQType, Display: "Delayed-Q", Summary: "Delayed Q-learning (Strehl et al. 2006)",
		Defaults: func() agenttypes.Params { p := DefaultDelayedQ(); return &p }, PairBytes: 48, Search: DelayedQSearch, SingleTask: true, Rank: 80})
}

// New builds the single-task agent delayed-q.
func (p *DelayedQParams) New(agenttypes.Context) (agent.Agent, error) { return NewDelayedQ(*p) }

// DelayedQ is Delayed Q-learning (Strehl, Li, Wiewiora, Langford & Littman, "PAC model-free
// reinforcement learning", ICML 2006) as simple_rl's DelayedQAgent implements it. Each pair keeps an
// accumulator AU, a sample counter l, the start time b of its current attempt and a LEARN flag;
// t* is the time of the last successful update. On the transition (s,a,r,s′) at time t:
//
//	if b(s,a) ≤ t*: LEARN(s,a) ← on
//	if LEARN(s,a):
//	    if l(s,a) = 0: b(s,a) ← t
//	    l(s,a) ← l(s,a)+1;  AU(s,a) ← AU(s,a) + r + γ·max_a′ Q(s′,a′)   (just r if s′ is terminal)
//	    if l(s,a) = m:
//	        if Q(s,a) − AU(s,a)/m ≥ 2ε1: Q(s,a) ← AU(s,a)/m + ε1;  t* ← t
//	        else if b(s,a) > t*: LEARN(s,a) ← off
//	        AU(s,a) ← 0;  l(s,a) ← 0
//
// (In the paper's pseudo-code a pair whose LEARN flag is off is switched back on only when
// b(s,a) < t*, and the sample of that step is not used; simple_rl, which we follow, switches it
// on when b(s,a) ≤ t* and uses the sample at once.) Actions are always greedy, ties broken at
// random; there is no ε-exploration — exploration comes from the optimistic initial values.
//
// DelayedQ is a single-task learner: BeginTask resets everything — Q, AU, l, b, LEARN, t* and
// the step counter. (The published agent restores only Q and the step counter and carries AU, l,
// b, LEARN and t* over to the next task, where b and t* refer to the previous task's clock; that is
// a bug and is not reproduced.)
type DelayedQ struct {
	p     DelayedQParams
	A     int
	gamma float64
	rng   *rand.Rand

	q        []float64
	terminal []bool // terminal states bootstrap nothing: their value is 0
	au       []float64
	l        []int
	b        []int64
	learn    []bool
	tStar    int64
	t        int64 // transitions observed in this task; the first is at time 1

	initial []float64 // when set, the table a task starts from (MaxQInit)

	successes, failures int64
}

// NewDelayedQ validates p and returns the agent.
func NewDelayedQ(p DelayedQParams) (*DelayedQ, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &DelayedQ{p: p}, nil
}

// ObserveTerminal marks s terminal: nothing is bootstrapped past it from now on
// (agent.TerminalObserver).
func (d *DelayedQ) ObserveTerminal(s int) {
	if d.terminal == nil || !d.terminal[s] {
		d.terminal = agent.WithTerminal(d.terminal, len(d.q)/d.A, s)
	}
}

// BeginTask resets every table and counter; Q starts at the initial value (or at the table given
// to SetInitial).
func (d *DelayedQ) BeginTask(t agent.Task) error {
	if t.S < 1 || t.A < 1 {
		return fmt.Errorf("delayed-q: task %d has S=%d A=%d, want at least one state and one action", t.Index, t.S, t.A)
	}
	if !(t.Gamma >= 0 && t.Gamma < 1) {
		return fmt.Errorf("delayed-q: task %d: discount gamma = %v, want 0 <= gamma < 1", t.Index, t.Gamma)
	}
	if t.Rand == nil {
		return fmt.Errorf("delayed-q: task %d has no random stream", t.Index)
	}
	n := t.S * t.A
	if d.initial != nil && len(d.initial) != n {
		return fmt.Errorf("delayed-q: initial table has %d entries, task %d has %d pairs", len(d.initial), t.Index, n)
	}
	d.A, d.gamma, d.rng, d.terminal = t.A, t.Gamma, t.Rand, t.Terminal
	d.q = buf.Zeroed(d.q, n)
	switch {
	case d.initial != nil:
		copy(d.q, d.initial)
	default:
		q0 := d.p.RMax / (1 - t.Gamma)
		if d.p.InitialQ != nil {
			q0 = *d.p.InitialQ
		}
		for i := range d.q {
			d.q[i] = q0
		}
	}
	d.au = buf.Zeroed(d.au, n)
	d.l = buf.Zeroed(d.l, n)
	d.b = buf.Zeroed(d.b, n)
	d.learn = buf.Zeroed(d.learn, n)
	for i := range d.learn {
		d.learn[i] = true
	}
	d.tStar, d.t = 0, 0
	d.successes, d.failures = 0, 0
	return nil
}

// Act is greedy on Q, ties broken uniformly at random.
func (d *DelayedQ) Act(s int) int { return agent.Greedy(d.q[s*d.A:s*d.A+d.A], d.rng) }

// Observe applies the update rule above to the transition (s, a, r, next).
func (d *DelayedQ) Observe(s, a int, r float64, next int) {
	d.t++
	i := s*d.A + a
	if d.b[i] <= d.tStar {
		d.learn[i] = true
	}
	if !d.learn[i] {
		return
	}
	if d.l[i] == 0 {
		d.b[i] = d.t
	}
	d.l[i]++
	target := r
	if d.terminal == nil || !d.terminal[next] {
		target += d.gamma * mdp.Max(d.q[next*d.A:next*d.A+d.A])
	}
	d.au[i] += target
	if d.l[i] < d.p.M {
		return
	}
	m := float64(d.p.M)
	if d.q[i]-d.au[i]/m >= 2*d.p.Epsilon1 {
		d.q[i] = d.au[i]/m + d.p.Epsilon1
		d.tStar = d.t
		d.successes++
	} else {
		d.failures++
		if d.b[i] > d.tStar {
			d.learn[i] = false
		}
	}
	d.au[i], d.l[i] = 0, 0
}

func (d *DelayedQ) EndEpisode() {}
func (d *DelayedQ) EndTask()    {}

// Q is the current action-value table, indexed s*A+a; it is owned by the agent.
func (d *DelayedQ) Q() []float64 { return d.q }

// SetInitial makes later tasks start from a copy of q instead of the initial value (nil restores
// it). The agent keeps q and copies it at every BeginTask.
func (d *DelayedQ) SetInitial(q []float64) { d.initial = q }

// TaskMetrics reports the successful and the failed attempted updates of the task.
func (d *DelayedQ) TaskMetrics() []agent.Metric {
	return []agent.Metric{
		{Name: "updates", Value: float64(d.successes)},
		{Name: "failed_updates", Value: float64(d.failures)},
	}
}
