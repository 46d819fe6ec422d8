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

// E3Type is E3's agent type: the name a config gives it (type: e3) and its errors begin with.
const E3Type = "e3"

// E3Params are E3's parameters; the yaml tags are the config keys.
type E3Params struct {
	// M is the known threshold: a pair is known after m samples, a state when all its pairs are.
	M int64 `yaml:"m" doc:"known threshold m: a pair is known after m samples, a state when all its actions are" range:">= 1"`
	// RMax is R_max, the largest reward: V_max = R_max/(1−γ) bounds what the unknown states can
	// add to a return.
	RMax float64 `yaml:"r_max" doc:"R_max, the largest reward: reaching an unknown state is worth R_max/(1−γ) to the exploration plan" range:"> 0"`
	// Epsilon is ε, the loss in return the exploitation plan may have: E3 exploits in a known state
	// when exploring could add at most ε/2 there.
	Epsilon float64 `yaml:"epsilon" doc:"ε: in a known state E3 explores while the exploration plan is worth more than ε/2" range:">= 0"`
	// PlanTolerance bounds ‖V − V*‖∞ of each of the two plans, in units of return.
	PlanTolerance float64 `yaml:"plan_tolerance" doc:"bound on ‖V − V*‖∞ of each of the two plans" range:"> 0"`
	// Planning is how the two plans are brought up to date, as RMax's: prioritized sweeping from
	// the pairs of the states that became known or unknown or whose estimates changed (delta, the
	// default, or incremental), or value iteration over every state (full, the planner before).
	Planning Planning `yaml:"planning" doc:"how the two plans are brought up to date: prioritized sweeping from the pairs that changed, moving backups by changes (delta) or recomputing them (incremental), or value iteration over every state (full)" range:"delta | incremental | full"`
}

// DefaultE3: m = 16 is E3's known threshold in Strehl & Littman's (2008) RiverSwim experiment as
// the reproduction cited at MBIEEBParams reports it (4 on SixArms, with a threshold "thresh" of
// 0.01 and 0.09 whose definition it does not give from the paper, so we do not map it to ε).
// Kearns & Singh give m and ε only as polynomial bounds and no practical ε was found: ε = 0.1 (a
// tenth of R_max = 1 of the paper presets' mazes), like the planning tolerance and delta planning,
// is ours.
func DefaultE3() E3Params {
	return E3Params{M: 16, RMax: 1, Epsilon: 0.1, PlanTolerance: 1e-4, Planning: PlanDelta}
}

// Validate names the first parameter out of range.
func (p E3Params) Validate() error {
	switch {
	case p.M < 1:
		return fmt.Errorf("e3: m = %d, want >= 1", p.M)
	case !(p.RMax > 0) || math.IsInf(p.RMax, 0):
		return fmt.Errorf("e3: r_max = %v, want a finite number > 0", p.RMax)
	case !(p.Epsilon >= 0) || math.IsInf(p.Epsilon, 0):
		return fmt.Errorf("e3: epsilon = %v, want a finite number >= 0", p.Epsilon)
	case !(p.PlanTolerance > 0) || math.IsInf(p.PlanTolerance, 0):
		return fmt.Errorf("e3: plan_tolerance = %v, want a finite number > 0", p.PlanTolerance)
	case !p.Planning.Valid():
		return fmt.Errorf("e3: planning = %q, want %s", p.Planning, Plannings)
	}
	return nil
}

// E3 registers as a base learner and the single-task agent e3. Its PairBytes (not measured) are
// RMax's with room for its extra per-pair arrays.
func init() {
	agenttypes.Register(agenttypes.Type{Name: E3Type, Display: "E3", Summary: "E3, explicit explore or exploit (Kearns & Singh 2002), discounted",
		Defaults: func() agenttypes.Params { p := DefaultE3(); return &p }, PairBytes: 200,
		Search: agenttypes.Dims(agenttypes.LogInt("m", 1, 500), agenttypes.LogReal("epsilon", 0.001, 1)), SingleTask: true, Base: true, Rank: 30})
}

