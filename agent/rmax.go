package agent

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/internal/lazy"
	"github.com/temple-rl/temple/mdp"
)

// ActionRule is how RMax chooses actions (decision 1).
type ActionRule string

const (
	// Optimistic acts greedily on the optimistic model in every state (textbook RMax), ties broken
	// at random.
	Optimistic ActionRule = "optimistic"
	// BalancedWandering acts greedily (ties to the lowest action) only in states whose actions are
	// all known, and otherwise takes the least-tried action, as the published code does.
	BalancedWandering ActionRule = "balanced-wandering"
)

// Planning is how RMax brings its plan up to date when its optimistic model changes.
type Planning string

const (
	// PlanFull rebuilds the whole optimistic model and runs warm-started value iteration sweeps
	// over every state until the plan is within tolerance (the paper presets pin it: their
	// results were recorded with it).
	PlanFull Planning = "full"
	// PlanIncremental updates only from the pairs that changed, by prioritized sweeping, to the
	// same tolerance; its cost grows with the states whose values move, not with S (the default
	// before PlanDelta; large-maze and scaling pin it). Its plans differ from full ones in
	// rounding, so greedy ties may break differently.
	PlanIncremental Planning = "incremental"
	// PlanDelta is incremental planning that moves each backup reading a changed value by the
	// change instead of summing the pair's successors again (agent/sweep.go): the same order and
	// tolerance at a fraction of the cost of an update (the default). Its plans differ from both
	// others in rounding.
	PlanDelta Planning = "delta"
)

// Plannings names the planning settings, for messages.
const Plannings = `"full", "incremental" or "delta"`

// Valid reports whether p is one of the planning settings.
func (p Planning) Valid() bool { return p == PlanFull || p == PlanIncremental || p == PlanDelta }

// RMaxParams are RMax's parameters.
type RMaxParams struct {
	M    int64      `yaml:"m"`           // known threshold m: a pair is known after m samples
	RMax float64    `yaml:"r_max"`       // R_max, the reward an unknown pair is planned to pay forever
	Rule ActionRule `yaml:"action_rule"` // action rule
	// PlanTolerance bounds ‖V − V*‖∞ of each plan on the optimistic model.
	PlanTolerance float64 `yaml:"plan_tolerance"`
	// Planning is full or incremental re-planning.
	Planning Planning `yaml:"planning"`
}

// DefaultRMax are the paper's settings — m = 500, R_max = 1, balanced wandering — with delta
// planning, which is as accurate as full planning and much faster on large tasks and on tasks
// where many pairs become known one by one (the paper presets pin PlanFull).
func DefaultRMax() RMaxParams {
	return RMaxParams{M: 500, RMax: 1, Rule: BalancedWandering, PlanTolerance: 1e-4, Planning: PlanDelta}
}

// Validate names the first parameter out of range.
func (p RMaxParams) Validate() error {
	switch {
	case p.M < 1:
		return fmt.Errorf("rmax: known threshold m = %d, want at least 1", p.M)
	case math.IsNaN(p.RMax) || math.IsInf(p.RMax, 0):
		return fmt.Errorf("rmax: r_max = %v, want a finite number", p.RMax)
	case p.Rule != Optimistic && p.Rule != BalancedWandering:
		return fmt.Errorf("rmax: action rule %q, want %q or %q", p.Rule, Optimistic, BalancedWandering)
	case !(p.PlanTolerance > 0) || math.IsInf(p.PlanTolerance, 0):
		return fmt.Errorf("rmax: plan tolerance = %v, want a finite number > 0", p.PlanTolerance)
	case !p.Planning.Valid():
		return fmt.Errorf("rmax: planning %q, want %s", p.Planning, Plannings)
	}
	return nil
}

// maxPlanSweeps bounds one plan; with γ < 1 value iteration converges long before.
const maxPlanSweeps = 1_000_000

