package learners

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// Replan is when MBIE-EB brings its plan up to date after its model changed.
type Replan string

const (
	// ReplanDoubling re-plans when some pair's count n(s,a) reaches or passes a power of two
	// (1, 2, 4, …), when a pair reaches its cap m, and after every Augment or Replace. Between
	// these the plan lags the model: the estimates and bonuses of pairs whose counts did not cross
	// a power of two move without being planned until the next crossing. The number of plans per
	// task is at most the number of pairs times log₂ of their largest count.
	ReplanDoubling Replan = "doubling"
	// ReplanEverySample re-plans after every change of the model, as the paper's algorithm does
	// (it solves its equations at every step). It is exact and much slower; BenchmarkMBIEEBMaze4x4
	// measures both.
	ReplanEverySample Replan = "every-sample"
)

// MBIEEBType is MBIE-EB's agent type: the name a config gives it (type: mbie-eb) and its errors
// begin with.
const MBIEEBType = "mbie-eb"

// MBIEEBParams are MBIE-EB's parameters; the yaml tags are the config keys.
//
// Sources: we could not read Strehl & Littman (2008) itself. What it says about β, m and its
// experiments is taken from a reproduction of its Section 6 (Theiventhiram, Wasem, Verdecia
// Echarte & Shyam Kumar, "An Analysis of Model-Based Interval Estimation for Markov Decision
// Processes: Reproduction and Extensions", University of Neuchâtel seminar report, in
// github.com/allizha/mdp-interval-estimation-study), which quotes the theoretical β, the cap m,
// and the settings the paper found by a "broad search": a bonus C·R_max/√n with C = 0.4 on
// RiverSwim and 0.8 on SixArms (β = 0.4·R_max and 0.8·R_max), m = ∞, γ = 0.95, 5000 steps. The
// paper's own cumulative rewards (its Figures 2 and 3) are bar charts whose values we did not
// find in numbers.
type MBIEEBParams struct {
	// Beta is β of the exploration bonus β/√n(s,a), in units of reward. The analysis (Theorem 2)
	// sets β = 1/(1−γ)·√(ln(2|S||A|m/δ)/2) for rewards in [0, 1]; the experiments searched for it.
	Beta float64 `yaml:"beta" doc:"β of the exploration bonus β/√n(s,a), in units of reward (Strehl & Littman's RiverSwim search: 0.4·R_max)" range:">= 0"`
	// M is the cap m on a pair's own samples: the algorithm updates a pair's model with its first
	// m experiences only and ignores the rest, which bounds the changes of the model by |S||A|m for
	// the analysis. 0 means no cap (m = ∞, the experiments' setting): every sample is kept, and no
	// pair is ever known.
	M int64 `yaml:"m" doc:"cap m on a pair's own samples; 0: no cap, and no pair is ever known" range:">= 0"`
	// RMax is R_max: an unvisited pair is planned at V_max = R_max/(1−γ).
	RMax float64 `yaml:"r_max" doc:"R_max: an unvisited pair is planned at R_max/(1−γ)"`
	// PlanTolerance bounds ‖Q − Q̃‖∞ of each plan on the bonus-augmented model.
	PlanTolerance float64 `yaml:"plan_tolerance" doc:"bound on ‖Q − Q̃‖∞ of each plan on the bonus-augmented model" range:"> 0"`
	// Replan is the re-planning schedule: doubling or every-sample.
	Replan Replan `yaml:"replan" doc:"when to re-plan: when a pair's count crosses a power of two (doubling), or after every change of the model" range:"doubling | every-sample"`
	// Planning is how a plan is brought up to date, as RMax's: prioritized sweeping from the pairs
	// whose counts changed since the last plan (delta, the default, or incremental), or value
	// iteration over every state (full, the planner before delta planning).
	Planning Planning `yaml:"planning" doc:"how a plan is brought up to date: prioritized sweeping from the pairs whose counts changed, moving backups by changes (delta) or recomputing them (incremental), or value iteration over every state (full)" range:"delta | incremental | full"`
}

// DefaultMBIEEB are the settings of Strehl & Littman's RiverSwim experiment (see MBIEEBParams):
// β = 0.4·R_max and no cap on the model, with R_max = 1, the reward scale of the paper presets'
// mazes — set β with R_max. The planning tolerance, the doubling schedule and delta planning are
// ours.
func DefaultMBIEEB() MBIEEBParams {
	return MBIEEBParams{Beta: 0.4, M: 0, RMax: 1, PlanTolerance: 1e-4, Replan: ReplanDoubling, Planning: PlanDelta}
}