// NewBase builds E3 as a base learner, and New as the single-task agent e3.
func (p *E3Params) NewBase() (agent.Base, error) { return NewE3(*p) }
func (p *E3Params) New(agenttypes.Context) (agent.Agent, error) {
	return agenttypes.Single(p.NewBase())
}

// E3 is Explicit Explore or Exploit (Kearns & Singh, "Near-optimal reinforcement learning in
// polynomial time", Machine Learning 49, 2002), discounted, as a base learner (agent.Base).
//
// A pair is known after m samples and keeps no further ones; a state is known when all its
// actions are. In an unknown state E3 does balanced wandering: it takes a least-tried action
// (ties uniformly at random). In a known state s it has two plans on the known-state MDP M̂_K
// (known states with their estimated rewards and transitions, terminal states worth 0):
//
//   - exploitation: unknown states are absorbing and worth 0 (K&S's M̂_S), so V̂_exploit is what
//     the known part alone is estimated to pay;
//   - exploration: every reward is 0 and reaching an unknown state pays V_max = R_max/(1−γ) and
//     ends (K&S's M̂′_S, scaled), so V̂_explore(s) = V_max·max_π E_π[γ^τ], τ the steps until an
//     unknown state is reached: V_max times the discounted probability of escaping the known set.
//
// The rule: explore (act greedily on the exploration plan) iff V̂_explore(s) > ε/2, otherwise
// exploit (greedily on the exploitation plan); greedy ties go to the lowest action.
//
// Why: any policy's return in the true MDP differs from its return in M_K only after it reaches
// an unknown state, by at most γ^τ·V_max (no value exceeds V_max), so
// V*(s) ≤ V*_{M_K}(s) + V_max·max_π E[γ^τ]. When the exploration value is at most ε/2, the
// exploitation plan is therefore within ε/2 of optimal, plus its estimation error (the other ε/2,
// which m is meant to bound). This is the discounted form of K&S's Explore-or-Exploit lemma —
// either the known part holds a near-optimal policy, or some policy leaves it within T steps with
// probability above α/G_max^T — used as they suggest to do without knowing the optimal return:
// explore when the exploration plan escapes with enough probability, else exploit (their
// undiscounted test as the literature states it; docs/decisions.md, decision 34, gives the source).
// K&S execute the chosen policy for T steps; here the choice is made afresh in every known state,
// because both plans are stationary in the discounted setting, episodes may end at any step, and
// it keeps the policy a function of the state (agent.PolicyInfo). Valuing the unknown states at 0 in
// exploitation is K&S's absorbing state, pessimistic for rewards in [0, R_max] as they assume;
// with negative rewards (the mazes' step costs) it can draw the exploitation plan towards unknown
// states.
//
// Both plans change only when a state becomes known or unknown or a known state's counts change
// (Augment, Replace): they are re-planned lazily then, when a known state needs them — by default
// (Planning: delta) by RMax's prioritized sweeping from the pairs of those states, to the same
// tolerance as warm-started value iteration over every state (Planning: full).
type E3 struct {
	P        E3Params
	S, A     int
	gamma    float64
	rng      *rand.Rand
	terminal []bool

	stats agent.Stats

	dirty bool
	plan  e3Plans

	version      uint64 // changes with every change of the counts (balanced wandering reads them) or the plans
	modelVersion uint64 // changes with every change of the two models
	scratch      e3Plans
	scratchAt    uint64 // the model version the scratch plans were made at; 0: none

	// Incremental planning (Planning delta or incremental): a sweeper per plan, and the pairs
	// already in their changed lists since the last plans.
	incremental    bool
	sweepX, sweepE sweeper
	pending        []bool
}

// e3Model is one of E3's two models as prioritized sweeping plans it (sweptModel): a known
// state's pair moves by its estimate, paying its estimated reward in exploitation and nothing in
// exploration; an unknown state's pair pays 0 in exploitation and V_max in exploration and ends.
type e3Model struct {
	l       *E3
	explore bool
	v       []float64 // the plan's values
}

