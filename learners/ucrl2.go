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

// UCRL2Type is UCRL2's agent type: the name a config gives it (type: ucrl2) and its errors begin
// with.
const UCRL2Type = "ucrl2"

// UCRL2Params are UCRL2's parameters; the yaml tags are the config keys.
type UCRL2Params struct {
	// Delta is the confidence parameter δ of the confidence sets (0 < δ < 1).
	Delta float64 `yaml:"delta" doc:"confidence parameter δ of the confidence sets" range:"0 < delta < 1"`
	// RMax bounds the rewards. The paper's lie in [0, 1]; here the reward width is scaled by r_max
	// and the optimistic reward clipped at r_max, which keeps the paper's guarantee when r_max is
	// at least the largest reward and at least the range of rewards (max − min): 1 for rewards in
	// [0, 1], 2 for the mazes' rewards in [−1, 1].
	RMax float64 `yaml:"r_max" doc:"bound on the rewards: at least the largest reward and the range of rewards (mazes: 2)" range:"> 0"`
	// M is the known threshold of Known and agent.Phase, a diagnostic only: UCRL2 acts on its confidence
	// sets, never on it.
	M int64 `yaml:"m" doc:"a pair counts as known after m samples (phases and TempLe's retry only)" range:">= 1"`
	// PlanTolerance bounds ‖V − Ṽ*‖∞ of each extended value iteration.
	PlanTolerance float64 `yaml:"plan_tolerance" doc:"bound on ‖V − Ṽ*‖∞ of each extended value iteration" range:"> 0"`
	// WidthScale multiplies the widths of both confidence sets, the reward bonus and the L1
	// width of transitions (1: the published widths). δ sits under a logarithm, so tuning it
	// barely moves the widths; this factor lets temple tune move them (issue 50).
	WidthScale float64 `yaml:"width_scale" doc:"factor on the widths of the confidence sets planned with, of rewards and transitions (1: the published widths; below 1 narrower, a setting for tuning; C-UCRL clusters with its own width)" range:"> 0"`
}

// DefaultUCRL2 are δ = 0.05, R_max = 1, m = 500 (as RMax's), a plan tolerance of 1e-4 and the
// published widths (scale 1). The paper reports no experiments to take δ from; 0.05 is our choice.
func DefaultUCRL2() UCRL2Params {
	return UCRL2Params{Delta: 0.05, RMax: 1, M: 500, PlanTolerance: 1e-4, WidthScale: 1}
}

// Validate names the first parameter out of range.
func (p UCRL2Params) Validate() error {
	switch {
	case !(p.Delta > 0 && p.Delta < 1):
		return fmt.Errorf("ucrl2: delta = %v, want 0 < delta < 1", p.Delta)
	case !(p.RMax > 0) || math.IsInf(p.RMax, 0):
		return fmt.Errorf("ucrl2: r_max = %v, want a finite number > 0", p.RMax)
	case p.M < 1:
		return fmt.Errorf("ucrl2: m = %d, want at least 1", p.M)
	case !(p.PlanTolerance > 0) || math.IsInf(p.PlanTolerance, 0):
		return fmt.Errorf("ucrl2: plan_tolerance = %v, want a finite number > 0", p.PlanTolerance)
	case !(p.WidthScale > 0) || math.IsInf(p.WidthScale, 0):
		return fmt.Errorf("ucrl2: width_scale = %v, want a finite number > 0", p.WidthScale)
	}
	return nil
}

// UCRL2Search is what temple tune searches of UCRL2 and C-UCRL. δ sits under a logarithm and
// barely moves the widths; width_scale multiplies them (from 1, the published widths, down to a
// hundredth), so that tuning can narrow them as it moves MBIE-EB's β (issue 50).
var UCRL2Search = agenttypes.Dims(agenttypes.LogReal("delta", 0.001, 0.5), agenttypes.LogReal("width_scale", 0.01, 1))

// UCRL2 registers as a base learner and the single-task agent ucrl2. Its PairBytes (not
// measured) are RMax's with room for its extra per-pair arrays.
func init() {
	agenttypes.Register(agenttypes.Type{Name: UCRL2Type, Display: "UCRL2", Summary: "UCRL2, optimism over L1 confidence sets (Jaksch, Ortner & Auer 2010)",
		Defaults: func() agenttypes.Params { p := DefaultUCRL2(); return &p }, PairBytes: 200, Search: UCRL2Search,
		Scales: agenttypes.Dims(agenttypes.LogReal("delta", 0.001, 0.5)), SingleTask: true, Base: true, Rank: 40})
}

