package temple

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/template"
)

// TemplatePriorType is TemplatePrior's agent type: the name a config gives it (type: template-
// prior) and its errors begin with.
const TemplatePriorType = "template-prior"

// PriorParams are the parameters of TemplatePrior, posterior sampling with the template library
// as each pair's prior.
type PriorParams struct {
	// Ms: at the end of a task, a pair with at least m_s own samples gives them to the library
	// (matched within τ̂ or added as a new template).
	Ms int64 `yaml:"m_s" doc:"own samples a pair needs, at the end of a task, to give its template to the library (matched within tau, or a new template)" range:">= 1"`
	// Tau is τ̂, the library's matching distance.
	Tau float64 `yaml:"tau" doc:"template gap τ̂: at the end of a task a pair's samples join the closest library template within τ̂" range:">= 0"`
	// Strength is c: a library template is a Dirichlet(c·q) component over the pair's ranked next
	// states, with a Normal prior of variance σ²/c on its mean reward.
	Strength int64 `yaml:"strength" doc:"c: a template component is Dirichlet(c·q) over the pair's ranked next states, placed as c pseudo-counts" range:">= 1"`
	// NewShare is ν, the prior probability of the "new template" component.
	NewShare float64 `yaml:"new_share" doc:"ν: prior probability that a pair's template is none of the library's (the sparse Dirichlet component)" range:"0 < new_share < 1"`
	// Partial places a drawn template before the pair has seen all its ranks (overBase.place).
	Partial bool `yaml:"partial" doc:"place a drawn template whose ranks the pair has not all seen: its first ranks on the states seen, the rest left out"`
	// TemplateRewards is whether the library's templates are a prior on a pair's rewards too
	// (TransferRewards, or "") or on its transitions alone (OwnRewards). The default is left
	// out of a config and its records, so that they read as before the option.
	TemplateRewards TemplateRewards `yaml:"template_rewards,omitempty" doc:"transfer (the default, also when absent): a template is also a prior on the pair's mean reward, N(its reward, σ²/c), in the weights and placed with its counts; own: a prior on transitions alone, the weights compare templates by next states only and a placed template's counts carry the pair's own posterior mean reward (the base's prior updated by the pair's own rewards)" range:"transfer | own"`
}

// TemplateRewards is what a template says of a pair's rewards.
type TemplateRewards string

const (
	// TransferRewards: template g's reward prior N(r_g, σ²/c) (Beta(1 + c·r̄_g, 1 + c·(1 − r̄_g))
	// under Beta rewards) weighs its component and its c placed pseudo-counts carry r_g ("" is it
	// too).
	TransferRewards TemplateRewards = "transfer"
	// OwnRewards: templates are of transitions alone (TempLe's carry a reward sum too,
	// Algorithm 2; this leaves it out of the prior): every component's reward marginal is the
	// base's prior's, so the weights compare next states only, and a placed template's
	// pseudo-counts carry the pair's own posterior mean reward (PSRLModel.ownMean), so that the
	// mean the base samples a pair's reward about is the one its own rewards give. The count
	// seam gives the reward the c pseudo-counts too: the sampled reward's spread is that of
	// n + c samples, narrower than the pair's own posterior (an approximation).
	OwnRewards TemplateRewards = "own"
)

// own reports whether templates leave a pair's rewards its own.
func (t TemplateRewards) own() bool { return t == OwnRewards }

// DefaultPriorParams are m_s 10, τ̂ 0.15, c 50, ν 0.1, partial placements, and templates a prior
// on rewards too (TemplateRewards "": TransferRewards).
func DefaultPriorParams() PriorParams {
	return PriorParams{Ms: 10, Tau: 0.15, Strength: 50, NewShare: 0.1, Partial: true}
}