func (m e3Model) backup(i int) float64 {
	l := m.l
	s := i / l.A
	switch {
	case l.terminal != nil && l.terminal[s]:
		return 0
	case !l.StateKnown(s):
		if m.explore {
			return l.P.RMax / (1 - l.gamma)
		}
		return 0
	}
	n, r, succ := l.stats.Counts().Pair(i)
	x := 0.0
	for _, y := range succ {
		x += float64(y.N) * m.v[y.State]
	}
	if m.explore {
		r = 0
	}
	return (r + l.gamma*x) / float64(n)
}

func (m e3Model) throughSuccessors(i int) bool {
	s := i / m.l.A
	return m.l.StateKnown(s) && (m.l.terminal == nil || !m.l.terminal[s])
}

func (m e3Model) loopsOn(int) bool { return false }

// e3Plans are the two plans: exploitation (x) and exploration (e).
type e3Plans struct {
	qx, vx, qe, ve []float64
	mx, me         mdp.Sparse
}

var _ agent.Base = (*E3)(nil)

// NewE3 validates p and returns E3 as a base learner (agent.Base).
func NewE3(p E3Params) (*E3, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &E3{P: p}, nil
}

// Begin starts a task with nothing known.
func (l *E3) Begin(t agent.Task) {
	l.S, l.A, l.gamma, l.rng, l.terminal = t.S, t.A, t.Gamma, t.Rand, t.Terminal
	l.stats.Reset(t.S, t.A, l.P.M)
	p := &l.plan
	p.qx, p.vx = buf.Zeroed(p.qx, t.S*t.A), buf.Zeroed(p.vx, t.S)
	p.qe, p.ve = buf.Zeroed(p.qe, t.S*t.A), buf.Zeroed(p.ve, t.S)
	l.outdated()
	l.incremental = l.P.Planning != PlanFull
	if l.incremental {
		// Nothing known: exploitation is 0 everywhere; exploration V_max but in terminal states.
		l.pending = buf.Zeroed(l.pending, t.S*t.A)
		eps, delta := l.P.PlanTolerance*(1-l.gamma), l.P.Planning == PlanDelta
		l.sweepX.reset(e3Model{l, false, p.vx}, l.stats.Counts(), p.qx, p.vx, l.gamma, t.S, t.A, eps, delta)
		l.sweepE.reset(e3Model{l, true, p.ve}, l.stats.Counts(), p.qe, p.ve, l.gamma, t.S, t.A, eps, delta)
		for s := range p.ve {
			if l.terminal == nil || !l.terminal[s] {
				p.ve[s] = l.P.RMax / (1 - l.gamma)
			}
		}
		l.sweepX.begin()
		l.sweepE.begin() // the first plan is still counted when a known state first needs it
	}
}

// touch enters pair i, whose counts or state are about to change, in both sweepers' changed
// lists once per plan, taking it out of delta planning's inflow lists while its counts are still
// those it entered them with (incremental planning).
func (l *E3) touch(i int) {
	if !l.incremental || l.pending[i] {
		return
	}
	l.pending[i] = true
	for _, w := range []*sweeper{&l.sweepX, &l.sweepE} {
		if w.delta {
			w.retire(i)
		}
		w.changed = append(w.changed, int32(i))
	}
}

// touchState touches every pair of s.
func (l *E3) touchState(s int) {
	for i := s * l.A; i < s*l.A+l.A; i++ {
		l.touch(i)
	}
}

func (l *E3) outdated() {
	l.dirty = true
	l.version++
	l.modelVersion++
}

// KnownThreshold is m.
func (l *E3) KnownThreshold() int64 { return l.P.KnownThreshold() }

// KnownThreshold is m: a pair is known after m samples.
func (p E3Params) KnownThreshold() int64 { return p.M }

