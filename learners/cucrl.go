package learners

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// ClusterWidth is the confidence width ApproxEquivalence gives a class of n samples.
type ClusterWidth string

const (
	// PaperWidth is the paper's ε(n) = W_n(δ/(3SA)), the time-uniform L1 bound
	// W_n(δ) = √(2(1 + 1/n)·log(√(n+1)·(2^S − 2)/δ)/n) (Asadi et al. 2019, the section on unknown
	// classes; docs/decisions.md, decision 27, says where we read it).
	PaperWidth ClusterWidth = "paper"
	// InverseSqrtWidth is 1/√n, about what StatisticalRL's UCRL_SA clusters with (its confP
	// starts at 1 and is multiplied down by √(N/(N+1)) and a ratio of logarithms near 1 at each
	// sample). Not the paper's: an option for the side-by-side runs.
	InverseSqrtWidth ClusterWidth = "inverse-sqrt"
)

// Recluster is when C-UCRL runs ApproxEquivalence.
type Recluster string

const (
	// ReclusterEveryEpisode clusters at the start of every episode, as the paper and both public
	// codes do.
	ReclusterEveryEpisode Recluster = "every-episode"
	// ReclusterDoubling clusters at the start of an episode only when t_k has at least doubled
	// since the last clustering (t_k = 1, 2, 4, …: about log₂ T clusterings in T steps instead of
	// one an episode). In between, the classes are kept and pooled anew from the current counts,
	// and a pair visited since the last clustering is a class of its own. Not the paper's: an
	// option for speed (docs/decisions.md, decision 38).
	ReclusterDoubling Recluster = "doubling"
)

// PlanningWidth is the L1 width of the transition confidence sets C-UCRL plans with.
type PlanningWidth string

const (
	// PaperPlanningWidth is the paper's W_{n_c}(δ/(3SA)) at the class's count n_c (its
	// confidence set (16) for unknown classes), the width ApproxEquivalence clusters with.
	PaperPlanningWidth PlanningWidth = "paper"
	// UCRL2PlanningWidth is UCRL2's √(14·S·log(2·A·t_k/δ)/n_c): temple's C-UCRL before issue 54,
	// kept for comparison (a class of one pair is then exactly UCRL2's confidence set). Its value,
	// planning_width: ucrl2, is UCRL2's type name.
	UCRL2PlanningWidth PlanningWidth = UCRL2Type
)

// CUCRLType is C-UCRL's agent type: the name a config gives it (type: c-ucrl) and its errors begin
// with.
const CUCRLType = "c-ucrl"

// CUCRLParams are C-UCRL's parameters: UCRL2's and those of ApproxEquivalence.
type CUCRLParams struct {
	UCRL2Params `yaml:",inline"`
	// Epsilon is a slack ε added to ApproxEquivalence's tests: two profiles are statistically close
	// when their L1 distance is at most ε plus both widths (0: the paper's test).
	Epsilon float64 `yaml:"epsilon" doc:"slack ε added to ApproxEquivalence's tests ‖p̂ − p̂′‖₁ ≤ ε + ε(n) + ε(n′) (0: the paper's)" range:">= 0"`
	// Alpha is the paper's α: two classes merge only when their mean counts per pair are within a
	// factor α of each other. 0 is α → ∞, no such limit: the choice of the paper's Proposition 1
	// (ApproxEquivalence finds the true classes) and of Bourel's C_UCRL; the paper's experiments
	// use α = 4.
	Alpha float64 `yaml:"alpha" doc:"α of ApproxEquivalence: classes merge only when their samples per pair are within a factor α (the paper's experiments: 4); 0 for α → ∞, no limit (its Proposition 1)" range:"0 or > 1"`
	// Width is the clustering width ε(n): the paper's or 1/√n.
	Width ClusterWidth `yaml:"width" doc:"clustering width ε(n): the paper's W_n(δ/(3SA)), or 1/√n (about StatisticalRL's UCRL_SA)" range:"paper | inverse-sqrt"`
	// Recluster is when ApproxEquivalence runs: every episode (the paper) or when t_k doubles.
	Recluster Recluster `yaml:"recluster" doc:"when to cluster: at every episode's start (the paper), or only when t has doubled since the last clustering, pooling the kept classes anew in between (faster; not the paper's)" range:"every-episode | doubling"`
	// PlanningWidth is the L1 width of the transition confidence sets at n_c: the paper's or
	// UCRL2's.
	PlanningWidth PlanningWidth `yaml:"planning_width" doc:"L1 width of the transition confidence sets C-UCRL plans with, at a class's count n_c: the paper's W_{n_c}(δ/(3SA)), or UCRL2's √(14·S·log(2·A·t/δ)/n_c) (temple's C-UCRL before issue 54)" range:"paper | ucrl2"`
}