// Learner is RMax on one task with a known threshold per pair (the base learner of TempLe,
// the published code's PtTabularRMaxAgent). A pair is known while n(s,a) ≥ its threshold; only unknown pairs take samples.
// The optimistic model — known pairs at their estimates, unknown pairs a self-loop paying R_max,
// terminal states at value 0 — is re-planned lazily: only when the known set or a known pair's
// counts changed and an action needs the plan, in full or incrementally (Planning).
type Learner struct {
	P        RMaxParams
	S, A     int
	gamma    float64
	rng      *rand.Rand
	terminal []bool // terminal states: planned at value 0, never visited to act

	counts       mdp.Counts
	threshold    lazy.Table[int64] // m, or O-TempLe's m_s where it set one
	known        []bool
	knownActions []int // per state, how many of its actions are known
	knownPairs   int
	unknownValue []float64

	dirty       bool
	q, v        []float64
	model       mdp.Sparse // the optimistic model of a full plan
	incremental bool       // P.Planning is PlanIncremental or PlanDelta
	sweep       sweeper    // incremental planning
	plans       int

	samples    int64 // own samples recorded in this task
	allKnownAt int64 // samples recorded when every pair was first known, −1 before

	version      uint64      // changes with every change of the statistics, thresholds or plan values
	modelVersion uint64      // changes with every change of the optimistic model
	scratch      scratchPlan // Policy's plan of a changed model, leaving the learner's own untouched
}

// scratchPlan is a plan made for Policy only.
type scratchPlan struct {
	model   mdp.Sparse
	q, v    []float64
	version uint64 // the model version it was made at; 0: none
}

// NewLearner validates p and returns RMax as a base learner (agent.Base), for O-TempLe and
// FM-TempLe.
func NewLearner(p RMaxParams) (*Learner, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Learner{P: p}, nil
}

// KnownThreshold is m: a pair is known after m samples (SetThreshold changes it per pair).
func (l *Learner) KnownThreshold() int64 { return l.P.M }

// Begin starts a task: counts cleared, every threshold m, nothing known.
func (l *Learner) Begin(t Task) {
	l.S, l.A, l.gamma, l.rng, l.terminal = t.S, t.A, t.Gamma, t.Rand, t.Terminal
	l.counts.Reset(t.S, t.A)
	n := t.S * t.A
	l.threshold.Reset(n, l.P.M)
	l.known = buf.Zeroed(l.known, n)
	l.knownActions = buf.Zeroed(l.knownActions, t.S)
	l.knownPairs = 0
	l.q = buf.Zeroed(l.q, n)
	l.v = buf.Zeroed(l.v, t.S)
	l.unknownValue = nil
	l.dirty, l.plans = true, 0
	l.samples, l.allKnownAt = 0, -1
	l.version++
	l.modelVersion++
	l.incremental = l.P.Planning != PlanFull
	if l.incremental {
		l.beginIncremental()
		l.dirty = false
	}
}

// Known reports whether pair i is known.
func (l *Learner) Known(i int) bool { return l.known[i] }

// N is n(s,a) of pair i, own samples plus any augmentation.
func (l *Learner) N(i int) int64 { return l.counts.N(i) }

// Counts are the learner's statistics; callers must change them only through the learner.
func (l *Learner) Counts() *mdp.Counts { return &l.counts }

// Threshold is the known threshold of pair i.
func (l *Learner) Threshold(i int) int64 { return l.threshold.At(i) }

// KnownPairs counts the known pairs.
func (l *Learner) KnownPairs() int { return l.knownPairs }

// Samples is the number of own samples recorded in this task (samples of unknown pairs).
func (l *Learner) Samples() int64 { return l.samples }

// SamplesUntilAllKnown is the number of own samples recorded before every pair was known for
// the first time in this task, or −1 if that has not happened.
func (l *Learner) SamplesUntilAllKnown() int64 { return l.allKnownAt }

// Plans is how many times the learner planned in this task.
func (l *Learner) Plans() int { return l.plans }

// ObserveTerminal marks s terminal: its pairs are planned at value 0 from now on
// (TerminalObserver).
func (l *Learner) ObserveTerminal(s int) {
	if l.terminal != nil && l.terminal[s] {
		return
	}
	l.terminal = WithTerminal(l.terminal, l.S, s)
	l.version++
	for i := s * l.A; i < s*l.A+l.A; i++ {
		l.changed(i)
	}
}

// EndEpisode does nothing: RMax plans when its model changes, not per episode.
func (l *Learner) EndEpisode() {}

var _ Base = (*Learner)(nil)

// Record adds one sample of pair i if it is unknown and reports whether it did.
func (l *Learner) Record(i, next int, r float64) bool {
	if l.known[i] {
		return false
	}
	l.counts.Add(i, next, 1, r)
	l.samples++
	l.version++
	l.refresh(i)
	return true
}

// Augment adds counts that did not come from this pair's own samples (a template's visits through
// σ⁻¹, or a model's counts) and their reward sum.
func (l *Learner) Augment(i int, add []mdp.Succ, reward float64) {
	l.retireDelta(i)
	for _, x := range add {
		l.counts.Add(i, int(x.State), x.N, 0)
	}
	l.counts.AddReward(i, reward)
	l.version++
	if l.known[i] {
		l.changed(i) // a known pair's estimate changed
	}
	l.refresh(i)
}