// NewBase builds UCRL2 as a base learner, and New as the single-task agent ucrl2.
func (p *UCRL2Params) NewBase() (agent.Base, error) { return NewUCRL2(*p) }
func (p *UCRL2Params) New(agenttypes.Context) (agent.Agent, error) {
	return agenttypes.Single(p.NewBase())
}

// UCRL2 is UCRL2 (Jaksch, Ortner & Auer, "Near-optimal regret bounds for reinforcement
// learning", JMLR 11, 2010) on one task, as a base learner.
//
// At the start of its episode k, at step t_k of the task, UCRL2 freezes the counts N_k(s,a), the
// empirical model p̂_k and rewards r̂_k, and takes as plausible every MDP with
//
//	|r̃(s,a) − r̂_k(s,a)|     ≤ R_max·√(7·log(2·S·A·t_k/δ) / (2·max(1, N_k(s,a))))
//	‖p̃(·|s,a) − p̂_k(·|s,a)‖₁ ≤ √(14·S·log(2·A·t_k/δ) / max(1, N_k(s,a)))
//
// (the paper's confidence sets, checked against several public implementations, which agree:
// docs/decisions.md, decision 34), both widths multiplied by WidthScale (1 by default). Extended value iteration finds the optimistic policy over
// that set, which UCRL2 follows until some pair's count in the episode, ν_k(s,a), reaches
// max(1, N_k(s,a)) — the doubling rule — when a new episode begins at the next step.
//
// The runner's tasks are discounted (γ) episodes of a fixed number of steps, while the paper's
// UCRL2 maximises average reward. We plan discounted (as UCRL-γ, Lattimore & Hutter 2012 does):
// extended value iteration with γ, a γ-contraction, run to PlanTolerance; terminal states are
// planned at value 0. UCRL2's episodes are its own schedule, independent of the runner's: t counts
// every step of the task and EndEpisode does nothing.
//
// The statistics are every sample (Record keeps them all) plus counts that Augment and Replace
// add: they enter N(s,a), which shrinks the confidence widths — the construction of C-UCRL (Asadi
// et al. 2019) — and that is how templates help UCRL2. A change from Augment or Replace ends the
// episode, so the next step plans with it. The known set (agent.Stats), n(s,a) ≥ m, is a
// diagnostic threshold for phases and TempLe's retry, not part of the algorithm.
type UCRL2 struct {
	P     UCRL2Params
	S, A  int
	gamma float64
	rng   *rand.Rand
	// terminal states: planned at value 0
	terminal []bool

	stats agent.Stats // the diagnostic known set, n(s,a) ≥ m; its samples are t − 1 at the next step

	nk []int64 // N_k(s,a): the counts at the start of the current episode
	nu []int64 // ν_k(s,a): the samples of the current episode

	ended   bool // the episode is over (doubling rule, Augment or Replace): plan at the next Act
	model   mdp.Sparse
	width   []float64 // the L1 width of each pair's confidence set in the current plan
	q, v    []float64
	version uint64 // changes whenever the policy may have changed

	scratch ucrl2Scratch // Policy's plan of an episode not begun yet

	// pool, when set, makes this C-UCRL: it builds the model from pooled class profiles and may
	// leave part of a pair's mass unplaced (cucrl.go). nil for UCRL2.
	pool *equivalence
}

// ucrl2Scratch is a plan made for Policy only.
type ucrl2Scratch struct {
	model   mdp.Sparse
	width   []float64
	q, v    []float64
	version uint64 // the version it was made at; 0: none
}

var _ agent.Base = (*UCRL2)(nil)

// NewUCRL2 validates p and returns UCRL2 as a base learner (agent.Base).
func NewUCRL2(p UCRL2Params) (*UCRL2, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &UCRL2{P: p}, nil
}

// Begin starts a task with no counts; the first step begins the first episode.
func (l *UCRL2) Begin(t agent.Task) {
	l.S, l.A, l.gamma, l.rng, l.terminal = t.S, t.A, t.Gamma, t.Rand, t.Terminal
	n := t.S * t.A
	l.stats.Reset(t.S, t.A, l.P.M)
	l.nk = buf.Zeroed(l.nk, n)
	l.nu = buf.Zeroed(l.nu, n)
	l.q = buf.Zeroed(l.q, n)
	l.v = buf.Zeroed(l.v, t.S)
	l.ended = true
	l.version++
	if l.pool != nil {
		l.pool.clusteredAt = 0 // the first episode clusters
	}
}

