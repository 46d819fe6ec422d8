package baseline

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// FMRLType is FMRL's agent type: the name a config gives it (type: fmrl) and its errors begin with.
const FMRLType = "fmrl"

// FMRLParams are FMRL's parameters.
type FMRLParams struct {
	// RMax is the base learner: known threshold m, R_max, action rule, plan tolerance.
	RMax learners.RMaxParams `yaml:",inline"`
	// Ms is m_s: the model distance compares only the pairs that both models have at least m_s
	// samples of. m_s = 1 compares every pair visited in both.
	Ms int64 `yaml:"m_s" doc:"m_s: the model distance compares only the pairs both models have at least m_s samples of" range:"1 <= m_s <= m"`
	// T1 is the number of phase-1 tasks whose models are clustered.
	T1 int `yaml:"t1" doc:"number of phase-1 tasks T_1 whose models are clustered" range:">= 1"`
	// ModelGap is Γ: a phase-1 model joins the closest group within Γ.
	ModelGap float64 `yaml:"model_gap" doc:"model gap Γ: a phase-1 model joins the closest group within Γ" range:">= 0"`
	// Delta is δ, the error probability of each pairwise elimination.
	Delta float64 `yaml:"delta" doc:"δ, the error probability of each pairwise elimination" range:"0 < delta < 1"`
	// Xi is ξ, the assumed informativeness of the tested pairs: the elimination of candidate
	// pairs needs evidence c ≥ ln(1/δ)/ξ (see FMRL).
	Xi float64 `yaml:"xi" doc:"ξ, the assumed informativeness of the tested pairs: a candidate falls after evidence ln(1/δ)/ξ" range:"> 0"`
}

// DefaultFMRL are the paper's settings (decisions 15, 18): m = 500, m_s = 50, T1 = 15, Γ = 0.6,
// and the published δ = 0.01 and ξ = 0.2.
func DefaultFMRL() FMRLParams {
	return FMRLParams{RMax: learners.DefaultRMax(), Ms: 50, T1: 15, ModelGap: 0.6, Delta: 0.01, Xi: 0.2}
}

// Validate names the first parameter out of range.
func (p FMRLParams) Validate() error {
	if err := p.RMax.Validate(); err != nil {
		return fmt.Errorf("fmrl: %w", err)
	}
	switch {
	case p.Ms < 1 || p.Ms > p.RMax.M:
		return fmt.Errorf("fmrl: m_s = %d, want 1 <= m_s <= m = %d", p.Ms, p.RMax.M)
	case p.T1 < 1:
		return fmt.Errorf("fmrl: t1 = %d, want at least 1", p.T1)
	case !(p.ModelGap >= 0) || math.IsInf(p.ModelGap, 0):
		return fmt.Errorf("fmrl: model_gap = %v, want a finite number >= 0", p.ModelGap)
	case !(p.Delta > 0 && p.Delta < 1):
		return fmt.Errorf("fmrl: delta = %v, want 0 < delta < 1", p.Delta)
	case !(p.Xi > 0) || math.IsInf(p.Xi, 0):
		return fmt.Errorf("fmrl: xi = %v, want a finite number > 0", p.Xi)
	}
	return nil
}

// FMRL registers with RMax's search space (its base is RMax by definition) and its own. Its
// PairBytes are measured on 100×100 mazes, as RMax's.
func init() {
	agenttypes.Register(agenttypes.Type{Name: FMRLType, Display: "FMRL", Summary: "finite-model RL (Brunskill & Li 2013), the paper's finite-model baseline",
		Defaults: func() agenttypes.Params { p := DefaultFMRL(); return &p }, PairBytes: 280,
		Search: agenttypes.Join(learners.RMaxSearch, agenttypes.LogInt("m_s", 1, 500), agenttypes.LogReal("model_gap", 0.01, 2)),
		Scales: agenttypes.Dims(agenttypes.LogReal("xi", 0.01, 10), agenttypes.LogInt("t1", 1, 100)),
		Needs:  agenttypes.Needs{SameStates: true, SameActions: true, Why: "it clusters whole task models, pair by pair"}, Rank: 170})
}

// New builds FMRL.
func (p *FMRLParams) New(agenttypes.Context) (agent.Agent, error) { return NewFMRL(*p) }

// MemoryBytes is RMax's and the models of FMRL's T_1 phase-1 tasks.
func (p *FMRLParams) MemoryBytes(typeBytes, S, A, _ int64) int64 {
	return (typeBytes + int64(p.T1)*agenttypes.RecordPairBytes) * S * A
}

