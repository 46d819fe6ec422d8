package temple

import (
	"math"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/lazy"
	"github.com/temple-rl/temple/template"
)

// Optimism over library templates (Params.OptDelta; not in the paper, off in the paper presets).
//
// The rule. After every own sample of a pair not yet identified, rank its own counts by its σ
// (as Algorithm 1 does at m_s) and keep the library templates its samples do not exclude at
// confidence δ (consistentTemplates: the likelihoods ℓ_g of sequential.go's test, with the same
// reward part when SeqRewardRange is set). Of those, the pair is planned with the most
// optimistic: the template g, mapped to states through σ⁻¹, whose backup
//
//	r_g + γ Σ_r q_g(r) · V(σ⁻¹(r)),   V the base's last plan (agent.Valued),
//
// is largest. It is placed in the base as an augmentation (agent.Base.Augment: the template's
// visits on top of the pair's own samples, so the base plans with essentially g and a bonus
// shrunk by g's visits) and withdrawn (agent.Replacer with the own samples) when a later
// sample excludes it, σ moves its support, or another consistent template becomes the most
// optimistic. When no library template is consistent — the "new template" alternative, with a
// reward part here (newRewardTerm), wins — or the most optimistic one has more ranks than the
// pair has seen states (σ⁻¹ would put the rest on arbitrary unseen states), the pair keeps its
// own samples only, and the base's own optimism (MBIE-EB's β/√n) applies. At m_s
// (or at a sequential identification) the optimistic placement is withdrawn and Algorithm 1's
// identification decides as without the option; the placement never gives the library anything.
//
// The guarantee, and its loss. If the pair's true distribution ranked by its σ is library
// template g's, the likelihood ratio of any template to g is a supermartingale of mean at most
// 1 (sequential.go), so by Ville's inequality g is ever excluded with probability at most δ, and
// the "new template" test excludes it with probability at most δ as well; with probability at
// least 1 − 2δ, then, the pair is left to the base's own optimism or planned with a template
// worth at least g's backup under the values V the learner plans with — the optimism MBIE-EB's
// bonus gives, over a finite set rather than over every distribution near the estimate. Lost
// against MBIE-EB: σ from few samples is the pair's empirical ranking, not its true one; the library
// holds estimates, not true templates; and a pair whose true template is not in the library but
// is close to one that stays consistent is planned with that template, with a bonus shrunk by
// its visits — MBIE-EB's PAC bound is not claimed with the option on, nor Theorem 1's.

// optimism is the state of optimism over library templates in a task.
type optimism struct {
	// tmpl[i] is the ID of the library template pair i is planned with, −1 for none; sigma[i]
	// the σ it was placed by.
	tmpl   lazy.Table[int32]
	sigma  lazy.Table[template.Sigma]
	values agent.Valued // the base's plan, read to rank the templates
	gamma  float64      // the task's γ
	// placements counts the optimistic templates placed in the task (a metric).
	placements int
}

// begin starts a task of n pairs with discount γ and nothing placed.
func (p *optimism) begin(n int, gamma float64) {
	p.gamma = gamma
	p.tmpl.Reset(n, -1)
	p.sigma.Reset(n, template.Sigma{})
	p.placements = 0
}

// placeOptimistic plans pair i, not identified, with the most optimistic library template its
// own samples do not exclude, or with its own samples alone when every template is excluded or
// the most optimistic one has more ranks than the pair has seen states (σ⁻¹ would place the
// rest on arbitrary unseen states).
func (o *OTempLe) placeOptimistic(i int) {
	sigma, ranked := template.Ranking(o.pending.Successors(i), o.S)
	best := o.mostOptimistic(consistentTemplates(o.lib, ranked, o.pending.R(i), o.S, o.p.OptDelta, o.p.SeqRewardRange), sigma)
	if best == nil || int(best.Visits[len(best.Visits)-1].Rank) >= len(sigma.Top) {
		o.withdrawOptimistic(i)
		return
	}
	if o.opt.tmpl.At(i) == int32(best.ID) && sigma.Agrees(o.opt.sigma.At(i), int(best.Visits[len(best.Visits)-1].Rank)+1) {
		return
	}
	o.withdrawOptimistic(i)
	o.augment(i, best.Augmentation(sigma), best.Reward)
	o.opt.tmpl.Set(i, int32(best.ID))
	o.opt.sigma.Set(i, sigma)
	o.opt.placements++
}