// DefaultCUCRL are UCRL2's defaults, ε = 0, α → ∞, the paper's widths for clustering and
// planning, and a clustering at every episode.
func DefaultCUCRL() CUCRLParams {
	return CUCRLParams{UCRL2Params: DefaultUCRL2(), Width: PaperWidth, Recluster: ReclusterEveryEpisode,
		PlanningWidth: PaperPlanningWidth}
}

// Validate names the first parameter out of range.
func (p CUCRLParams) Validate() error {
	if err := p.UCRL2Params.Validate(); err != nil {
		return fmt.Errorf("c-ucrl: %w", err)
	}
	switch {
	case !(p.Epsilon >= 0) || math.IsInf(p.Epsilon, 0):
		return fmt.Errorf("c-ucrl: epsilon = %v, want a finite number >= 0", p.Epsilon)
	case p.Alpha != 0 && (!(p.Alpha > 1) || math.IsInf(p.Alpha, 0)):
		return fmt.Errorf("c-ucrl: alpha = %v, want 0 (no limit) or a finite number > 1", p.Alpha)
	case p.Width != PaperWidth && p.Width != InverseSqrtWidth:
		return fmt.Errorf("c-ucrl: width %q, want %q or %q", p.Width, PaperWidth, InverseSqrtWidth)
	case p.Recluster != ReclusterEveryEpisode && p.Recluster != ReclusterDoubling:
		return fmt.Errorf("c-ucrl: recluster %q, want %q or %q", p.Recluster, ReclusterEveryEpisode, ReclusterDoubling)
	case p.PlanningWidth != PaperPlanningWidth && p.PlanningWidth != UCRL2PlanningWidth:
		return fmt.Errorf("c-ucrl: planning_width %q, want %q or %q", p.PlanningWidth, PaperPlanningWidth, UCRL2PlanningWidth)
	}
	return nil
}

// C-UCRL registers as a base learner and the single-task agent c-ucrl. Its PairBytes (not
// measured) are UCRL2's with room for its sorted profiles and classes.
func init() {
	agenttypes.Register(agenttypes.Type{Name: CUCRLType, Display: "C-UCRL", Summary: "C-UCRL with ApproxEquivalence (Asadi et al. 2019): UCRL2 pooling pairs with equal sorted transition profiles",
		Defaults: func() agenttypes.Params { p := DefaultCUCRL(); return &p }, PairBytes: 240,
		Search:     agenttypes.Join(UCRL2Search, agenttypes.LinReal("epsilon", 0, 0.5)),
		Scales:     agenttypes.Dims(agenttypes.Choice("planning_width", string(PaperPlanningWidth), string(UCRL2PlanningWidth))),
		SingleTask: true, Base: true, Rank: 60})
}

// NewBase builds C-UCRL as a base learner, and New as the single-task agent c-ucrl.
func (p *CUCRLParams) NewBase() (agent.Base, error) { return NewCUCRL(*p) }
func (p *CUCRLParams) New(agenttypes.Context) (agent.Agent, error) {
	return agenttypes.Single(p.NewBase())
}