// groupModel is a group's counts with the estimates phase 2 compares transitions with, sparse:
// the observed successors of pair i are next[start[i]:start[i+1]] in ascending state order, with
// P̂_g(s′|s,a) in p.
type groupModel struct {
	counts *mdp.Counts
	n      []int64 // n_g(s,a)
	start  []int32
	next   []int32
	p      []float64
	r      []float64 // R̂_g(s,a)
	sq     []float64 // ‖P̂_g(·|s,a)‖₂²
	w      []float64 // confidence width of the pair's estimate, +Inf without data
}

// row returns the successors of pair i and their probabilities, by ascending state.
func (g *groupModel) row(i int) ([]int32, []float64) {
	lo, hi := g.start[i], g.start[i+1]
	return g.next[lo:hi], g.p[lo:hi]
}

// prob is P̂_g(s′|s,a) of pair i.
func (g *groupModel) prob(i int, next int32) float64 {
	states, p := g.row(i)
	if k, ok := slices.BinarySearch(states, next); ok {
		return p[k]
	}
	return 0
}

// addL1 adds ‖P̂_x(·|s,a) − P̂_y(·|s,a)‖₁ of pair i to sum term by term in state order.
func addL1(sum float64, x, y *groupModel, i int) float64 {
	xs, xp := x.row(i)
	ys, yp := y.row(i)
	a, b := 0, 0
	for a < len(xs) || b < len(ys) {
		switch {
		case b == len(ys) || a < len(xs) && xs[a] < ys[b]:
			sum += xp[a]
			a++
		case a == len(xs) || ys[b] < xs[a]:
			sum += yp[b]
			b++
		default:
			sum += math.Abs(xp[a] - yp[b])
			a, b = a+1, b+1
		}
	}
	return sum
}

// FMRL is finite-model RL (Brunskill & Li, "Sample complexity of multi-task reinforcement
// learning", UAI 2013) as decided for this project (decisions 15 and 16; the published code's variant,
// MultiTaskRMaxAgent, differs as docs/decisions.md says).
//
// Phase 1, tasks 1..T1: single-task RMax with known threshold m on every pair. At the end of each
// of these tasks its counts n(s,a), n(s,a,s′), R(s,a) are stored as a model record. (The published
// code ran phase 1 with threshold m_s until every pair was known and then raised it to m; that is
// an implementation detail of theirs and is not reproduced.)
//
// End of task T1: the records are clustered in order: a record joins the single closest group
// within Γ — ties to the lowest group index — and its counts are added to the group's; otherwise
// it starts a new group (decision 11). The distance between a record x and a group g is
//
//	D(x,g) = max over pairs with n_x(s,a) ≥ m_s and n_g(s,a) ≥ m_s of
//	         ‖P̂_x(·|s,a) − P̂_g(·|s,a)‖₂ + |R̂_x(s,a) − R̂_g(s,a)|
//
// in natural state order; without such a pair the two are not comparable and x does not join g.
//
// Phase 2, tasks after T1: a fresh RMax learner with threshold m; every group is a candidate.
// On every transition (s,a,r,s′) while more than one candidate remains, each pair of surviving
// candidates (i,j) is tested with its own statistics c_ij and Δ_ij (never shared between pairs).
// With μ_g = (P̂_g(·|s,a), R̂_g(s,a)), z = (one-hot(s′), r) and L = ‖μ_i − μ_j‖₁, the pair is
// tested only if both groups have data for (s,a) and L ≥ w_i + w_j, where
//
//	w_g = √(2·ln(2/δ) / n_g(s,a))
//
// is Hoeffding's half-width for an average of n_g samples of range 2 — the L1 diameter of the
// probability simplex — used as a proxy for the L1 error of the group's estimate (a strict L1
// bound would add S·ln 2 to the logarithm and skip nearly every pair at the sample sizes of the
// experiments). Differences smaller than the groups' own estimation error say nothing about which
// group is right, and testing them lets estimation noise decide. A tested pair accumulates
//
//	c_ij += L²/4,   Δ_ij += ‖μ_i − z‖₂² − ‖μ_j − z‖₂²,
//
// and once c_ij ≥ ln(1/δ)/ξ the test decides: i is eliminated if Δ_ij > 0, else j.
//
// Why that bound: if j is the true model, each Δ increment has mean ‖μ_i − μ_j‖₂² and, with
// rewards within 1 of their mean, deviates from it by at most 2L. If the tested pairs satisfy
// ‖μ_i − μ_j‖₂² ≥ η·L², Ville's inequality for the supermartingale exp(λ·(M − Δ) − 8λ²c), M the
// sum of the increments' means, with λ = η/4 shows that Δ_ij ≤ 0 at any time with
// c_ij ≥ 2·ln(1/δ)/η² has probability at most δ. Hence ξ = η²/2. The default ξ = 0.2 (the
// published value, reinterpreted) means η ≈ 0.63: it fits models that differ mainly in a reward
// (η ≈ 1), as the goal-dependent tasks of the finite-model experiments do; probability mass moved
// between two successors has η = 1/2, for which ξ = 0.125 is the sound value. The group estimates
// are taken as the true models.
//
// When exactly one candidate survives it is identified: every pair of the learner is augmented
// with the group's counts and reward sum, so pairs with n ≥ m become known, and learning continues
// as RMax. (Pairwise elimination always leaves one candidate; if none were left, the task would
// simply continue as RMax.) If the surviving candidates never differ by more than their widths on
// the pairs visited — two groups of the same model, for instance — nothing is identified and the
// task runs as plain RMax. With a single group the task is identified before its first step.
// Groups do not change in phase 2.
type FMRL struct {
	p       FMRLParams
	l       learners.RMax
	S, A    int
	task    int // tasks begun
	records []*mdp.Counts
	groups  []*groupModel
	bound   float64 // evidence c_ij needed for a decision

	// phase 2, per task
	alive           []bool
	nAlive          int
	c, delta        []float64 // per candidate pair (i,j), i<j, at i*G+j
	identified      int       // surviving group, −1 while undecided
	identifiedAfter int64     // steps of the task before identification, −1 while undecided
	steps           int64
}

