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
	// change instead of summing the pair's successors again (prioritized_sweeping.go): the same order and
	// tolerance at a fraction of the cost of an update (the default). Its plans differ from both
	// others in rounding.
	PlanDelta Planning = "delta"
)

// Plannings names the planning settings, for messages.
const Plannings = `"full", "incremental" or "delta"`

// Valid reports whether p is one of the planning settings.
func (p Planning) Valid() bool { return p == PlanFull || p == PlanIncremental || p == PlanDelta }

// RMaxType is RMax's agent type: the name a config gives it (type: rmax) and its errors begin with.
const RMaxType = "rmax"

// RMaxParams are RMax's parameters.
type RMaxParams struct {
	M    int64      `yaml:"m" doc:"known threshold m: a pair is known after m samples" range:">= 1"`                                                                                                                              // known threshold m: a pair is known after m samples
	RMax float64    `yaml:"r_max" doc:"R_max, the reward an unknown pair is planned to pay forever"`                                                                                                                              // R_max, the reward an unknown pair is planned to pay forever
	Rule ActionRule `yaml:"action_rule" doc:"how RMax acts: the least-tried action in a state with an unknown action (the published code), or greedy on the optimistic model everywhere" range:"balanced-wandering | optimistic"` // action rule
	// PlanTolerance bounds ‖V − V*‖∞ of each plan on the optimistic model.
	PlanTolerance float64 `yaml:"plan_tolerance" doc:"bound on ‖V − V*‖∞ of each plan on the optimistic model" range:"> 0"`
	// Planning is full or incremental re-planning.
	Planning Planning `yaml:"planning" doc:"how a plan is brought up to date: prioritized sweeping moving backups by changes (delta) or recomputing them (incremental), or value iteration over every state (full, the paper presets')" range:"delta | incremental | full"`
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

// RMaxSearch is what temple tune searches of RMax, and of the learners that have its keys (LRMax,
// FMRL, MaxQInit on RMax): its known threshold m.
var RMaxSearch = agenttypes.Dims(agenttypes.LogInt("m", 1, 500))

// RMax registers as the paper's base learner, and as the single-task agent rmax. Its PairBytes
// are measured on 100×100 mazes (heap after two tasks), rounded up to cover pairs whose every
// outcome has been seen.
func init() {
	agenttypes.Register(agenttypes.Type{Name: RMaxType, Display: "RMax", Summary: "RMax (Brafman & Tennenholtz 2002), the paper's base learner",
		Defaults: func() agenttypes.Params { p := DefaultRMax(); return &p }, PairBytes: 160, Search: RMaxSearch,
		Scales: agenttypes.Dims(agenttypes.Choice("action_rule", "balanced-wandering", "optimistic")), SingleTask: true, Base: true, Rank: 10})
}

// NewBase builds RMax as a base learner, and New as the single-task agent rmax.
func (p *RMaxParams) NewBase() (agent.Base, error) { return NewRMax(*p) }
func (p *RMaxParams) New(agenttypes.Context) (agent.Agent, error) {
	return agenttypes.Single(p.NewBase())
}

// LargeMemory is RMax's memory on a large task, planning incrementally (full plans build a model
// of every pair, and keep flat figures): per state its known-action count, value, predecessor or
// inflow list, residual bucket and terminal flag; per pair its Q and known flag; in blocks its
// counts (n, R, successor list); and a few successors of 16 bytes per written pair. Incremental
// planning adds a stamp per state and a predecessor link per pair in blocks; delta planning a
// flag per pair in blocks and an inflow entry of 16 bytes per successor of a written pair.
func (p *RMaxParams) LargeMemory() (agenttypes.LargeBytes, bool) {
	l := agenttypes.LargeBytes{StateBytes: 8 + 8 + 24 + 1 + 1, PairBytes: 8 + 1, BlockBytes: 8 + 8 + 24, WrittenBytes: 4 * 16}
	switch p.Planning {
	case PlanIncremental:
		l.StateBytes += 4
		l.BlockBytes += 4
	case PlanDelta:
		l.BlockBytes++
		l.WrittenBytes += 4 * 16
	default:
		return agenttypes.LargeBytes{}, false
	}
	return l, true
}

// maxPlanSweeps bounds one plan; with γ < 1 value iteration converges long before.
const maxPlanSweeps = 1_000_000

// RMax is RMax (Brafman & Tennenholtz 2002) on one task, the base learner of TempLe (the
// published code's PtTabularRMaxAgent); agent.NewSingle makes it the single-task agent, which forgets
// between tasks. A pair is known while n(s,a) ≥ m; only unknown pairs take samples.
// The optimistic model — known pairs at their estimates, unknown pairs a self-loop paying R_max,
// terminal states at value 0 — is re-planned lazily: only when the known set or a known pair's
// counts changed and an action needs the plan, in full or incrementally (Planning).
type RMax struct {
	P        RMaxParams
	S, A     int
	gamma    float64
	rng      *rand.Rand
	terminal []bool // terminal states: planned at value 0, never visited to act

	stats        agent.Stats
	unknownValue []float64

	dirty       bool
	q, v        []float64
	model       mdp.Sparse // the optimistic model of a full plan
	incremental bool       // P.Planning is PlanIncremental or PlanDelta
	sweep       sweeper    // incremental planning

	version      uint64      // changes with every change of the statistics or plan values
	modelVersion uint64      // changes with every change of the optimistic model
	scratch      scratchPlan // Policy's plan of a changed model, leaving the learner's own untouched
}

// scratchPlan is a plan made for Policy only.
type scratchPlan struct {
	model   mdp.Sparse
	q, v    []float64
	version uint64 // the model version it was made at; 0: none
}

// plan returns the Q of the plan of the model that build writes at the given model version,
// warm-started from the learner's q and v as its own next plan would be and solved to tolerance
// by value iteration; it is made once per version.
func (sp *scratchPlan) plan(version uint64, q, v []float64, gamma, tolerance float64, build func(*mdp.Sparse)) []float64 {
	if sp.version != version {
		sp.q = append(sp.q[:0], q...)
		sp.v = append(sp.v[:0], v...)
		build(&sp.model)
		sp.model.Iterate(sp.q, sp.v, gamma, mdp.StopFor(gamma, tolerance), maxPlanSweeps)
		sp.version = version
	}
	return sp.q
}

// NewRMax validates p and returns RMax as a base learner (agent.Base).
func NewRMax(p RMaxParams) (*RMax, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &RMax{P: p}, nil
}

var _ agent.Base = (*RMax)(nil)

// KnownThreshold is m: a pair is known after m samples.
func (l *RMax) KnownThreshold() int64 { return l.P.KnownThreshold() }

// KnownThreshold is m: a pair is known after m samples.
func (p RMaxParams) KnownThreshold() int64 { return p.M }

// Stats are the learner's statistics of the task.
func (l *RMax) Stats() *agent.Stats { return &l.stats }

// Begin starts a task: counts cleared, nothing known.
func (l *RMax) Begin(t agent.Task) {
	l.S, l.A, l.gamma, l.rng, l.terminal = t.S, t.A, t.Gamma, t.Rand, t.Terminal
	l.stats.Reset(t.S, t.A, l.P.M)
	n := t.S * t.A
	l.q = buf.Zeroed(l.q, n)
	l.v = buf.Zeroed(l.v, t.S)
	l.unknownValue = nil
	l.dirty = true
	l.version++
	l.modelVersion++
	l.incremental = l.P.Planning != PlanFull
	if l.incremental {
		l.beginIncremental()
		l.dirty = false
	}
}

// ObserveTerminal marks s terminal: its pairs are planned at value 0 from now on
// (agent.TerminalObserver).
func (l *RMax) ObserveTerminal(s int) {
	if l.terminal != nil && l.terminal[s] {
		return
	}
	l.terminal = agent.WithTerminal(l.terminal, l.S, s)
	l.version++
	for i := s * l.A; i < s*l.A+l.A; i++ {
		l.changed(i)
	}
}

// EndEpisode does nothing: RMax plans when its model changes, not per episode.
func (l *RMax) EndEpisode() {}

// Record adds one sample of pair i if it is unknown and reports whether it did.
func (l *RMax) Record(i, next int, r float64) bool {
	if l.stats.Known(i) {
		return false
	}
	l.version++
	if l.stats.Record(i, next, r) {
		l.changed(i)
	}
	return true
}

// Augment adds counts that did not come from this pair's own samples (a template's visits through
// σ⁻¹, or a model's counts) and their reward sum.
func (l *RMax) Augment(i int, add []mdp.Succ, reward float64) {
	l.retireDelta(i)
	was := l.stats.Known(i)
	flipped := l.stats.Augment(i, add, reward)
	l.version++
	if was {
		l.changed(i) // a known pair's estimate changed
	}
	if flipped {
		l.changed(i)
	}
}

// Replace sets pair i's statistics to the given counts and reward sum, dropping everything it
// held: O-TempLe withdraws a provisional augmentation this way, leaving the pair's own samples.
func (l *RMax) Replace(i int, succ []mdp.Succ, reward float64) {
	l.retireDelta(i)
	if l.P.Planning == PlanIncremental {
		// The new successor list need not extend the old one: enter all of it in the predecessor
		// lists again (an entry already there is only backed up twice).
		l.sweep.linked.Set(i, 0)
	}
	was := l.stats.Known(i)
	flipped := l.stats.Replace(i, succ, reward)
	l.version++
	if was {
		l.changed(i)
	}
	if flipped {
		l.changed(i)
	}
}

// retireDelta takes a pair whose estimate is about to change out of delta planning's inflow
// lists, which hold its weights by its present successors; the plan enters its new ones.
func (l *RMax) retireDelta(i int) {
	if l.sweep.delta {
		l.sweep.retire(i)
	}
}

// SetUnknownValues plans every unknown pair at value[i] (a terminal payment) instead of the R_max
// self-loop; MaxQInit's RMax variant uses it. nil restores R_max.
func (l *RMax) SetUnknownValues(value []float64) {
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
func (l *RMax) changed(i int) {
	l.modelVersion++
	l.dirty = true
	if l.incremental {
		l.sweep.changed = append(l.sweep.changed, int32(i))
	}
}

// Act chooses an action in state s by the action rule.
func (l *RMax) Act(s int) int {
	if l.P.Rule == BalancedWandering && !l.stats.StateKnown(s) {
		// Least-tried action; a random incumbent is replaced only by a strictly smaller count,
		// so a random minimiser is kept and otherwise the lowest-index minimiser wins.
		best := l.rng.IntN(l.A)
		for a := 0; a < l.A; a++ {
			if l.stats.Counts().N(s*l.A+a) < l.stats.Counts().N(s*l.A+best) {
				best = a
			}
		}
		return best
	}
	q := l.Q()[s*l.A : s*l.A+l.A]
	if l.P.Rule == BalancedWandering {
		return mdp.ArgMax(q)
	}
	return agent.Greedy(q, l.rng)
}

// Q returns the action values of the current optimistic model, planning first if it changed.
func (l *RMax) Q() []float64 {
	if l.dirty {
		l.plan()
	}
	return l.q
}

func (l *RMax) plan() {
	if l.incremental {
		l.sweep.plan()
	} else {
		l.planFull()
	}
	l.dirty = false
	l.stats.Planned()
}

// planFull rebuilds the optimistic model and runs value iteration on it, warm-started from q.
func (l *RMax) planFull() {
	l.buildOptimistic(&l.model)
	l.model.Iterate(l.q, l.v, l.gamma, mdp.StopFor(l.gamma, l.P.PlanTolerance), maxPlanSweeps)
}

// buildOptimistic writes the optimistic model into m: known pairs at their estimates, unknown
// pairs at R_max forever (or their given values), terminal states at 0.
func (l *RMax) buildOptimistic(m *mdp.Sparse) {
	m.Reset(l.S, l.A)
	for i := 0; i < l.S*l.A; i++ {
		switch {
		case l.terminal != nil && l.terminal[i/l.A]:
			m.AppendPair(0) // no successor: an episode ends here, Q = 0
		case l.stats.Known(i):
			n := float64(l.stats.Counts().N(i))
			m.AppendPair(l.stats.Counts().R(i) / n)
			for _, x := range l.stats.Counts().Successors(i) {
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

// PolicyVersion changes whenever the learner's policy may have changed (agent.PolicyInfo).
func (l *RMax) PolicyVersion() uint64 { return l.version }

// Policy writes into dst the distribution of the action Act would take in s now (agent.PolicyInfo):
// with balanced wandering in a state with an unknown action, the least-tried action (a random
// one kept if it is a least-tried, the lowest-index least-tried otherwise); elsewhere greedy on
// the plan of the current optimistic model (balanced wandering: the lowest-index maximiser;
// optimistic: a uniform maximiser). When the plan is out of date, the plan Act would make is made
// on the side, warm-started as Act would, and the learner itself is left unchanged.
func (l *RMax) Policy(s int, dst []float64) {
	clear(dst)
	if l.P.Rule == BalancedWandering && !l.stats.StateKnown(s) {
		low := 0
		for a := 1; a < l.A; a++ {
			if l.stats.Counts().N(s*l.A+a) < l.stats.Counts().N(s*l.A+low) {
				low = a
			}
		}
		for a := 0; a < l.A; a++ {
			if l.stats.Counts().N(s*l.A+a) == l.stats.Counts().N(s*l.A+low) {
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
	agent.UniformGreedy(q, dst)
}

// scratchQ is the Q of the plan Act would make now, computed once per optimistic model.
func (l *RMax) scratchQ() []float64 {
	return l.scratch.plan(l.modelVersion, l.q, l.v, l.gamma, l.P.PlanTolerance, l.buildOptimistic)
}