// ObserveTerminal marks s terminal: both plans value it 0 from the next plan on, made before the
// next action (agent.TerminalObserver).
func (l *E3) ObserveTerminal(s int) {
	if l.terminal == nil || !l.terminal[s] {
		l.touchState(s)
		l.terminal = agent.WithTerminal(l.terminal, l.S, s)
		l.dirty = true
		l.version++
	}
}

// StateKnown reports whether every action of s is known.
func (l *E3) StateKnown(s int) bool { return l.stats.StateKnown(s) }

// Stats are the learner's statistics of the task.
func (l *E3) Stats() *agent.Stats { return &l.stats }

// EndEpisode does nothing: the choice between the plans is made in every known state.
func (l *E3) EndEpisode() {}

// Record keeps pair i's sample if the pair is unknown.
func (l *E3) Record(i, next int, r float64) bool {
	if l.stats.Known(i) {
		return false
	}
	stateWas := l.StateKnown(i / l.A)
	l.stats.Record(i, next, r)
	l.version++ // balanced wandering's counts changed
	l.stateChanged(i, stateWas)
	return true
}

// Augment adds counts that are not pair i's own samples, with their reward sum.
func (l *E3) Augment(i int, add []mdp.Succ, reward float64) {
	stateWas := l.StateKnown(i / l.A)
	if stateWas {
		l.touch(i) // its estimate is about to change
	}
	l.stats.Augment(i, add, reward)
	l.version++
	l.estimateChanged(i, stateWas)
}

// Replace sets pair i's statistics to the given counts and reward sum.
func (l *E3) Replace(i int, succ []mdp.Succ, reward float64) {
	stateWas := l.StateKnown(i / l.A)
	if stateWas {
		l.touch(i)
	}
	if l.P.Planning == PlanIncremental {
		// The new successor list need not extend the old one: enter all of it in the predecessor
		// lists again (an entry already there is only backed up twice).
		l.sweepX.linked.Set(i, 0)
		l.sweepE.linked.Set(i, 0)
	}
	l.stats.Replace(i, succ, reward)
	l.version++
	l.estimateChanged(i, stateWas)
}

// stateChanged marks the plans out of date when pair i's state, known before if stateWas, became
// known or unknown.
func (l *E3) stateChanged(i int, stateWas bool) {
	if l.StateKnown(i/l.A) != stateWas {
		l.touchState(i / l.A)
		l.outdated()
	}
}

// estimateChanged marks the plans out of date after pair i's counts changed from elsewhere: when
// its state became known or unknown, and when its state is known (its estimate changed).
func (l *E3) estimateChanged(i int, stateWas bool) {
	l.stateChanged(i, stateWas)
	if l.StateKnown(i / l.A) {
		l.outdated()
	}
}

// Act does balanced wandering in an unknown state and, in a known one, follows the exploration
// plan if V̂_explore(s) > ε/2 and the exploitation plan otherwise.
func (l *E3) Act(s int) int {
	if !l.StateKnown(s) {
		return l.leastTried(s)
	}
	l.upToDate()
	return l.choose(&l.plan, s)
}

// upToDate re-plans if the models changed since the last plans.
func (l *E3) upToDate() {
	if l.dirty {
		if l.incremental {
			for _, i := range l.sweepX.changed {
				l.pending[i] = false
			}
			l.sweepX.plan()
			l.sweepE.plan()
		} else {
			l.makePlans(&l.plan)
		}
		l.dirty = false
		l.stats.Planned()
	}
}

// Explores reports whether E3 would follow the exploration plan in known state s now; it plans
// first if the plans are out of date.
func (l *E3) Explores(s int) bool {
	l.upToDate()
	return l.explores(&l.plan, s)
}

// explores is the rule on plans p in known state s: V̂_explore(s) > ε/2.
func (l *E3) explores(p *e3Plans, s int) bool {
	return mdp.Max(p.qe[s*l.A:s*l.A+l.A]) > l.P.Epsilon/2
}