// NewFMRL validates p and returns the agent.
func NewFMRL(p FMRLParams) (*FMRL, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &FMRL{p: p, l: learners.RMax{P: p.RMax}, bound: math.Log(1/p.Delta) / p.Xi, identified: -1, identifiedAfter: -1}, nil
}

func (f *FMRL) phase2() bool { return f.task > f.p.T1 }

// Groups is the number of model groups (0 before the end of task T1).
func (f *FMRL) Groups() int { return len(f.groups) }

// GroupCounts are the counts of group g; they are owned by the agent.
func (f *FMRL) GroupCounts(g int) *mdp.Counts { return f.groups[g].counts }

// Identified is the group identified in the current task, or −1.
func (f *FMRL) Identified() int { return f.identified }

// Learner is the current task's RMax learner.
func (f *FMRL) Learner() *learners.RMax { return &f.l }

func (f *FMRL) BeginTask(t agent.Task) error {
	if t.S < 1 || t.A < 1 {
		return fmt.Errorf("fmrl: task %d has S=%d A=%d, want at least one state and one action", t.Index, t.S, t.A)
	}
	if t.Rand == nil {
		return fmt.Errorf("fmrl: task %d has no random stream", t.Index)
	}
	if f.task > 0 && (t.S != f.S || t.A != f.A) {
		return fmt.Errorf("fmrl: task %d has S=%d A=%d, the earlier tasks have S=%d A=%d; FMRL needs one state and action space", t.Index, t.S, t.A, f.S, f.A)
	}
	f.S, f.A = t.S, t.A
	f.task++
	f.l.Begin(t)
	f.identified, f.identifiedAfter, f.steps = -1, -1, 0
	if !f.phase2() {
		return nil
	}
	G := len(f.groups)
	f.alive = buf.Zeroed(f.alive, G)
	for g := range f.alive {
		f.alive[g] = true
	}
	f.nAlive = G
	f.c = buf.Zeroed(f.c, G*G)
	f.delta = buf.Zeroed(f.delta, G*G)
	if G == 1 {
		f.identify(0)
	}
	return nil
}

func (f *FMRL) Act(s int) int { return f.l.Act(s) }

// ObserveTerminal marks s terminal in the RMax learner (agent.TerminalObserver).
func (f *FMRL) ObserveTerminal(s int) { f.l.ObserveTerminal(s) }

// Phase is its RMax learner's phase of s: exploring while an action of s is unknown, known model
// otherwise — including pairs known through the identified group's counts. FMRL has no τ̂ to
// judge a transferred estimate by, so a wrong group's regret stays under known model (StepInfo).
func (f *FMRL) Phase(s int) agent.Phase { return f.l.Stats().Phase(s) }

// PolicyVersion and Policy are its RMax learner's (agent.PolicyInfo).
func (f *FMRL) PolicyVersion() uint64       { return f.l.PolicyVersion() }
func (f *FMRL) Policy(s int, dst []float64) { f.l.Policy(s, dst) }

func (f *FMRL) Observe(s, a int, r float64, next int) {
	f.steps++
	i := s*f.A + a
	f.l.Record(i, next, r)
	if !f.phase2() || f.identified >= 0 || f.nAlive < 2 {
		return
	}
	f.eliminate(i, r, next)
	if f.nAlive == 1 {
		for g, ok := range f.alive {
			if ok {
				f.identify(g)
			}
		}
	}
}