// withdrawOptimistic leaves pair i its own samples alone if it is planned with an optimistic
// template (OptDelta); otherwise it does nothing.
func (o *OTempLe) withdrawOptimistic(i int) {
	if o.p.OptDelta == 0 || o.opt.tmpl.At(i) < 0 {
		return
	}
	o.replace(i, o.pending.Successors(i), o.pending.R(i))
	o.augmented[i] = false
	o.opt.tmpl.Set(i, -1)
}

// mostOptimistic is the template of ts whose backup r_g + γ Σ q_g V, placed through σ, is
// largest under the base's last plan; the first in library order among equals; nil for none.
func (o *OTempLe) mostOptimistic(ts []*template.Template, sigma template.Sigma) *template.Template {
	v := o.opt.values.Values()
	var best *template.Template
	bestValue := math.Inf(-1)
	for _, t := range ts {
		n, next := 0.0, 0.0
		for _, x := range t.Augmentation(sigma) {
			n += float64(x.N)
			next += float64(x.N) * v[x.State]
		}
		if n == 0 {
			continue
		}
		if value := (t.Reward + o.opt.gamma*next) / n; value > bestValue {
			best, bestValue = t, value
		}
	}
	return best
}

// consistentTemplates are the library templates that a pair's own counts, ranked by its σ over S
// states with their reward sum, do not exclude at confidence δ, rewards spanning R: template g
// is excluded when another template explains the samples better by ln(max(G−1, 1)/δ) in
// log-likelihood (test (a) of sequential.go, turned around), or when an unknown distribution
// does by ln(1/δ) (test (c), with a reward part here: newRewardTerm).
func consistentTemplates(lib *template.Library, ranked []template.Count, reward float64, S int, delta, R float64) []*template.Template {
	ts := lib.Templates()
	n := 0.0
	for _, c := range ranked {
		n += float64(c.N)
	}
	transition := make([]float64, len(ts))
	total := make([]float64, len(ts))
	best := math.Inf(-1)
	for k, t := range ts {
		transition[k] = logLikelihood(t, ranked, S)
		total[k] = transition[k] + rewardTerm(t, n, reward, R)
		best = math.Max(best, total[k])
	}
	others := math.Log(float64(max(len(ts)-1, 1)) / delta)
	unknown := newTemplateLogLikelihood(ranked, n, S) + newRewardTerm(n, reward, R) - math.Log(1/delta)
	var out []*template.Template
	for k, t := range ts {
		if best-total[k] < others && total[k] >= unknown {
			out = append(out, t)
		}
	}
	return out
}

// rewardPriorVariance is the variance of newRewardTerm's prior over an unknown mean reward: N(0, 1),
// the scale of the mazes' rewards (−1 to 0.8 a step).
const rewardPriorVariance = 1

// newRewardTerm is the reward part of the "new template" alternative for n rewards summing to
// reward, rewards spanning R: the log of the Gaussian mixture ∫ Π N(x_i; μ, σ²) N(μ; 0, 1) dμ,
// σ² = R²/4, without the terms rewardTerm also leaves out — b²/(2a) − ½ ln a with a = n/σ² + 1
// and b = reward/σ². A Bayes mixture, so under a template's true mean reward its ratio to that
// template's term is a supermartingale of mean at most 1 (the method of mixtures); without it a
// pair whose reward no library template has (the goal, in a library of steps) stayed consistent
// with a single template, which (a) alone cannot exclude. 0 when R = 0.
func newRewardTerm(n, reward, R float64) float64 {
	if R == 0 {
		return 0
	}
	v := R * R / 4
	a, b := n/v+1/rewardPriorVariance, reward/v
	return b*b/(2*a) - 0.5*math.Log(a*rewardPriorVariance)
}