// Act follows the optimistic policy of the episode, beginning a new episode first if the last
// one ended; ties between actions are broken at random.
func (l *UCRL2) Act(s int) int {
	if l.ended {
		l.beginEpisode()
	}
	return agent.Greedy(l.q[s*l.A:s*l.A+l.A], l.rng)
}

// beginEpisode freezes N_k, resets ν_k and plans by extended value iteration, warm-started from
// the last plan.
func (l *UCRL2) beginEpisode() {
	for i := range l.nk {
		l.nk[i] = l.stats.Counts().N(i)
	}
	clear(l.nu)
	l.width = l.build(&l.model, l.width)
	if l.pool != nil {
		l.pool.began(float64(l.stats.Samples() + 1))
	}
	l.extendedVI(&l.model, l.width, l.q, l.v)
	l.ended = false
	l.stats.Planned()
}

// build writes p̂_k and the optimistic rewards r̃ into m and returns the L1 widths, at
// t_k = samples + 1, the step about to be taken.
func (l *UCRL2) build(m *mdp.Sparse, width []float64) []float64 {
	if l.pool != nil {
		return l.pool.build(l, m, width)
	}
	S, A := float64(l.S), float64(l.A)
	tk := float64(l.stats.Samples() + 1)
	logP := math.Log(2 * A * tk / l.P.Delta)     // transitions: log(2·A·t_k/δ)
	logR := math.Log(2 * S * A * tk / l.P.Delta) // rewards: log(2·S·A·t_k/δ)
	scale := l.P.WidthScale                      // x·1 = x exactly: scale 1 is the published widths bit for bit
	// A pair of at most one sample has max(1, N) = 1: its bonus and width are the same for all.
	bonus1 := scale * (l.P.RMax * math.Sqrt(7*logR/(2*1)))
	width1 := scale * math.Sqrt(14*S*logP/1)
	counts := l.stats.Counts()
	width = width[:0]
	m.Reset(l.S, l.A)
	for i := 0; i < l.S*l.A; i++ {
		if l.terminal != nil && l.terminal[i/l.A] {
			m.AppendPair(0) // an episode ends here: Q = 0
			m.EndPair()
			width = append(width, 0)
			continue
		}
		n, r, succ := counts.Pair(i)
		if n == 0 {
			m.AppendPair(min(l.P.RMax, 0+bonus1))
			m.EndPair()
			width = append(width, width1)
			continue
		}
		nn := float64(n)
		bonus, w := bonus1, width1
		if n > 1 {
			bonus, w = scale*(l.P.RMax*math.Sqrt(7*logR/(2*nn))), scale*math.Sqrt(14*S*logP/nn)
		}
		m.AppendPair(min(l.P.RMax, r/nn+bonus))
		for _, x := range succ {
			m.AppendSuccessor(int(x.State), float64(x.N)/nn)
		}
		m.EndPair()
		width = append(width, w)
	}
	return width
}

// extendedVI runs Gauss–Seidel sweeps of discounted extended value iteration on q (indexed s·A+a),
// warm-started from its contents, until no V(s) moves by more than the stop of PlanTolerance. The
// best-valued state of the inner maximisation is the argmax of V at the start of a sweep, moved to
// any state that overtakes it during the sweep. Each pair's row of m is kept sorted by V.
func (l *UCRL2) extendedVI(m *mdp.Sparse, width, q, v []float64) {
	S, A := l.S, l.A
	for s := 0; s < S; s++ {
		v[s] = mdp.Max(q[s*A : s*A+A])
	}
	stop := mdp.StopFor(l.gamma, l.P.PlanTolerance)
	for sweep := 0; sweep < maxPlanSweeps; sweep++ {
		best := mdp.ArgMax(v)
		delta := 0.0
		for s := 0; s < S; s++ {
			if l.terminal != nil && l.terminal[s] {
				clear(q[s*A : s*A+A])
				v[s] = 0
				continue
			}
			bestQ := math.Inf(-1)
			for i := s * A; i < s*A+A; i++ {
				lo, hi := m.Start[i], m.Start[i+1]
				var x float64
				if l.pool == nil {
					x = m.R[i] + l.gamma*optimisticNext(m.Next[lo:hi], m.Prob[lo:hi], width[i], best, v)
				} else {
					x = m.R[i] + l.gamma*optimisticNextFree(m.Next[lo:hi], m.Prob[lo:hi], l.pool.free[i], width[i], best, v)
				}
				q[i] = x
				if x > bestQ {
					bestQ = x
				}
			}
			if d := math.Abs(bestQ - v[s]); d > delta {
				delta = d
			}
			v[s] = bestQ
			if bestQ > v[best] {
				best = s
			}
		}
		if delta <= stop {
			return
		}
	}
}

