package learners

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/temple-rl/temple/mdp"
)

// CUCRLParams are C-UCRL's parameters: UCRL2's and the slack ε of the clustering.
type CUCRLParams struct {
	UCRL2Params `yaml:",inline"`
	// Epsilon is the slack ε of ApproxEquivalence's test: two pairs may share a class when the L1
	// distance of their sorted empirical profiles is at most ε plus both confidence widths.
	Epsilon float64 `yaml:"epsilon" doc:"slack ε of ApproxEquivalence's test ‖sort p̂ − sort p̂′‖₁ ≤ ε + c + c′ (0 in the authors' code)" range:">= 0"`
}

// DefaultCUCRL are UCRL2's defaults and ε = 0, the value the authors' code clusters with.
func DefaultCUCRL() CUCRLParams { return CUCRLParams{UCRL2Params: DefaultUCRL2()} }

// Validate names the first parameter out of range.
func (p CUCRLParams) Validate() error {
	if err := p.UCRL2Params.Validate(); err != nil {
		return fmt.Errorf("c-ucrl: %w", err)
	}
	if !(p.Epsilon >= 0) || math.IsInf(p.Epsilon, 0) {
		return fmt.Errorf("c-ucrl: epsilon = %v, want a finite number >= 0", p.Epsilon)
	}
	return nil
}

// NewCUCRL validates p and returns the C-UCRL base learner (agent.NewSingle makes it the single-task
// agent): UCRL2 whose confidence sets pool
// the samples of pairs that ApproxEquivalence puts in one class (Asadi, Talebi, Bourel &
// Maillard, "Model-based reinforcement learning exploiting state-action equivalence", ACML 2019).
//
// Two pairs are equivalent when their next-state distributions are equal up to a permutation of
// next states: sorted in decreasing order ("profiles"), they are the same vector — a TempLe
// template. At the start of every UCRL2 episode (t_k) C-UCRL
//
//  1. sorts each visited pair's counts in decreasing order (ties by state), its empirical profile
//     and its profile mapping σ̂_i (rank k → state);
//  2. clusters the visited pairs as the authors' code does (UCRL_SA.equivalenceClasses in the
//     StatisticalRL learners): the pairs in reverse index order, each joins the class of the first
//     earlier seed with ‖sort p̂_i − sort p̂_seed‖₁ ≤ ε + c_i + c_seed, or seeds a class, where
//     c_i = √(14·log(2·S·A·t_k/δ)/max(1, N_i)) is the width that code gives a pair;
//  3. pools the class: n_c = Σ N_j and rank counts P_c(k) = Σ_j N_j·sort p̂_j(k);
//  4. gives pair i the class profile through its own mapping, p̃_i(σ̂_i(k)) = P_c(k)/n_c for the
//     ranks k it has seen, and UCRL2's L1 width with n_c in place of N_i; the mass of ranks it has
//     not seen (its next state is unknown) goes to the best state, as optimism allows any.
//
// Rewards stay each pair's own (UCRL2's estimate and width), as in the authors' code: the
// equivalence is of transitions. Pairs not visited yet, and terminal states, are planned as
// UCRL2 plans them. A class of one pair gives UCRL2's confidence set, so C-UCRL differs from
// UCRL2 only where pairs pool. Our decisions (the paper's text was not at hand): the UCRL2 widths
// of this package with n_c (the authors' code uses √(14·log(2·S·A·t/δ)/n_c), without S) and
// discounted planning as UCRL2 here; unvisited pairs seed no class (in that code an unvisited
// pair's all-zero profile would).
func NewCUCRL(p CUCRLParams) (*UCRL2, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &UCRL2{P: p.UCRL2Params, pool: &equivalence{epsilon: p.Epsilon}}, nil
}

// equivalence is C-UCRL's part of a UCRL2 learner: ApproxEquivalence's classes and the pooled
// model built from them at each episode's start.
type equivalence struct {
	epsilon float64

	sorted []mdp.Succ // each visited pair's successors by decreasing count: σ̂_i and its profile
	start  []int      // pair i's sorted successors are sorted[start[i]:start[i+1]]
	class  []int32    // pair → class; −1: not clustered (unvisited or terminal)
	seeds  []int32    // class → its seed pair
	pooled [][]int64  // class → P_c(k), the pooled counts by rank
	nc     []int64    // class → n_c
	free   []float64  // pair → the mass of ranks it has not seen, placed optimistically
}