// Replace sets pair i's statistics to the given counts and reward sum, dropping everything it
// held: O-TempLe withdraws a provisional augmentation this way, leaving the pair's own samples.
func (l *Learner) Replace(i int, succ []mdp.Succ, reward float64) {
	l.retireDelta(i)
	l.counts.ClearPair(i)
	if l.P.Planning == PlanIncremental {
		// The new successor list need not extend the old one: enter all of it in the predecessor
		// lists again (an entry already there is only backed up twice).
		l.sweep.linked.Set(i, 0)
	}
	for _, x := range succ {
		l.counts.Add(i, int(x.State), x.N, 0)
	}
	l.counts.AddReward(i, reward)
	l.version++
	if l.known[i] {
		l.changed(i)
	}
	l.refresh(i)
}

// retireDelta takes a pair whose estimate is about to change out of delta planning's inflow
// lists, which hold its weights by its present successors; the plan enters its new ones.
func (l *Learner) retireDelta(i int) {
	if l.sweep.delta {
		l.retire(i)
	}
}

// SetThreshold sets pair i's known threshold; the pair becomes unknown if it has fewer samples.
func (l *Learner) SetThreshold(i int, m int64) {
	l.threshold.Set(i, m)
	l.version++
	l.refresh(i)
}

// SetUnknownValues plans every unknown pair at value[i] (a terminal payment) instead of the R_max
// self-loop; MaxQInit's RMax variant uses it. nil restores R_max.
func (l *Learner) SetUnknownValues(value []float64) {
	l.unknownValue = value
	l.version++
	l.modelVersion++
	l.dirty = true
	if l.incremental {
		for i := 0; i < l.S*l.A; i++ {
			l.changed(i)
		}
	}
}

// changed marks pair i's backup as changed: the plan is out of date.
func (l *Learner) changed(i int) {
	l.modelVersion++
	l.dirty = true
	if l.incremental {
		l.sweep.changed = append(l.sweep.changed, int32(i))
	}
}

func (l *Learner) refresh(i int) {
	k := l.counts.N(i) >= l.threshold.At(i)
	if k == l.known[i] {
		return
	}
	l.known[i] = k
	if k {
		l.knownActions[i/l.A]++
		l.knownPairs++
		if l.allKnownAt < 0 && l.knownPairs == l.S*l.A {
			l.allKnownAt = l.samples
		}
	} else {
		l.knownActions[i/l.A]--
		l.knownPairs--
	}
	l.changed(i)
}

// Act chooses an action in state s by the action rule.
func (l *Learner) Act(s int) int {
	if l.P.Rule == BalancedWandering && l.knownActions[s] < l.A {
		// Least-tried action; a random incumbent is replaced only by a strictly smaller count,
		// so a random minimiser is kept and otherwise the lowest-index minimiser wins.
		best := l.rng.IntN(l.A)
		for a := 0; a < l.A; a++ {
			if l.counts.N(s*l.A+a) < l.counts.N(s*l.A+best) {
				best = a
			}
		}
		return best
	}
	q := l.Q()[s*l.A : s*l.A+l.A]
	if l.P.Rule == BalancedWandering {
		return mdp.ArgMax(q)
	}
	return Greedy(q, l.rng)
}

// Q returns the action values of the current optimistic model, planning first if it changed.
func (l *Learner) Q() []float64 {
	if l.dirty {
		l.plan()
	}
	return l.q
}

func (l *Learner) plan() {
	if l.incremental {
		l.planIncremental()
	} else {
		l.planFull()
	}
	l.dirty = false
	l.plans++
}

// planFull rebuilds the optimistic model and runs value iteration on it, warm-started from q.
func (l *Learner) planFull() {
	l.buildOptimistic(&l.model)
	l.model.Iterate(l.q, l.v, l.gamma, mdp.StopFor(l.gamma, l.P.PlanTolerance), maxPlanSweeps)
}