// optimisticNext is the inner maximisation of extended value iteration, as the paper computes it:
// max Σ p(s′)·V(s′) over the distributions p with ‖p − p̂‖₁ ≤ d. It moves d/2 of mass (at most
// what the others hold) onto the best-valued state best and takes it from the observed successors
// of lowest value; every other state keeps p̂ = 0. next and prob are p̂'s support and weights,
// reordered here by ascending V (insertion sort: the order changes little between sweeps). With
// no observed successor every distribution is plausible and all the mass goes to best.
func optimisticNext(next []int32, prob []float64, d float64, best int, v []float64) float64 {
	if len(next) == 0 {
		return v[best]
	}
	for k := 1; k < len(next); k++ {
		n, p, x := next[k], prob[k], v[next[k]]
		j := k
		for ; j > 0 && v[next[j-1]] > x; j-- {
			next[j], prob[j] = next[j-1], prob[j-1]
		}
		next[j], prob[j] = n, p
	}
	x, pBest := 0.0, 0.0
	for k, s := range next {
		x += prob[k] * v[s]
		if int(s) == best {
			pBest = prob[k]
		}
	}
	add := d / 2
	if add > 1-pBest {
		add = 1 - pBest
	}
	x += add * v[best]
	for k := 0; add > 0 && k < len(next); k++ {
		if int(next[k]) == best {
			continue
		}
		take := prob[k]
		if take > add {
			take = add
		}
		x -= take * v[next[k]]
		add -= take
	}
	return x
}

// Record keeps the sample of pair i (UCRL2 learns from all) and ends the episode when ν_k(s,a)
// reaches max(1, N_k(s,a)).
func (l *UCRL2) Record(i, next int, r float64) bool {
	l.stats.Record(i, next, r)
	l.nu[i]++
	if l.nu[i] >= max(1, l.nk[i]) || l.ended {
		l.endEpisode()
	}
	return true
}

// endEpisode ends the episode, or, when it has already ended, marks the plan the next Act makes
// as changed: the statistics it will be made from changed, so Policy's plan on the side is stale.
func (l *UCRL2) endEpisode() {
	l.ended = true
	l.version++
}

// EndEpisode does nothing: UCRL2's episodes follow the doubling rule, not the runner's episodes.
func (l *UCRL2) EndEpisode() {}

// Augment adds counts that are not pair i's own samples (they shrink its confidence set) and
// ends the episode.
func (l *UCRL2) Augment(i int, add []mdp.Succ, reward float64) {
	l.stats.Augment(i, add, reward)
	l.endEpisode()
}

// Replace sets pair i's statistics to the given counts and reward sum and ends the episode.
func (l *UCRL2) Replace(i int, succ []mdp.Succ, reward float64) {
	l.stats.Replace(i, succ, reward)
	l.endEpisode()
}

// Stats are the learner's statistics of the task; its known set is the diagnostic n(s,a) ≥ m.
func (l *UCRL2) Stats() *agent.Stats { return &l.stats }

// KnownThreshold is m, the diagnostic threshold of the known set.
func (l *UCRL2) KnownThreshold() int64 { return l.P.KnownThreshold() }

// KnownThreshold is m: a pair counts as known after m samples.
func (p UCRL2Params) KnownThreshold() int64 { return p.M }

// ObserveTerminal marks s terminal and ends the episode, so that the next action is planned with
// s at value 0 (agent.TerminalObserver).
func (l *UCRL2) ObserveTerminal(s int) {
	if l.terminal == nil || !l.terminal[s] {
		l.terminal = agent.WithTerminal(l.terminal, l.S, s)
		l.endEpisode()
	}
}

// PolicyVersion changes whenever the policy may have changed: when an episode ends, and at every
// change of the statistics after it ended (the next plan changes with them).
func (l *UCRL2) PolicyVersion() uint64 { return l.version }

// Policy writes the distribution of Act's action in s: uniform over the actions of greatest
// optimistic value. When the episode has ended, the plan the next Act would make is made on the
// side, warm-started as Act would, and the learner is left unchanged.
func (l *UCRL2) Policy(s int, dst []float64) {
	q := l.q
	if l.ended {
		sp := &l.scratch
		if sp.version != l.version {
			sp.q = append(sp.q[:0], l.q...)
			sp.v = append(sp.v[:0], l.v...)
			sp.width = l.build(&sp.model, sp.width)
			l.extendedVI(&sp.model, sp.width, sp.q, sp.v)
			sp.version = l.version
		}
		q = sp.q
	}
	agent.UniformGreedy(q[s*l.A:s*l.A+l.A], dst)
}
