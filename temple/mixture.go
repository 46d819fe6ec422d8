package temple

import (
	"math"

	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

// pairMixture is the template library as each pair's prior, the part that TemplatePrior and
// HybridPrior share: one component per library template g — Dirichlet(c·q_g) over the pair's next
// states ranked, its ranks placed on states by a uniformly random injection, and g's reward prior
// of strength c — with weight (1 − ν)·(pairs g was given)/(pairs given in all), and a "new
// template" component of weight ν: the sparse Dirichlet(1/S, …, 1/S) and the base's reward prior
// (TemplatePrior's comment gives the marginal likelihoods). It keeps, per pair, the posterior
// weights of the components given the pair's own samples.
type pairMixture struct {
	p     PriorParams
	lib   *template.Library
	given map[int]int64 // pairs given to each template, by ID, over past tasks

	// Per task.
	comps   []component
	logNew  float64   // ln ν, or 0 with an empty library
	logw    []float64 // per pair, the posterior weight of each component (templates, then new)
	scratch mlScratch
	created int // templates added at the end of the task
}

// component is one library template as a prior component: q by rank, its ranks K, its reward and
// log prior weight.
type component struct {
	id       int
	g        template.Point
	q        []float64
	lgq      []float64 // lnΓ(c·q_r) per rank
	logPrior float64
}

// newPairMixture is an empty library of matching distance τ̂ = p.Tau.
func newPairMixture(p PriorParams) (pairMixture, error) {
	lib, err := template.NewLibrary(p.Tau)
	if err != nil {
		return pairMixture{}, err
	}
	return pairMixture{p: p, lib: lib, given: map[int]int64{}}, nil
}

// begin sets the components' prior weights from the library for a task of n pairs.
func (m *pairMixture) begin(n int) {
	var total int64
	for _, k := range m.given {
		total += k
	}
	m.comps = m.comps[:0]
	m.logNew = 0
	if total > 0 {
		m.logNew = math.Log(m.p.NewShare)
		for _, tm := range m.lib.Templates() {
			g := tm.Mean()
			q := make([]float64, ranks(g))
			for j, x := range g.P {
				q[rankOf(g, j)] = x
			}
			lgq := make([]float64, len(q))
			for r, x := range q {
				lgq[r] = lgamma(float64(m.p.Strength) * x)
			}
			w := (1 - m.p.NewShare) * float64(m.given[tm.ID]) / float64(total)
			m.comps = append(m.comps, component{id: tm.ID, g: g, q: q, lgq: lgq, logPrior: math.Log(w)})
		}
	}
	m.logw = buf.Zeroed(m.logw, n*(len(m.comps)+1))
	m.created = 0
}

// weights are pair i's posterior weights: the library's components, then the new one.
func (m *pairMixture) weights(i int) []float64 {
	k := len(m.comps) + 1
	return m.logw[i*k : i*k+k]
}

// reweigh computes pair i's posterior weights from its own samples own (sq: the sum of its
// rewards' squares) in a task of S states under reward model r, and returns ln of their marginal
// likelihood under the mixture: ln Σ_k w_k·ML_k, the normaliser of the weights.
func (m *pairMixture) reweigh(i int, own *mdp.Counts, sq float64, S int, r PSRLModel) float64 {
	w := m.weights(i)
	succ := own.Successors(i)
	n, sum := own.N(i), own.R(i)
	counts := m.scratch.counts[:0]
	for _, x := range succ {
		counts = append(counts, x.N)
	}
	m.scratch.counts = counts
	// The new component: the sparse Dirichlet(1/S) and the base's reward prior.
	alpha := 1 / float64(S)
	lw := lgamma(1) - lgamma(1+float64(n))
	for _, c := range counts {
		lw += lgamma(alpha+float64(c)) - lgamma(alpha)
	}
	w[len(w)-1] = m.logNew + lw + m.rewardML(n, sum, sq, nil, r)
	// Placing d seen states on a uniformly random injection of ranks into S states: (S−d)!/S!.
	place := 0.0
	for j := range counts {
		place -= math.Log(float64(S - j))
	}
	c := float64(m.p.Strength)
	for k, comp := range m.comps {
		tl := m.scratch.transitionML(counts, comp, c)
		if math.IsInf(tl, -1) {
			w[k] = tl
			continue
		}
		w[k] = comp.logPrior + place + tl + m.rewardML(n, sum, sq, &comp.g, r)
	}
	return normalize(w)
}

// rewardML is ln of the marginal likelihood of a pair's n own rewards (their sum and sum of
// squares) under template g's reward prior, of strength c about g's reward, or the new
// component's (g nil): Normal–Normal, Normal–Gamma with LearnedNoise, or with Beta rewards
// Beta–Bernoulli at the scaled sum.
func (m *pairMixture) rewardML(n int64, sum, sq float64, g *template.Point, r PSRLModel) float64 {
	if m.p.TemplateRewards.own() {
		g = nil // every component's rewards under the base's prior: the weights compare next states
	}
	c := float64(m.p.Strength)
	if r.Beta {
		a, b := 1.0, 1.0
		if g != nil {
			x := r.scaled(1, g.R)
			a, b = 1+c*x, 1+c*(1-x)
		}
		return betaML(n, r.scaled(n, sum), a, b)
	}
	if r.LearnedNoise {
		return r.normalGamma(g, c).logML(n, sum, sq)
	}
	noise2 := r.RewardNoise * r.RewardNoise
	if g == nil {
		return normalML(n, sum, sq, r.RewardMean, r.RewardSD*r.RewardSD, noise2)
	}
	return normalML(n, sum, sq, g.R, noise2/c, noise2)
}

// placedReward is the reward each pseudo-count of template g placed on pair i carries: g's, or
// under OwnRewards the pair's own posterior mean given its own samples own under reward model r.
func (m *pairMixture) placedReward(g template.Point, own *mdp.Counts, i int, r PSRLModel) float64 {
	if m.p.TemplateRewards.own() {
		return r.ownMean(own.N(i), own.R(i))
	}
	return g.R
}

// learn gives the library the own samples of every pair of visited with at least m_s of them: to
// the closest template within τ̂, or as a new template.
func (m *pairMixture) learn(own *mdp.Counts, visited []int, S int) {
	for _, i := range visited {
		if own.N(i) < m.p.Ms {
			continue
		}
		_, ranked := template.Ranking(own.Successors(i), S)
		t, _ := m.lib.Match(pointOf(ranked, own.R(i)))
		if t == nil {
			t = m.lib.Add(ranked, own.R(i))
			m.created++
		} else {
			t.Update(ranked, own.R(i))
		}
		m.given[t.ID]++
	}
}