// NewCUCRL validates p and returns the C-UCRL base learner (agent.NewSingle makes it the single-task
// agent): UCRL2 whose confidence sets pool the samples of pairs that ApproxEquivalence puts in one
// class (Asadi, Talebi, Bourel & Maillard, "Model-based reinforcement learning exploiting
// state-action equivalence", ACML 2019, arXiv 1910.04077).
//
// Two pairs are equivalent when their next-state distributions are equal up to a permutation of
// next states: sorted in decreasing order ("profiles"), they are the same vector — a TempLe
// template. At the start of every episode (t_k) C-UCRL
//
//  1. sorts each visited pair's counts in decreasing order (ties by state), its empirical profile
//     and its profile mapping σ̂_i (rank k → state);
//  2. clusters the visited pairs by ApproxEquivalence (the paper's Algorithm): from singletons,
//     rounds over the classes in decreasing count n(c); each class c merges with its statistically
//     closest neighbour c′ — the one of least d(c, c′) among those with d(c, c′) ≤ 0, d(j, j′) ≤ 0
//     for every j ∈ c, j′ ∈ c′, and d(j, c ∪ c′) ≤ 0 for every j ∈ c ∪ c′ — when their samples per
//     pair are within a factor α (no limit by default); until a round merges nothing. Here
//     d(x, y) = ‖p̂(x) − p̂(y)‖₁ − ε − ε(n(x)) − ε(n(y)) on pooled profiles;
//  3. pools each class: n_c = Σ N_j and rank counts P_c(k) = Σ_j N_j·sort p̂_j(k) (eq. (13));
//  4. gives pair i the class profile through its own mapping, p̃_i(σ̂_i(k)) = P_c(k)/n_c for the
//     ranks k it has seen, and the L1 width W_{n_c}(δ/(3SA)) of the paper's confidence set (16)
//     (PlanningWidth ucrl2: UCRL2's width with n_c in place of N_i); the mass of ranks it has not
//     seen (its next state is unknown) goes to the best state, as optimism allows any;
//  5. plans by UCRL2's discounted extended value iteration and follows the plan until UCRL2's
//     doubling rule ends the episode. (The paper also ends an episode when a class's samples in
//     it reach max(1, n_c); that never comes first, since a class holds visited pairs only and
//     Σ ν_j < Σ N_j while every ν_j < N_j.)
//
// Rewards stay each pair's own (UCRL2's estimate and width): the paper's ApproxEquivalence and
// confidence sets are of transitions, its C-UCRL taking the mean rewards as known. Pairs not
// visited yet, and terminal states, are planned as UCRL2 plans them. WidthScale multiplies the
// planning widths (reward bonus and L1 width), not the clustering's. With PlanningWidth ucrl2 a
// class of one pair gives UCRL2's confidence set, and C-UCRL differs from UCRL2 only where pairs
// pool. Our decisions are in docs/decisions.md (27 and 47): the paper's width at n_c, rewards
// per pair, discounted planning as UCRL2 here, and the free mass of unseen ranks.
func NewCUCRL(p CUCRLParams) (*UCRL2, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &UCRL2{P: p.UCRL2Params, pool: &equivalence{CUCRLParams: p}}, nil
}

// equivalence is C-UCRL's part of a UCRL2 learner: ApproxEquivalence's classes and the pooled
// model built from them at each episode's start.
type equivalence struct {
	CUCRLParams

	sorted []mdp.Succ // each visited pair's successors by decreasing count: σ̂_i and its profile
	ranks  []int64    // the same counts alone by rank
	shares []float64  // and divided by N_i: the pairs' empirical profiles
	start  []int      // pair i's sorted successors are sorted[start[i]:start[i+1]]
	// Classes are named by the index of a pair of theirs; the arrays below are indexed by pair.
	class     []int32     // pair → its class; −1: not clustered (unvisited or terminal)
	pooled    [][]int64   // class → P_c(k), the pooled counts by rank
	profiles  [][]float64 // class → P_c(k)/n_c, its pooled profile
	nc        []int64     // class → n_c at the episode's start
	free      []float64   // pair → the mass of ranks it has not seen, placed optimistically
	members   [][]int32   // class → its pairs
	pairWidth []float64   // pair → ε(N_i)
	width     []float64   // class → ε(n_c)

	order      []int32     // the live classes, by decreasing count in a round
	cands      []candidate // Near's candidates
	union      []int64     // P_c + P_c′ of a tentative merge
	unionShare []float64   // over n_c + n_c′
	logW       float64     // log((2^S − 2)·3SA/δ), the constant of the paper's width

	// recluster: doubling keeps the partition of the last clustering of an episode begun (not of
	// Policy's plans on the side, which leave the learner unchanged) and the t_k it was made at.
	clustered   bool    // this build clustered (rather than pooled the kept partition)
	partition   []int32 // pair → its class at the last clustering; −1: none
	clusteredAt float64 // t_k of the last clustering; 0: none in this task
}

// candidate is a neighbour c′ of a cluster and d(c, c′).
type candidate struct {
	d  float64
	id int32
}