// Validate names the first parameter out of range.
func (p MBIEEBParams) Validate() error {
	switch {
	case !(p.Beta >= 0) || math.IsInf(p.Beta, 0):
		return fmt.Errorf("mbie-eb: beta = %v, want a finite number >= 0", p.Beta)
	case p.M < 0:
		return fmt.Errorf("mbie-eb: m = %d, want >= 0 (0: no cap)", p.M)
	case math.IsNaN(p.RMax) || math.IsInf(p.RMax, 0):
		return fmt.Errorf("mbie-eb: r_max = %v, want a finite number", p.RMax)
	case !(p.PlanTolerance > 0) || math.IsInf(p.PlanTolerance, 0):
		return fmt.Errorf("mbie-eb: plan_tolerance = %v, want a finite number > 0", p.PlanTolerance)
	case p.Replan != ReplanDoubling && p.Replan != ReplanEverySample:
		return fmt.Errorf("mbie-eb: replan = %q, want %q or %q", p.Replan, ReplanDoubling, ReplanEverySample)
	case !p.Planning.Valid():
		return fmt.Errorf("mbie-eb: planning = %q, want %s", p.Planning, Plannings)
	}
	return nil
}

// MBIE-EB registers as a base learner and the single-task agent mbie-eb. Its PairBytes (not
// measured) are RMax's with room for its extra per-pair arrays.
func init() {
	agenttypes.Register(agenttypes.Type{Name: MBIEEBType, Display: "MBIE-EB", Summary: "MBIE-EB, model-based interval estimation with an exploration bonus (Strehl & Littman 2008)",
		Defaults: func() agenttypes.Params { p := DefaultMBIEEB(); return &p }, PairBytes: 200,
		Search: agenttypes.Dims(agenttypes.InRewardUnits(agenttypes.LogReal("beta", 0.01, 10)), agenttypes.LogInt("m", 1, 1000)),
		Scales: agenttypes.Dims(agenttypes.Choice("replan", "doubling", "every-sample")), SingleTask: true, Base: true, Rank: 20})
}

// RewardScale is R_max: β, a bonus in units of reward, is searched in its units
// (agenttypes.InRewardUnits).
func (p *MBIEEBParams) RewardScale() float64 { return p.RMax }

// NewBase builds MBIE-EB as a base learner, and New as the single-task agent mbie-eb.
func (p *MBIEEBParams) NewBase() (agent.Base, error) { return NewMBIEEB(*p) }
func (p *MBIEEBParams) New(agenttypes.Context) (agent.Agent, error) {
	return agenttypes.Single(p.NewBase())
}

// MBIEEB is MBIE-EB, Model-Based Interval Estimation with Exploration Bonus (Strehl & Littman,
// "An analysis of model-based Interval Estimation for Markov Decision Processes", Journal of
// Computer and System Sciences 74(8), 2008), a base learner (agent.Base). It acts greedily on the
// solution of
//
//	Q̃(s,a) = R̂(s,a) + γ Σ_s′ T̂(s′|s,a) max_a′ Q̃(s′,a′) + β/√n(s,a),
//
// where R̂ and T̂ are the empirical estimates from the n(s,a) counts (own samples plus any
// augmentation), an unvisited pair (n = 0) is worth V_max = R_max/(1−γ), and a terminal state is
// worth 0. Ties between greedy actions are broken uniformly at random.
//
// Record keeps a pair's own samples while n(s,a) < m (all of them when m = 0) and ignores the
// rest: without augmentation, its first m. A pair is known (agent.Stats) at n(s,a) ≥ m: its model is final;
// with m = 0 no pair is ever known.
// Augment and Replace change n(s,a) and the estimates like samples do, so counts a template adds
// shrink the bonus β/√n — that is how transfer helps MBIE-EB.
//
// Planning is lazy: only when the schedule (Replan) says the model changed enough and an action
// needs the plan. By default (Planning: delta) it is RMax's prioritized sweeping
// (prioritized_sweeping.go) from the pairs whose counts changed since the last plan — their
// estimates and bonuses β/√n(s,a) — to the same tolerance as value iteration over every state
// (Planning: full), whose plans it matches within that tolerance: its cost grows with the states
// whose values move, not with S.
type MBIEEB struct {
	P        MBIEEBParams
	S, A     int
	gamma    float64
	rng      *rand.Rand
	terminal []bool

	stats agent.Stats // known: at the cap, n(s,a) ≥ m

	dirty bool // the schedule asked for a plan
	q, v  []float64
	model mdp.Sparse // the model of a full plan
	// Incremental planning (Planning delta or incremental): the sweeper, and the pairs already in
	// its changed list since the last plan (taken out of delta planning's inflow lists).
	incremental bool
	sweep       sweeper
	pending     []bool

	version      uint64 // changes whenever the plan Act uses may have changed (agent.PolicyInfo)
	modelVersion uint64 // changes whenever the schedule marks the plan out of date
	scratch      scratchPlan
}