// buildOptimistic writes the optimistic model into m: known pairs at their estimates, unknown
// pairs at R_max forever (or their given values), terminal states at 0.
func (l *Learner) buildOptimistic(m *mdp.Sparse) {
	m.Reset(l.S, l.A)
	for i := 0; i < l.S*l.A; i++ {
		switch {
		case l.terminal != nil && l.terminal[i/l.A]:
			m.AppendPair(0) // no successor: an episode ends here, Q = 0
		case l.known[i]:
			n := float64(l.counts.N(i))
			m.AppendPair(l.counts.R(i) / n)
			for _, x := range l.counts.Successors(i) {
				m.AppendSuccessor(int(x.State), float64(x.N)/n)
			}
		case l.unknownValue != nil:
			m.AppendPair(l.unknownValue[i])
		default:
			m.AppendPair(l.P.RMax)
			m.AppendSuccessor(i/l.A, 1)
		}
		m.EndPair()
	}
}

// PolicyVersion changes whenever the learner's policy may have changed (PolicyInfo).
func (l *Learner) PolicyVersion() uint64 { return l.version }

// Policy writes into dst the distribution of the action Act would take in s now (PolicyInfo):
// with balanced wandering in a state with an unknown action, the least-tried action (a random
// one kept if it is a least-tried, the lowest-index least-tried otherwise); elsewhere greedy on
// the plan of the current optimistic model (balanced wandering: the lowest-index maximiser;
// optimistic: a uniform maximiser). When the plan is out of date, the plan Act would make is made
// on the side, warm-started as Act would, and the learner itself is left unchanged.
func (l *Learner) Policy(s int, dst []float64) {
	clear(dst)
	if l.P.Rule == BalancedWandering && l.knownActions[s] < l.A {
		low := 0
		for a := 1; a < l.A; a++ {
			if l.counts.N(s*l.A+a) < l.counts.N(s*l.A+low) {
				low = a
			}
		}
		for a := 0; a < l.A; a++ {
			if l.counts.N(s*l.A+a) == l.counts.N(s*l.A+low) {
				dst[a] += 1 / float64(l.A) // the random incumbent, kept
			} else {
				dst[low] += 1 / float64(l.A) // replaced by the lowest-index least-tried
			}
		}
		return
	}
	q := l.q
	if l.dirty {
		q = l.scratchQ()
	}
	q = q[s*l.A : s*l.A+l.A]
	if l.P.Rule == BalancedWandering {
		dst[mdp.ArgMax(q)] = 1
		return
	}
	best, ties := mdp.Max(q), 0.0
	for _, x := range q {
		if x == best {
			ties++
		}
	}
	for a, x := range q {
		if x == best {
			dst[a] = 1 / ties
		}
	}
}

// scratchQ is the Q of the plan Act would make now, computed once per optimistic model.
func (l *Learner) scratchQ() []float64 {
	sp := &l.scratch
	if sp.version != l.modelVersion {
		sp.q = append(sp.q[:0], l.q...)
		sp.v = append(sp.v[:0], l.v...)
		l.buildOptimistic(&sp.model)
		sp.model.Iterate(sp.q, sp.v, l.gamma, mdp.StopFor(l.gamma, l.P.PlanTolerance), maxPlanSweeps)
		sp.version = l.modelVersion
	}
	return sp.q
}

// RMax is the single-task RMax agent (Brafman & Tennenholtz 2002): it forgets between tasks.
type RMax struct{ l Learner }

// NewRMax validates p and returns the agent.
func NewRMax(p RMaxParams) (*RMax, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &RMax{l: Learner{P: p}}, nil
}

func (a *RMax) BeginTask(t Task) error { a.l.Begin(t); return nil }
func (a *RMax) Act(s int) int          { return a.l.Act(s) }
func (a *RMax) Observe(s, act int, r float64, next int) {
	a.l.Record(s*a.l.A+act, next, r)
}
func (a *RMax) EndEpisode()           {}
func (a *RMax) ObserveTerminal(s int) { a.l.ObserveTerminal(s) }
func (a *RMax) EndTask()              {}

// TaskMetrics reports the known pairs at the end of the task and the number of plans.
func (a *RMax) TaskMetrics() []Metric { return BaseMetrics(&a.l) }

// Phase is Exploring while some action of s is unknown, KnownModel otherwise (a single-task
// learner has no templates to misidentify).
func (l *Learner) Phase(s int) Phase {
	if l.knownActions[s] < l.A {
		return Exploring
	}
	return KnownModel
}

// Phase reports the learner's phase in s (StepInfo).
func (a *RMax) Phase(s int) Phase { return a.l.Phase(s) }

// PolicyVersion and Policy are the learner's (PolicyInfo).
func (a *RMax) PolicyVersion() uint64       { return a.l.PolicyVersion() }
func (a *RMax) Policy(s int, dst []float64) { a.l.Policy(s, dst) }