// build is UCRL2's build for C-UCRL: it clusters, pools, and writes the model, the optimistic
// rewards and the L1 widths, filling e.free.
func (e *equivalence) build(l *UCRL2, m *mdp.Sparse, width []float64) []float64 {
	n := l.S * l.A
	S, A := float64(l.S), float64(l.A)
	tk := float64(l.stats.Samples() + 1)
	logP := math.Log(2 * A * tk / l.P.Delta)     // transitions: log(2·A·t_k/δ)
	logR := math.Log(2 * S * A * tk / l.P.Delta) // rewards
	scale := l.P.WidthScale                      // x·1 = x exactly: scale 1 is the published widths
	e.setLogW(l)
	e.sortProfiles(l)
	e.clustered = e.Recluster != ReclusterDoubling || e.clusteredAt == 0 || tk >= 2*e.clusteredAt
	if e.clustered {
		e.cluster(l)
	} else {
		e.repool(l)
	}

	width = width[:0]
	e.free = e.free[:0]
	m.Reset(l.S, l.A)
	for i := 0; i < n; i++ {
		if l.terminal != nil && l.terminal[i/l.A] {
			m.AppendPair(0) // an episode ends here: Q = 0
			m.EndPair()
			width, e.free = append(width, 0), append(e.free, 0)
			continue
		}
		own := l.stats.Counts().N(i)
		rHat := 0.0
		if own > 0 {
			rHat = l.stats.Counts().R(i) / float64(own)
		}
		m.AppendPair(math.Min(l.P.RMax, rHat+scale*(l.P.RMax*math.Sqrt(7*logR/(2*float64(max(1, own)))))))
		nPool, free := own, 0.0
		c := e.class[i]
		if c >= 0 {
			nPool = e.nc[c]
			placed := int64(0)
			for k, x := range e.sorted[e.start[i]:e.start[i+1]] {
				pk := e.pooled[c][k]
				m.AppendSuccessor(int(x.State), float64(pk)/float64(nPool))
				placed += pk
			}
			free = float64(nPool-placed) / float64(nPool)
		}
		m.EndPair()
		w := math.Sqrt(14 * S * logP / float64(max(1, nPool))) // UCRL2's, and an unvisited pair's
		if c >= 0 && e.PlanningWidth == PaperPlanningWidth {
			w = e.paperWidth(nPool)
		}
		width = append(width, scale*w)
		e.free = append(e.free, free)
	}
	return width
}

// sortProfiles writes each pair's successors in decreasing count, equal counts by ascending state
// (the order of template.Ranking), and their counts by rank, the pair's profile.
func (e *equivalence) sortProfiles(l *UCRL2) {
	n := l.S * l.A
	e.sorted = e.sorted[:0]
	e.ranks = e.ranks[:0]
	e.shares = e.shares[:0]
	e.start = append(e.start[:0], 0)
	for i := 0; i < n; i++ {
		at := len(e.sorted)
		for _, x := range l.stats.Counts().Successors(i) {
			if x.N > 0 {
				e.sorted = append(e.sorted, x)
			}
		}
		slices.SortFunc(e.sorted[at:], func(a, b mdp.Succ) int {
			if c := cmp.Compare(b.N, a.N); c != 0 {
				return c
			}
			return cmp.Compare(a.State, b.State)
		})
		n := float64(l.stats.Counts().N(i))
		for _, x := range e.sorted[at:] {
			e.ranks = append(e.ranks, x.N)
			e.shares = append(e.shares, float64(x.N)/n)
		}
		e.start = append(e.start, len(e.sorted))
	}
}

// repool pools the classes of the kept partition from the current counts (recluster: doubling,
// between clusterings): n_c and P_c(k) as cluster makes them, over the class's pairs still
// visited and not terminal; a pair visited since the last clustering is a class of its own.
func (e *equivalence) repool(l *UCRL2) {
	n := l.S * l.A
	counts := l.stats.Counts()
	e.class = append(e.class[:0], e.partition...)
	e.nc = buf.Zeroed(e.nc, n)
	for _, c := range e.class {
		if c >= 0 {
			e.pooled[c] = e.pooled[c][:0]
		}
	}
	for i := range int32(n) {
		if counts.N(int(i)) == 0 || (l.terminal != nil && l.terminal[int(i)/l.A]) {
			e.class[i] = -1
			continue
		}
		c := e.class[i]
		if c < 0 { // no live class is named i: a class holds the pair it is named by
			c, e.class[i] = i, i
			e.pooled[i] = e.pooled[i][:0]
		}
		e.pooled[c] = addRanks(e.pooled[c], e.profile(i))
		e.nc[c] += counts.N(int(i))
	}
}

// began keeps the partition of the plan of an episode just begun at t_k = tk when that plan
// clustered (recluster: doubling).
func (e *equivalence) began(tk float64) {
	if e.Recluster == ReclusterDoubling && e.clustered {
		e.partition = append(e.partition[:0], e.class...)
		e.clusteredAt = tk
	}
}