// eliminate runs the pairwise test on the transition of pair i to next with reward r.
func (f *FMRL) eliminate(i int, r float64, next int) {
	G := len(f.groups)
	for gi := 0; gi < G; gi++ {
		if !f.alive[gi] {
			continue
		}
		x := f.groups[gi]
		if x.n[i] == 0 {
			continue
		}
		for gj := gi + 1; gj < G && f.alive[gi]; gj++ {
			y := f.groups[gj]
			if !f.alive[gj] || y.n[i] == 0 {
				continue
			}
			L := addL1(math.Abs(x.r[i]-y.r[i]), x, y, i)
			if L < x.w[i]+y.w[i] {
				continue
			}
			k := gi*G + gj
			f.c[k] += L * L / 4
			dx, dy := x.r[i]-r, y.r[i]-r
			px, py := x.prob(i, int32(next)), y.prob(i, int32(next))
			f.delta[k] += (x.sq[i] - 2*px + 1 + dx*dx) - (y.sq[i] - 2*py + 1 + dy*dy)
			if f.c[k] < f.bound {
				continue
			}
			if f.delta[k] > 0 {
				f.alive[gi] = false
			} else {
				f.alive[gj] = false
			}
			f.nAlive--
		}
	}
}

// identify hands group g's counts to the learner.
func (f *FMRL) identify(g int) {
	f.identified, f.identifiedAfter = g, f.steps
	c := f.groups[g].counts
	for i := 0; i < f.S*f.A; i++ {
		if c.N(i) > 0 {
			f.l.Augment(i, c.Successors(i), c.R(i))
		}
	}
}

func (f *FMRL) EndEpisode() {}

// EndTask stores the model record of a phase-1 task and clusters the records after task T1.
func (f *FMRL) EndTask() {
	if f.phase2() {
		return
	}
	f.records = append(f.records, f.l.Stats().Counts().Clone())
	if f.task == f.p.T1 {
		f.group()
	}
}

// group clusters the phase-1 records (decision 11) and prepares the groups' estimates.
func (f *FMRL) group() {
	f.groups = f.groups[:0]
	for _, c := range mdp.GroupModels(f.records, f.p.ModelGap, f.p.Ms) {
		f.groups = append(f.groups, newGroupModel(c, f.p.Delta))
	}
	f.records = nil
}

func newGroupModel(c *mdp.Counts, delta float64) *groupModel {
	n := c.S * c.A
	g := &groupModel{
		counts: c, n: make([]int64, n), start: make([]int32, n+1),
		r: make([]float64, n), sq: make([]float64, n), w: make([]float64, n),
	}
	logTerm := 2 * math.Log(2/delta)
	var row []mdp.Succ
	for i := 0; i < n; i++ {
		g.n[i] = c.N(i)
		g.start[i+1] = g.start[i]
		if g.n[i] == 0 {
			g.w[i] = math.Inf(1)
			continue
		}
		nn := float64(g.n[i])
		row = append(row[:0], c.Successors(i)...)
		slices.SortFunc(row, func(a, b mdp.Succ) int { return cmp.Compare(a.State, b.State) })
		for _, x := range row {
			p := float64(x.N) / nn
			g.next, g.p = append(g.next, x.State), append(g.p, p)
			g.sq[i] += p * p
		}
		g.start[i+1] = int32(len(g.next))
		g.r[i] = c.R(i) / nn
		g.w[i] = math.Sqrt(logTerm / nn)
	}
	return g
}

// TaskMetrics reports the phase (1 or 2), the number of groups, whether and which group was
// identified and after how many steps of the task (−1 if not), the candidates left, and the
// learner's known pairs.
func (f *FMRL) TaskMetrics() []agent.Metric {
	phase, id, left := 1.0, 0.0, 0.0
	if f.phase2() {
		phase, left = 2, float64(f.nAlive)
	}
	if f.identified >= 0 {
		id = 1
	}
	return []agent.Metric{
		{Name: "phase", Value: phase},
		{Name: "groups", Value: float64(len(f.groups))},
		{Name: "identified", Value: id},
		{Name: "identified_group", Value: float64(f.identified)},
		{Name: "identified_after_steps", Value: float64(f.identifiedAfter)},
		{Name: "candidates_left", Value: left},
		{Name: "known_pairs", Value: float64(f.l.Stats().KnownPairs())},
		{Name: "samples_recorded", Value: float64(f.l.Stats().Samples())},
	}
}