var (
	_ agent.Base   = (*MBIEEB)(nil)
	_ agent.Valued = (*MBIEEB)(nil)
)

// NewMBIEEB validates p and returns MBIE-EB as a base learner (agent.Base).
func NewMBIEEB(p MBIEEBParams) (*MBIEEB, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &MBIEEB{P: p}, nil
}

// Begin starts a task with no samples: every pair unvisited, planned at V_max.
func (l *MBIEEB) Begin(t agent.Task) {
	l.S, l.A, l.gamma, l.rng, l.terminal = t.S, t.A, t.Gamma, t.Rand, t.Terminal
	l.stats.Reset(t.S, t.A, l.KnownThreshold())
	l.q = buf.Zeroed(l.q, t.S*t.A)
	l.v = buf.Zeroed(l.v, t.S)
	l.outdated()
	l.incremental = l.P.Planning != PlanFull
	if l.incremental {
		// Every pair unvisited: v(s) = V_max, 0 in a terminal state, the plan's fixed point.
		l.pending = buf.Zeroed(l.pending, t.S*t.A)
		l.sweep.reset(l, l.stats.Counts(), l.q, l.v, l.gamma, t.S, t.A, l.P.PlanTolerance*(1-l.gamma), l.P.Planning == PlanDelta)
		vmax := l.P.RMax / (1 - l.gamma)
		for s := range l.v {
			if l.terminal == nil || !l.terminal[s] {
				l.v[s] = vmax
			}
		}
		l.sweep.begin() // the first Act still counts a plan, as with full planning
	}
}

// touch enters pair i, whose counts or state are about to change, in the sweeper's changed list
// once per plan, taking it out of delta planning's inflow lists while its counts are still those
// it entered them with (incremental planning).
func (l *MBIEEB) touch(i int) {
	if !l.incremental || l.pending[i] {
		return
	}
	l.pending[i] = true
	if l.sweep.delta {
		l.sweep.retire(i)
	}
	l.sweep.changed = append(l.sweep.changed, int32(i))
}

// outdated marks the plan out of date.
func (l *MBIEEB) outdated() {
	l.dirty = true
	l.version++
	l.modelVersion++
}

// KnownThreshold is the cap m; without a cap (m = 0) no pair is ever known, and the threshold is
// infinite.
func (l *MBIEEB) KnownThreshold() int64 { return l.P.KnownThreshold() }

// KnownThreshold is the cap m on a pair's samples, after which it is known; with no cap (m 0) no
// pair ever is.
func (p MBIEEBParams) KnownThreshold() int64 {
	if p.M == 0 {
		return math.MaxInt64
	}
	return p.M
}

// ObserveTerminal marks s terminal: its pairs are planned at value 0 from the next plan on, made
// before the next action (agent.TerminalObserver).
func (l *MBIEEB) ObserveTerminal(s int) {
	if l.terminal == nil || !l.terminal[s] {
		for i := s * l.A; i < s*l.A+l.A; i++ {
			l.touch(i)
		}
		l.terminal = agent.WithTerminal(l.terminal, l.S, s)
		l.dirty = true
		l.version++
	}
}

// Stats are the learner's statistics of the task; a pair is known at its cap m (never when
// m = 0).
func (l *MBIEEB) Stats() *agent.Stats { return &l.stats }

// EndEpisode does nothing: MBIE-EB plans when its model changes.
func (l *MBIEEB) EndEpisode() {}

// Record keeps pair i's sample unless the pair is at its cap.
func (l *MBIEEB) Record(i, next int, r float64) bool {
	if l.stats.Known(i) {
		return false
	}
	l.touch(i)
	old := l.stats.Counts().N(i)
	flipped := l.stats.Record(i, next, r)
	if l.P.Replan == ReplanDoubling && !flipped && bits.Len64(uint64(old)) == bits.Len64(uint64(l.stats.Counts().N(i))) {
		return true // the statistics changed; the plan, and so the policy, did not
	}
	l.outdated()
	return true
}