// profile is pair i's counts by rank.
func (e *equivalence) profile(i int32) []int64 { return e.ranks[e.start[i]:e.start[i+1]] }

// share is pair i's empirical profile, its counts by rank over N_i.
func (e *equivalence) share(i int32) []float64 { return e.shares[e.start[i]:e.start[i+1]] }

// clusterWidth is ε(n), the width ApproxEquivalence gives n samples.
func (e *equivalence) clusterWidth(n int64) float64 {
	if e.Width == InverseSqrtWidth {
		return 1 / math.Sqrt(float64(n))
	}
	return e.paperWidth(n)
}

// paperWidth is the paper's W_n(δ/(3SA)) = √(2(1 + 1/n)·log(√(n+1)·(2^S − 2)·3SA/δ)/n) for
// n ≥ 1 samples, the time-uniform L1 bound of its clustering and of its confidence set (16).
func (e *equivalence) paperWidth(n int64) float64 {
	x := float64(n)
	return math.Sqrt(2 * (1 + 1/x) * (0.5*math.Log(x+1) + e.logW) / x)
}

// setLogW sets logW = log((2^S − 2)·3SA/δ), the constant of paperWidth, for l's task; for S = 1
// every profile is (1), the only state is every next state, and the width does not matter.
func (e *equivalence) setLogW(l *UCRL2) {
	S := float64(l.S)
	e.logW = math.Log(3 * S * float64(l.A) / l.P.Delta)
	if l.S >= 2 {
		e.logW += S*math.Ln2 + math.Log1p(-math.Exp2(1-S))
	}
}