// Validate names the first parameter out of range.
func (p PriorParams) Validate() error {
	switch {
	case p.Ms < 1:
		return fmt.Errorf("template-prior: m_s = %d, want at least 1", p.Ms)
	case !(p.Tau >= 0) || math.IsInf(p.Tau, 0):
		return fmt.Errorf("template-prior: tau = %v, want a finite number >= 0", p.Tau)
	case p.Strength < 1:
		return fmt.Errorf("template-prior: strength = %d, want at least 1", p.Strength)
	case !(p.NewShare > 0 && p.NewShare < 1):
		return fmt.Errorf("template-prior: new_share = %v, want 0 < new_share < 1", p.NewShare)
	case p.TemplateRewards != "" && p.TemplateRewards != TransferRewards && p.TemplateRewards != OwnRewards:
		return fmt.Errorf("template-prior: template_rewards %q, want %q or %q", p.TemplateRewards, TransferRewards, OwnRewards)
	}
	return nil
}

// template-prior registers with PSRL's search space and its library's parameters: m_s, τ̂, the
// strength c and the new-template share ν.
func init() {
	agenttypes.Register(agenttypes.Type{Name: TemplatePriorType, Display: "TemplatePrior-PSRL", Summary: "PSRL whose prior for each pair is a mixture over the library's templates and a new-template component (Thompson sampling with a mixture prior, Hong et al. 2022)",
		Defaults: func() agenttypes.Params {
			return &TemplatePriorSpec{PSRLParams: learners.DefaultPSRL(), PriorParams: DefaultPriorParams()}
		}, PairBytes: 240,
		Search: agenttypes.Join(learners.PSRLSearch, agenttypes.LogInt("m_s", 1, 100), agenttypes.LogReal("tau", 0.01, 1), agenttypes.LogInt("strength", 1, 1000), agenttypes.LogReal("new_share", 0.01, 0.5)),
		Rank:   120})
}

// TemplatePriorSpec is template-prior as a config gives it: its base is PSRL, whose keys it has
// beside its own (and whose inert keys are its).
type TemplatePriorSpec struct {
	learners.PSRLParams `yaml:",inline"`
	PriorParams         `yaml:",inline"`
}

// Validate checks PSRL's keys and template-prior's.
func (p *TemplatePriorSpec) Validate() error {
	if err := p.PSRLParams.Validate(); err != nil {
		return err
	}
	return p.PriorParams.Validate()
}

// New builds the learner over a PSRL that draws when the learner says: the learner draws the
// pairs' components first, then the model, on the PSRL schedule of the config.
func (p *TemplatePriorSpec) New(agenttypes.Context) (agent.Agent, error) {
	base, err := learners.NewPSRL(drawnBase(p.PSRLParams))
	if err != nil {
		return nil, err
	}
	return NewTemplatePrior(p.PriorParams, psrlModel(p.PSRLParams), base)
}

// MemoryBytes is PSRL's, a template learner's own tables, and the components' weights of every
// pair (about 20 templates).
func (p *TemplatePriorSpec) MemoryBytes(typeBytes, S, A, tasks int64) int64 {
	return p.PSRLParams.MemoryBytes(typeBytes, S, A, tasks) + 21*8*S*A
}