// choose is the greedy action (lowest index among ties) of the plan the rule picks in known
// state s.
func (l *E3) choose(p *e3Plans, s int) int {
	q := p.qx
	if l.explores(p, s) {
		q = p.qe
	}
	return mdp.ArgMax(q[s*l.A : s*l.A+l.A])
}

// leastTried is a least-tried action of s, ties broken uniformly at random.
func (l *E3) leastTried(s int) int {
	low, ties := l.stats.Counts().N(s*l.A), 1
	for a := 1; a < l.A; a++ {
		switch n := l.stats.Counts().N(s*l.A + a); {
		case n < low:
			low, ties = n, 1
		case n == low:
			ties++
		}
	}
	k := l.rng.IntN(ties)
	for a := 0; ; a++ {
		if l.stats.Counts().N(s*l.A+a) == low {
			if k == 0 {
				return a
			}
			k--
		}
	}
}

// makePlans builds both models and solves them, warm-started from p's values.
func (l *E3) makePlans(p *e3Plans) {
	vmax := l.P.RMax / (1 - l.gamma)
	p.mx.Reset(l.S, l.A)
	p.me.Reset(l.S, l.A)
	for i := 0; i < l.S*l.A; i++ {
		s := i / l.A
		switch {
		case l.terminal != nil && l.terminal[s]:
			p.mx.AppendPair(0)
			p.me.AppendPair(0)
		case !l.StateKnown(s):
			p.mx.AppendPair(0)    // exploitation: leaving the known set is worth nothing
			p.me.AppendPair(vmax) // exploration: reaching an unknown state pays V_max and ends
		default:
			n := float64(l.stats.Counts().N(i))
			p.mx.AppendPair(l.stats.Counts().R(i) / n)
			p.me.AppendPair(0)
			for _, x := range l.stats.Counts().Successors(i) {
				p.mx.AppendSuccessor(int(x.State), float64(x.N)/n)
				p.me.AppendSuccessor(int(x.State), float64(x.N)/n)
			}
		}
		p.mx.EndPair()
		p.me.EndPair()
	}
	stop := mdp.StopFor(l.gamma, l.P.PlanTolerance)
	p.mx.Iterate(p.qx, p.vx, l.gamma, stop, maxPlanSweeps)
	p.me.Iterate(p.qe, p.ve, l.gamma, stop, maxPlanSweeps)
}

// ExploitQ and ExploreQ are the two plans' action values (planned first if out of date).
func (l *E3) ExploitQ() []float64 { l.upToDate(); return l.plan.qx }
func (l *E3) ExploreQ() []float64 { l.upToDate(); return l.plan.qe }

// PolicyVersion changes whenever the policy may have changed (agent.PolicyInfo).
func (l *E3) PolicyVersion() uint64 { return l.version }

// Policy writes the distribution of Act's action in s: uniform over the least-tried actions of an
// unknown state; in a known state the greedy action of the plan the rule picks, the plans made on
// the side, warm-started as Act would, when they are out of date.
func (l *E3) Policy(s int, dst []float64) {
	clear(dst)
	if !l.StateKnown(s) {
		low := l.stats.Counts().N(s * l.A)
		for a := 1; a < l.A; a++ {
			low = min(low, l.stats.Counts().N(s*l.A+a))
		}
		ties := 0.0
		for a := 0; a < l.A; a++ {
			if l.stats.Counts().N(s*l.A+a) == low {
				ties++
			}
		}
		for a := 0; a < l.A; a++ {
			if l.stats.Counts().N(s*l.A+a) == low {
				dst[a] = 1 / ties
			}
		}
		return
	}
	p := &l.plan
	if l.dirty {
		p = &l.scratch
		if l.scratchAt != l.modelVersion {
			p.qx = append(p.qx[:0], l.plan.qx...)
			p.vx = append(p.vx[:0], l.plan.vx...)
			p.qe = append(p.qe[:0], l.plan.qe...)
			p.ve = append(p.ve[:0], l.plan.ve...)
			l.makePlans(p)
			l.scratchAt = l.modelVersion
		}
	}
	dst[l.choose(p, s)] = 1
}