// build is UCRL2's build for C-UCRL: it clusters, pools, and writes the model, the optimistic
// rewards and the L1 widths, filling e.free.
func (e *equivalence) build(l *UCRL2, m *mdp.Sparse, width []float64) []float64 {
	n := l.S * l.A
	S, A := float64(l.S), float64(l.A)
	tk := float64(l.stats.Samples() + 1)
	logP := math.Log(2 * A * tk / l.P.Delta)     // transitions: log(2·A·t_k/δ)
	logR := math.Log(2 * S * A * tk / l.P.Delta) // rewards, and the clustering widths c_i
	e.sortProfiles(l)
	e.cluster(l, logR)

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
		m.AppendPair(math.Min(l.P.RMax, rHat+l.P.RMax*math.Sqrt(7*logR/(2*float64(max(1, own))))))
		nPool, free := own, 0.0
		if c := e.class[i]; c >= 0 {
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
		width = append(width, math.Sqrt(14*S*logP/float64(max(1, nPool))))
		e.free = append(e.free, free)
	}
	return width
}

// sortProfiles writes each pair's successors in decreasing count, equal counts by ascending state
// (the order of template.Ranking).
func (e *equivalence) sortProfiles(l *UCRL2) {
	n := l.S * l.A
	e.sorted = e.sorted[:0]
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
		e.start = append(e.start, len(e.sorted))
	}
}

// cluster is ApproxEquivalence as the authors' code runs it: visited, non-terminal pairs in
// reverse index order; each joins the first seed within ε + c_i + c_seed of it, or seeds a class.
// It then pools each class's rank counts.
func (e *equivalence) cluster(l *UCRL2, logC float64) {
	n := l.S * l.A
	e.class = slices.Grow(e.class[:0], n)[:n]
	e.seeds = e.seeds[:0]
	conf := func(i int) float64 { return math.Sqrt(14 * logC / float64(max(1, l.stats.Counts().N(i)))) }
	for i := n - 1; i >= 0; i-- {
		e.class[i] = -1
		if l.stats.Counts().N(i) == 0 || (l.terminal != nil && l.terminal[i/l.A]) {
			continue
		}
		ci := conf(i)
		for c, seed := range e.seeds {
			j := int(seed)
			if profileDistance(e.profile(i), l.stats.Counts().N(i), e.profile(j), l.stats.Counts().N(j)) <= e.epsilon+ci+conf(j) {
				e.class[i] = int32(c)
				break
			}
		}
		if e.class[i] < 0 {
			e.class[i] = int32(len(e.seeds))
			e.seeds = append(e.seeds, int32(i))
		}
	}
	for len(e.pooled) < len(e.seeds) {
		e.pooled = append(e.pooled, nil)
	}
	e.nc = slices.Grow(e.nc[:0], len(e.seeds))[:len(e.seeds)]
	clear(e.nc)
	for c := range e.seeds {
		e.pooled[c] = e.pooled[c][:0]
	}
	for i := 0; i < n; i++ {
		c := e.class[i]
		if c < 0 {
			continue
		}
		e.nc[c] += l.stats.Counts().N(i)
		for k, x := range e.profile(i) {
			if k == len(e.pooled[c]) {
				e.pooled[c] = append(e.pooled[c], 0)
			}
			e.pooled[c][k] += x.N
		}
	}
}

func (e *equivalence) profile(i int) []mdp.Succ { return e.sorted[e.start[i]:e.start[i+1]] }

// profileDistance is ‖x/nx − y/ny‖₁ of two profiles (counts by decreasing rank, over nx and ny
// samples), ranks one lacks counting as 0.
func profileDistance(x []mdp.Succ, nx int64, y []mdp.Succ, ny int64) float64 {
	d := 0.0
	for k := 0; k < max(len(x), len(y)); k++ {
		var a, b float64
		if k < len(x) {
			a = float64(x[k].N) / float64(nx)
		}
		if k < len(y) {
			b = float64(y[k].N) / float64(ny)
		}
		d += math.Abs(a - b)
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