// cluster is ApproxEquivalence (the paper's Algorithm, with α) on the visited, non-terminal
// pairs. Each starts a cluster of its own, named by its index. In a round the clusters are taken
// in decreasing count (equal counts by index); each that still has samples merges with Near, its
// statistically closest neighbour in the current partition, when their samples per pair are within
// a factor α; as in the paper's pseudo-code (and Bourel's code) the round stops at the first
// cluster of count 0, which includes a cluster merged away earlier in the round. Rounds repeat
// until one merges nothing. Pair i's class is then its cluster's name.
func (e *equivalence) cluster(l *UCRL2) {
	n := l.S * l.A
	counts := l.stats.Counts()
	e.class = slices.Grow(e.class[:0], n)[:n]
	e.nc = buf.Zeroed(e.nc, n)
	e.pairWidth = slices.Grow(e.pairWidth[:0], n)[:n]
	e.width = slices.Grow(e.width[:0], n)[:n]
	for len(e.pooled) < n {
		e.pooled = append(e.pooled, nil)
		e.profiles = append(e.profiles, nil)
		e.members = append(e.members, nil)
	}
	e.order = e.order[:0]
	for i := range int32(n) {
		e.class[i] = -1
		e.members[i] = e.members[i][:0]
		if counts.N(int(i)) == 0 || (l.terminal != nil && l.terminal[int(i)/l.A]) {
			continue
		}
		e.members[i] = append(e.members[i], i)
		e.pooled[i] = append(e.pooled[i][:0], e.profile(i)...)
		e.profiles[i] = append(e.profiles[i][:0], e.share(i)...)
		e.nc[i] = counts.N(int(i))
		e.pairWidth[i] = e.clusterWidth(e.nc[i])
		e.width[i] = e.pairWidth[i]
		e.order = append(e.order, i)
	}
	for changed := true; changed; {
		changed = false
		slices.SortFunc(e.order, func(a, b int32) int {
			if c := cmp.Compare(e.nc[b], e.nc[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		for _, c := range e.order {
			if e.nc[c] == 0 {
				break
			}
			j := e.near(c)
			if j < 0 {
				continue
			}
			ratio := float64(e.nc[c]) / float64(len(e.members[c])) / (float64(e.nc[j]) / float64(len(e.members[j])))
			if e.Alpha != 0 && (ratio < 1/e.Alpha || ratio > e.Alpha) {
				continue
			}
			e.merge(c, j)
			changed = true
		}
		e.order = slices.DeleteFunc(e.order, func(c int32) bool { return e.nc[c] == 0 })
	}
	for _, c := range e.order {
		for _, i := range e.members[c] {
			e.class[i] = c
		}
	}
}

// near is Near(c): among the clusters x ≠ c with d(c, x) ≤ 0, the first by increasing d (equal d
// by name) that is a statistically plausible neighbour; −1 when there is none. The candidates are
// taken least first by selection, as the least is usually plausible.
func (e *equivalence) near(c int32) int32 {
	e.cands = e.cands[:0]
	for _, x := range e.order {
		if x == c || e.nc[x] == 0 {
			continue
		}
		reach := e.Epsilon + e.width[c] + e.width[x]
		if math.Abs(e.profiles[c][0]-e.profiles[x][0]) > reach {
			continue // the top ranks alone are too far apart
		}
		if d := l1(e.profiles[c], e.profiles[x]) - reach; d <= 0 {
			e.cands = append(e.cands, candidate{d, x})
		}
	}
	for len(e.cands) > 0 {
		best := 0
		for k, x := range e.cands {
			if x.d < e.cands[best].d || x.d == e.cands[best].d && x.id < e.cands[best].id {
				best = k
			}
		}
		if x := e.cands[best].id; e.plausible(c, x) {
			return x
		}
		e.cands[best] = e.cands[len(e.cands)-1]
		e.cands = e.cands[:len(e.cands)-1]
	}
	return -1
}

// plausible says whether x is a statistically plausible neighbour of c beyond d(c, x) ≤ 0: every
// pair of c is close to every pair of x, and every pair of either is close to their union.
func (e *equivalence) plausible(c, x int32) bool {
	for _, a := range e.members[c] {
		for _, b := range e.members[x] {
			if l1(e.share(a), e.share(b)) > e.Epsilon+e.pairWidth[a]+e.pairWidth[b] {
				return false
			}
		}
	}
	e.union = append(e.union[:0], e.pooled[c]...)
	e.union = addRanks(e.union, e.pooled[x])
	nu := e.nc[c] + e.nc[x]
	wu := e.clusterWidth(nu)
	e.unionShare = e.unionShare[:0]
	for _, k := range e.union {
		e.unionShare = append(e.unionShare, float64(k)/float64(nu))
	}
	for _, group := range [2][]int32{e.members[c], e.members[x]} {
		for _, a := range group {
			if l1(e.share(a), e.unionShare) > e.Epsilon+e.pairWidth[a]+wu {
				return false
			}
		}
	}
	return true
}

// merge makes cluster c the union of c and x and empties x.
func (e *equivalence) merge(c, x int32) {
	e.pooled[c] = addRanks(e.pooled[c], e.pooled[x])
	e.nc[c] += e.nc[x]
	e.width[c] = e.clusterWidth(e.nc[c])
	e.profiles[c] = e.profiles[c][:0]
	for _, k := range e.pooled[c] {
		e.profiles[c] = append(e.profiles[c], float64(k)/float64(e.nc[c]))
	}
	e.members[c] = append(e.members[c], e.members[x]...)
	e.nc[x] = 0
	e.members[x] = e.members[x][:0]
}

// addRanks adds the rank counts y to x, rank by rank, and returns x.
func addRanks(x, y []int64) []int64 {
	for k, v := range y {
		if k == len(x) {
			x = append(x, 0)
		}
		x[k] += v
	}
	return x
}

// l1 is ‖x − y‖₁ of two profiles (probabilities by decreasing rank), ranks one lacks counting
// as 0.
func l1(x, y []float64) float64 {
	if len(x) < len(y) {
		x, y = y, x
	}
	d := 0.0
	for k, a := range x {
		if k < len(y) {
			a -= y[k]
		}
		d += math.Abs(a)
	}
	return d
}

// optimisticNextFree is the inner maximisation of extended value iteration when a mass free of the
// pair's distribution has no known next state: that mass goes to the best-valued state best, and
// then d/2 more moves there from the lowest-valued successors, as optimisticNext moves it. With
// free = 0 it is optimisticNext.
func optimisticNextFree(next []int32, prob []float64, free, d float64, best int, v []float64) float64 {
	if free == 0 || len(next) == 0 {
		return optimisticNext(next, prob, d, best, v)
	}
	x := optimisticNext(next, prob, 0, best, v) + free*v[best] // sorts next by ascending V
	pBest := free
	for k, s := range next {
		if int(s) == best {
			pBest += prob[k]
		}
	}
	add := min(d/2, 1-pBest)
	if add <= 0 {
		return x
	}
	x += add * v[best]
	for k := 0; add > 0 && k < len(next); k++ {
		if int(next[k]) == best {
			continue
		}
		take := min(prob[k], add)
		x -= take * v[next[k]]
		add -= take
	}
	return x
}