// Augment adds counts that are not pair i's own samples, with their reward sum.
func (l *MBIEEB) Augment(i int, add []mdp.Succ, reward float64) {
	l.touch(i)
	l.stats.Augment(i, add, reward)
	l.outdated()
}

// Replace sets pair i's statistics to the given counts and reward sum.
func (l *MBIEEB) Replace(i int, succ []mdp.Succ, reward float64) {
	l.touch(i)
	if l.P.Planning == PlanIncremental {
		// The new successor list need not extend the old one: enter all of it in the predecessor
		// lists again (an entry already there is only backed up twice).
		l.sweep.linked.Set(i, 0)
	}
	l.stats.Replace(i, succ, reward)
	l.outdated()
}

// Act takes a greedy action of the current plan in s, ties broken at random.
func (l *MBIEEB) Act(s int) int {
	return agent.Greedy(l.Q()[s*l.A:s*l.A+l.A], l.rng)
}

// Q returns the current plan's action values, planning first if the schedule asked for it.
func (l *MBIEEB) Q() []float64 {
	if l.dirty {
		if l.incremental {
			for _, i := range l.sweep.changed {
				l.pending[i] = false
			}
			l.sweep.plan()
		} else {
			l.build(&l.model)
			l.model.Iterate(l.q, l.v, l.gamma, mdp.StopFor(l.gamma, l.P.PlanTolerance), maxPlanSweeps)
		}
		l.dirty = false
		l.stats.Planned()
	}
	return l.q
}

// build writes the bonus-augmented empirical model into m: a visited pair pays R̂ + β/√n and moves
// by T̂; an unvisited pair is a terminal payment of V_max; a terminal state's pairs are worth 0.
func (l *MBIEEB) build(m *mdp.Sparse) {
	vmax := l.P.RMax / (1 - l.gamma)
	m.Reset(l.S, l.A)
	for i := 0; i < l.S*l.A; i++ {
		switch n := l.stats.Counts().N(i); {
		case l.terminal != nil && l.terminal[i/l.A]:
			m.AppendPair(0)
		case n == 0:
			m.AppendPair(vmax)
		default:
			fn := float64(n)
			m.AppendPair(l.stats.Counts().R(i)/fn + l.P.Beta/math.Sqrt(fn))
			for _, x := range l.stats.Counts().Successors(i) {
				m.AppendSuccessor(int(x.State), float64(x.N)/fn)
			}
		}
		m.EndPair()
	}
}

// backup is the Bellman backup of pair i on the model build writes (sweptModel): a visited pair's
// (R(s,a) + γ·Σ n(s,a,s′)·v(s′))/n(s,a) + β/√n(s,a), V_max unvisited, 0 in a terminal state.
func (l *MBIEEB) backup(i int) float64 {
	n, r, succ := l.stats.Counts().Pair(i)
	switch {
	case l.terminal != nil && l.terminal[i/l.A]:
		return 0
	case n == 0:
		return l.P.RMax / (1 - l.gamma)
	}
	x := 0.0
	for _, s := range succ {
		x += float64(s.N) * l.v[s.State]
	}
	fn := float64(n)
	return (r+l.gamma*x)/fn + l.P.Beta/math.Sqrt(fn)
}

// throughSuccessors: a visited pair of a state that is not terminal is planned from its
// estimate (sweptModel).
func (l *MBIEEB) throughSuccessors(i int) bool {
	return l.stats.Counts().N(i) > 0 && (l.terminal == nil || !l.terminal[i/l.A])
}

// loopsOn: no pair of MBIE-EB's model reads its own state's value but through its successors
// (sweptModel).
func (l *MBIEEB) loopsOn(int) bool { return false }

// Values are V(s) of the last plan, without planning anew (agent.Valued).
func (l *MBIEEB) Values() []float64 { return l.v }

// PolicyVersion changes whenever the policy may have changed (agent.PolicyInfo).
func (l *MBIEEB) PolicyVersion() uint64 { return l.version }

// Policy writes the distribution of Act's action in s: uniform over the greedy actions of the plan
// Act would use now — made on the side, warm-started as Act would, if the plan is out of date.
func (l *MBIEEB) Policy(s int, dst []float64) {
	q := l.q
	if l.dirty {
		q = l.scratch.plan(l.modelVersion, l.q, l.v, l.gamma, l.P.PlanTolerance, l.build)
	}
	agent.UniformGreedy(q[s*l.A:s*l.A+l.A], dst)
}