// TemplatePrior is posterior sampling (over a PSRL base) whose prior for each pair is a mixture:
// one component per library template g — Dirichlet(c·q_g) over the pair's next states ranked,
// its ranks placed on states by a uniformly random injection, and N(r_g, σ²/c) on the mean
// reward — with weight (1 − ν)·(pairs g was given)/(pairs given in all), and a "new template"
// component with weight ν — the sparse Dirichlet(1/S, …, 1/S) over the S next states and the
// base's prior on the mean reward (N(μ₀, σ₀²), or with Beta rewards Beta(1, 1), and then
// Beta(1 + c·r̄_g, 1 + c·(1 − r̄_g)) for template g, r̄_g its reward scaled to [0, 1]). It is Thompson sampling with a mixture prior (Hong,
// Kveton, Zaheer, Ghavamzadeh & Boutilier, AISTATS 2022) applied pair by pair, with the prior
// learned across tasks as in Meta-Thompson sampling (Kveton et al., ICML 2021); the library is
// learned as O-TempLe's is, at the end of each task.
//
// Conjugacy makes the posterior a mixture of the components' posteriors, each component k
// weighted by w_k times the marginal likelihood of the pair's own samples under it:
//
//   - template g, transitions: (S−d)!/S! · Σ_π Γ(c)/Γ(c+n) · Π_j Γ(c·q_{π(j)} + n_j)/Γ(c·q_{π(j)}),
//     over the injections π of the pair's d seen next states into g's ranks (zero when d exceeds
//     g's ranks: one sample to a state too many rules g out);
//   - new, transitions: Γ(1)/Γ(1+n) · Π_j Γ(1/S + n_j)/Γ(1/S);
//   - rewards: the Normal–Normal marginal of the pair's rewards (normalML), or with Beta rewards
//     B(a + x, b + n − x)/B(a, b) for the component's Beta(a, b) (betaML).
//
// To draw a model, each pair draws a component from these weights; a template component is
// placed as c pseudo-counts beside the pair's own samples (agent.Replacer), and the base
// draws from Dirichlet(counts + its own α₀). What is approximated (docs/decisions.md, "Templates
// as a prior"): pairs draw their components independently; a drawn template is placed on the
// maximum-likelihood injection (σ) rather than one drawn from the posterior, and its ranks not yet
// seen are left out (partial) or, without partial, it is not placed until the pair has seen them
// all; a drawn template that is not placed, and the new component, give the pair its own samples
// under the base's prior; with more than 720 injections the likelihood keeps the σ term alone;
// the weights are computed after every own sample up to 16, then when the pair's count doubles
// or it reaches a new state.
type TemplatePrior struct {
	p     PriorParams
	model PSRLModel // as given
	r     PSRLModel // model on the current task (its reward range, with TaskRange)
	overBase
	ownRewards
	mix pairMixture

	// Per task.
	choice  []int32   // per pair, the component drawn last (−1: new)
	dirty   []bool    // per pair, own samples since its weights were computed
	clock   drawClock // the epochs of PSRLModel.Schedule
	visited []int     // pairs with own samples, in order of first sample
	rng     *rand.Rand
	truth   *template.Truth
}

// NewTemplatePrior validates p and returns the learner over base, a PSRL that draws at every call
// of EndEpisode, whose reward model and schedule are r.
func NewTemplatePrior(p PriorParams, r PSRLModel, base agent.Base) (*TemplatePrior, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := r.validate(TemplatePriorType); err != nil {
		return nil, err
	}
	mix, err := newPairMixture(p)
	if err != nil {
		return nil, err
	}
	ob, err := newOverBase(base, TemplatePriorType)
	if err != nil {
		return nil, err
	}
	return &TemplatePrior{p: p, model: r, r: r, overBase: ob, mix: mix, clock: drawClock{schedule: r.Schedule}}, nil
}

// Library is the learner's template library.
func (tp *TemplatePrior) Library() *template.Library { return tp.mix.lib }

// BeginTask begins the base and sets the components' prior weights from the library.
func (tp *TemplatePrior) BeginTask(t agent.Task) error {
	if err := tp.begin(t); err != nil {
		return err
	}
	var err error
	if tp.r, err = tp.model.forTask(TemplatePriorType, t, tp.noise); err != nil {
		return err
	}
	tp.rng = t.Rand
	n := t.S * t.A
	tp.mix.begin(n)
	tp.choice = buf.Zeroed(tp.choice, n)
	for i := range tp.choice {
		tp.choice[i] = -1
	}
	tp.beginRewards(n)
	tp.dirty = buf.Zeroed(tp.dirty, n)
	tp.clock.reset(n)
	tp.visited = tp.visited[:0]
	tp.truth = nil
	if t.Truth != nil {
		tr := template.OfModel(t.Truth)
		tp.truth = &tr
	}
	return nil
}

// Observe records the sample with the base and marks the pair's weights for computing again
// before the next draw; with TSDE or the doubling rule it draws when the epoch ends.
func (tp *TemplatePrior) Observe(s, a int, r float64, next int) {
	i := s*tp.A + a
	seen := len(tp.own.Successors(i))
	if !tp.record(i, next, r) {
		return
	}
	n := tp.own.N(i)
	if n == 1 {
		tp.visited = append(tp.visited, i)
	}
	tp.ownSq[i] += r * r
	if n <= exactWeights || n&(n-1) == 0 || len(tp.own.Successors(i)) > seen {
		tp.dirty[i] = true
	}
	if tp.clock.ends(tp.st.Samples(), i, n) {
		tp.draw()
	}
}

// exactWeights is the own samples up to which a pair's weights are computed again after every
// sample; beyond it, when its count doubles or it reaches a new state (which can rule a template
// out). A pair's weights settle as its samples grow, and computing them is most of the learner's
// cost.
const exactWeights = 16

// EndEpisode draws a model at the end of every episode when that is the schedule.
func (tp *TemplatePrior) EndEpisode() {
	if tp.clock.atEpisodeEnd() {
		tp.draw()
	}
}

// draw reweighs the pairs with new own samples, draws every visited pair's component, and has
// the base draw its model from them; it begins a TSDE epoch.
func (tp *TemplatePrior) draw() {
	for _, i := range tp.visited {
		if tp.dirty[i] {
			tp.reweigh(i)
			tp.dirty[i] = false
		}
		tp.redraw(i)
		tp.clock.nk[i] = tp.own.N(i)
	}
	tp.l.EndEpisode()
	tp.clock.epochStart = tp.st.Samples()
}

// reweigh computes pair i's posterior weights from its own samples.
func (tp *TemplatePrior) reweigh(i int) { tp.mix.reweigh(i, &tp.own, tp.ownSq[i], tp.S, tp.r) }

// redraw draws pair i's component from its posterior weights and sets its statistics: a library
// template placed beside its own samples when the pair has seen all its ranks, its own samples
// otherwise.
func (tp *TemplatePrior) redraw(i int) {
	w := tp.mix.weights(i)
	k := drawIndex(w, tp.rng.Float64())
	if k == len(w)-1 {
		tp.choice[i] = -1
		tp.unplace(i)
		return
	}
	tp.choice[i] = int32(k)
	g := tp.mix.comps[k].g
	tp.place(i, g, tp.mix.placedReward(g, &tp.own, i, tp.r), tp.p.Strength, tp.p.Partial)
}

// EndTask gives the library the own samples of every pair with at least m_s of them: to the
// closest template within τ̂, or as a new template; and pools the task's rewards (endRewards).
func (tp *TemplatePrior) EndTask() {
	tp.mix.learn(&tp.own, tp.visited, tp.S)
	tp.endRewards(&tp.own, tp.model)
}

// TaskMetrics are the base's statistics; the library's size and the templates added this task;
// the pairs whose drawn component is placed at the end of the task, and the share of those placed
// partially (a template of more ranks than the next states the pair has seen: partial); and,
// against the true model, the share of the placed pairs whose template is farther than τ̂ from
// the pair's true template (wrong_placements), and the same among the placed pairs with at least
// m_s own samples (placed_pairs_ms, wrong_placements_ms): where the prior misleads, on pairs
// that have seen little or on those that have seen enough to tell.
func (tp *TemplatePrior) TaskMetrics() []agent.Metric {
	placed := tp.placedPairs()
	m := append(tp.st.Metrics(),
		agent.Metric{Name: "library_size", Value: float64(tp.mix.lib.Len())},
		agent.Metric{Name: "new_templates", Value: float64(tp.mix.created)},
		agent.Metric{Name: "placed_pairs", Value: float64(placed)})
	if placed == 0 {
		return m
	}
	var partial, wrong, sampled, wrongSampled int
	for i, on := range tp.placed {
		if !on {
			continue
		}
		g := tp.mix.comps[tp.choice[i]].g
		if len(tp.own.Successors(i)) < ranks(g) {
			partial++
		}
		isWrong := tp.truth != nil && tp.truth.PairTemplate[i] >= 0 &&
			template.Distance(g, tp.truth.Templates[tp.truth.PairTemplate[i]]) > tp.p.Tau
		if isWrong {
			wrong++
		}
		if tp.own.N(i) >= tp.p.Ms {
			sampled++
			if isWrong {
				wrongSampled++
			}
		}
	}
	m = append(m, agent.Metric{Name: "partial_placements", Value: float64(partial) / float64(placed)})
	if tp.truth == nil {
		return m
	}
	m = append(m, agent.Metric{Name: "wrong_placements", Value: float64(wrong) / float64(placed)},
		agent.Metric{Name: "placed_pairs_ms", Value: float64(sampled)})
	if sampled > 0 {
		m = append(m, agent.Metric{Name: "wrong_placements_ms", Value: float64(wrongSampled) / float64(sampled)})
	}
	return m
}
