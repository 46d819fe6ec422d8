package temple

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/learners"
)

// HybridPriorType is HybridPrior's agent type: the name a config gives it (type: hybrid-prior) and
// its errors begin with.
const HybridPriorType = "hybrid-prior"

// HybridParams are the parameters of HybridPrior: the Chinese restaurant process over whole-task
// models (LatentPrior's), the template library as each pair's prior (TemplatePrior's), and which
// of the two parts are on (for ablations; both by default).
type HybridParams struct {
	LatentParams `yaml:",inline"`
	PriorParams  `yaml:",inline"`
	// WholeTasks keeps the whole-task models; off, every task is a new model (template-prior's
	// posterior).
	WholeTasks bool `yaml:"whole_tasks" doc:"keep whole-task models: a task's model is one of the earlier tasks' or new; off, every task's model is new (the template part alone)"`
	// Templates keeps the template library; off, a new model's pairs have the sparse Dirichlet
	// prior alone (latent-psrl's posterior).
	Templates bool `yaml:"templates" doc:"keep the template library as the prior of the pairs no whole-task model has seen; off, their prior is the sparse Dirichlet alone (the whole-task part alone)"`
	// IdentifyNoise is σ_id, for the Beta reward posterior: the posterior weights (of the task
	// models and of the library's components) take each reward as Normal about its pair's mean, of
	// standard deviation σ_id times half the reward range, the mean a priori the Normal of the
	// range's middle and half-width (weightsModel). 0: the Beta's own likelihood, which tells
	// models apart by their rewards only weakly. Under the Normal reward posteriors the weights use
	// the base's own model (reward_noise, or under normal-shared-noise the family's noise,
	// familyNoise), and σ_id is unused.
	IdentifyNoise float64 `yaml:"identify_noise" doc:"σ_id, under reward_posterior beta: the reward noise the posterior weights of the task models and templates assume, in half-widths of the reward range (Normal rewards about each pair's mean; with identify_variance learned, the noise's prior scale); 0: the Beta's own likelihood, a weak test of a model's rewards. Under the Normal reward posteriors the weights use the base's reward_noise (normal), or the noise learned from the earlier tasks' rewards (normal-shared-noise)" range:">= 0"`
	// IdentifyVariance is whether the weights take the rewards' noise as known (σ_id, or the
	// Normal base's reward_noise) or learn it pair by pair from that prior scale: a Normal of
	// unknown mean and variance (Normal–Gamma), whose predictive is Student's t, wide where a
	// model's pooled rewards at a pair spread (a reward that depends on the next state) and narrow
	// where they do not.
	IdentifyVariance RewardVariance `yaml:"identify_variance" doc:"the rewards' noise in the posterior weights: known, or learned pair by pair (Normal–Gamma, 1/σ² ~ Gamma(1, σ²) a priori at the known σ: a model whose pooled rewards at a pair spread is not refuted by that spread)" range:"known | learned"`
	// PairConcentration is γ of the Chinese restaurant process over each pair's dishes (dishes.go):
	// a model's pair with no samples is one of the pair's dishes, d, with prior m_d/(M_i + γ), and
	// new — from the template library's mixture — with γ/(M_i + γ), so that pairs recur by state
	// index across models even where whole tasks do not. 0 (the default) is γ = ∞: no dish is
	// shared, and a new model's pairs have the library's prior alone, which predicts a pair's
	// first next state at about 1/S where an earlier model of the same size predicts it by index
	// (on a family whose tasks share their geometry but not their layouts, the earlier models
	// then gain weight from the geometry alone).
	PairConcentration float64 `yaml:"pair_concentration,omitempty" doc:"γ of the Chinese restaurant process over each pair's distributions (dishes) shared by the whole-task models of a size: a model's pair with no samples is one that m_d models hold with prior m_d/(M_i + γ), or new from the template library with γ/(M_i + γ), and a pair's samples pool in its dish (the hierarchical Dirichlet process's franchise); 0 (the default): γ = ∞, no pair shared, a model's pair is its own tasks' samples" range:">= 0"`
	// EditShare is β (edits.go): the share of a new model's prior that is an earlier model with
	// some pairs changed, each pair of it changed with probability ChangeRate (ρ). 0 (the
	// default): no edits, a new model's pairs are drawn one by one from G₀.
	EditShare float64 `yaml:"edit_share,omitempty" doc:"β, with pair_concentration set: the share of a new model's prior that is an earlier model with some pairs changed (an edit of model k, prior β·T_k/T of it), each of its pairs kept with probability 1 − change_rate and otherwise drawn as a new model's; drawn, an edit places the earlier model's distributions on the pairs the task has not reached; 0 (the default): no edits" range:"[0, 1)"`
	// ChangeRate is ρ: the probability that an edit changes a pair of its earlier model.
	ChangeRate float64 `yaml:"change_rate,omitempty" doc:"ρ, with edit_share set: the probability that an edit of an earlier model changes one of its pairs (the pair's term under the edit is (1 − ρ)·the earlier model's + ρ·a new model's); unused (0) without edits" range:"(0, 1) with edit_share set"`
}

// RewardVariance is how HybridPrior's posterior weights treat the noise of a pair's rewards.
type RewardVariance string

const (
	// KnownVariance: each reward is N(mean, σ_id²).
	KnownVariance RewardVariance = "known"
	// LearnedVariance: each reward is N(mean, σ²), σ² unknown and learned from the pair's rewards
	// under a Normal–Gamma prior (normalGamma.logML).
	LearnedVariance RewardVariance = "learned"
)

// DefaultHybridParams are latent-psrl's and template-prior's defaults, both parts on, and the
// weights' reward noise known: under the Beta reward posterior σ_id 0.3 half-widths of the range.
func DefaultHybridParams() HybridParams {
	return HybridParams{LatentParams: DefaultLatentParams(), PriorParams: DefaultPriorParams(), WholeTasks: true, Templates: true,
		IdentifyNoise: 0.3, IdentifyVariance: KnownVariance}
}

// Validate names the first parameter out of range.
func (p HybridParams) Validate() error {
	if err := p.LatentParams.Validate(); err != nil {
		return rename(err, LatentPSRLType, HybridPriorType)
	}
	if err := p.PriorParams.Validate(); err != nil {
		return rename(err, TemplatePriorType, HybridPriorType)
	}
	if !(p.IdentifyNoise >= 0) || math.IsInf(p.IdentifyNoise, 0) {
		return fmt.Errorf("hybrid-prior: identify_noise = %v, want a finite number >= 0", p.IdentifyNoise)
	}
	if !(p.PairConcentration >= 0) || math.IsInf(p.PairConcentration, 0) {
		return fmt.Errorf("hybrid-prior: pair_concentration = %v, want a finite number >= 0 (0: no pair shared)", p.PairConcentration)
	}
	if !(p.EditShare >= 0 && p.EditShare < 1) {
		return fmt.Errorf("hybrid-prior: edit_share = %v, want a number in [0, 1) (0: no edits)", p.EditShare)
	}
	if p.edits() && !(p.ChangeRate > 0 && p.ChangeRate < 1) {
		return fmt.Errorf("hybrid-prior: change_rate = %v, want a number in (0, 1) with edit_share %v", p.ChangeRate, p.EditShare)
	}
	if p.edits() && !p.sharesPairs() {
		return fmt.Errorf("hybrid-prior: edit_share %v needs pair_concentration > 0: an edit shares its earlier model's pairs (dishes)", p.EditShare)
	}
	if p.IdentifyVariance != KnownVariance && p.IdentifyVariance != LearnedVariance {
		return fmt.Errorf("hybrid-prior: identify_variance %q, want %q or %q", p.IdentifyVariance, KnownVariance, LearnedVariance)
	}
	if !p.WholeTasks && !p.Templates {
		return errors.New("hybrid-prior: whole_tasks and templates both false: that is PSRL (type psrl); keep at least one part")
	}
	return nil
}

// sharesPairs reports whether γ is set: the models share their pairs' dishes.
func (p HybridParams) sharesPairs() bool { return p.PairConcentration > 0 }

// checkNoise refuses the learned noise without its prior scale, which under the Beta reward
// posterior is σ_id (under the Normal one, the base's reward_noise).
func (p HybridParams) checkNoise(beta bool) error {
	if beta && p.IdentifyVariance == LearnedVariance && p.IdentifyNoise == 0 {
		return errors.New("hybrid-prior: identify_variance learned needs identify_noise > 0 under reward_posterior beta, the noise's prior scale (identify_noise 0, the Beta's own likelihood, goes with identify_variance known)")
	}
	return nil
}

// hybrid-prior registers with PSRL's search space, α, the template library's (as template-prior)
// and the weights' reward noise σ_id; the parts are ablations, not searched.
func init() {
	agenttypes.Register(agenttypes.Type{Name: HybridPriorType, Display: "Hybrid-Prior-PSRL", Summary: "PSRL whose prior is a Dirichlet-process mixture over the task models seen so far (Wilson et al. 2007) whose new model's pairs have the template library's mixture as their prior (template-prior's): one posterior over whole tasks and templates, ours",
		Defaults: func() agenttypes.Params {
			return &HybridPriorSpec{PSRLParams: learners.DefaultPSRL(), HybridParams: DefaultHybridParams()}
		}, PairBytes: 280,
		Search: agenttypes.Join(learners.PSRLSearch, agenttypes.LogReal("concentration", 0.01, 100), agenttypes.LogInt("m_s", 1, 100), agenttypes.LogReal("tau", 0.01, 1),
			agenttypes.LogInt("strength", 1, 1000), agenttypes.LogReal("new_share", 0.01, 0.5), agenttypes.LogReal("identify_noise", 0.01, 1)),
		Rank: 140})
}

// HybridPriorSpec is hybrid-prior as a config gives it: its base is PSRL, whose keys it has
// beside its own.
type HybridPriorSpec struct {
	learners.PSRLParams `yaml:",inline"`
	HybridParams        `yaml:",inline"`
}

// Validate checks PSRL's keys and the learner's.
func (p *HybridPriorSpec) Validate() error {
	if err := p.PSRLParams.Validate(); err != nil {
		return err
	}
	if err := p.HybridParams.Validate(); err != nil {
		return err
	}
	return p.checkNoise(psrlModel(p.PSRLParams).Beta)
}

// New builds the learner over a PSRL that draws when the learner says, on the PSRL schedule of
// the config (as template-prior).
func (p *HybridPriorSpec) New(agenttypes.Context) (agent.Agent, error) {
	base, err := learners.NewPSRL(drawnBase(p.PSRLParams))
	if err != nil {
		return nil, err
	}
	return NewHybridPrior(p.HybridParams, psrlModel(p.PSRLParams), base)
}

// MemoryBytes is latent-psrl's and template-prior's: PSRL's, at most one model a task, and the
// components' weights and every model's term of every pair.
func (p *HybridPriorSpec) MemoryBytes(typeBytes, S, A, tasks int64) int64 {
	edits := int64(0) // an edit's term of every pair
	if p.edits() {
		edits = 8
	}
	return p.PSRLParams.MemoryBytes(typeBytes, S, A, tasks) + tasks*S*A*(48+16*min(S, 8)+8+edits) + 21*8*S*A
}

// Inert: PSRL's reward posterior leaves the other's keys unused, and the Normal one σ_id (the
// weights use the base's model); hybrid-prior's part turned off leaves its keys unused: without
// the template library its m_s, tau, strength, new_share and partial; without whole-task models
// the concentration α, γ, β and ρ; without edits ρ.
func (p *HybridPriorSpec) Inert() []string {
	keys := p.PSRLParams.Inert()
	if p.RewardPosterior.Normal() {
		keys = append(keys, "identify_noise")
	}
	if !p.Templates {
		keys = append(keys, "m_s", "tau", "strength", "new_share", "partial", "template_rewards")
	}
	if !p.WholeTasks {
		keys = append(keys, "concentration", "pair_concentration", "edit_share", "change_rate")
	} else if !p.edits() {
		keys = append(keys, "change_rate")
	}
	return keys
}

// HybridPrior is posterior sampling (over a PSRL base) under one prior over whole tasks and their
// pairs: a Dirichlet-process mixture of task models (Wilson, Fern, Ray & Tadepalli, ICML 2007)
// whose base measure G₀ — the prior of a new model — is, pair by pair, the template library's
// mixture (TemplatePrior's components and ν's sparse Dirichlet), learned across tasks. A task's
// model z is one of the K earlier models of its size, with prior T_k/(T + α) (T_k tasks had it, T
// tasks of this size in all), or a new one with α/(T + α); a model defines its state space, so
// models of another size have prior 0. Given z = k, a pair that model k has samples of has the
// Dirichlet(1/S + N_k) posterior of LatentPrior; a pair it has none of, and every pair of a new
// model, has G₀'s posterior: the library's mixture given the pair's own samples.
//
// The posterior of z given the task's own samples D is
//
//	P(z = k | D) ∝ T_k · Π_{i: N_k(i) > 0} DM(D_i | 1/S + N_k(i)) · R_k(D_i) · Π_{i: N_k(i) = 0} M(D_i)
//	P(z = new | D) ∝ α · Π_i M(D_i)
//
// with DM the Dirichlet–multinomial marginal of pair i's own next states, R_k that of its
// rewards under model k's reward posterior in the weights' reward model (weightsModel: the Normal
// base's own; under the Beta base a Normal of noise σ_id, IdentifyNoise; with IdentifyVariance
// learned, Normal–Gamma, the noise learned from the model's pooled rewards), and
// M(D_i) = Σ_c w_c·ML_c(D_i) the mixture marginal of TemplatePrior (pairMixture.reweigh's
// normaliser). To draw a model it draws z, places model z's pooled samples beside the own samples
// of every pair it has seen (as LatentPrior), draws for every other visited pair a component of
// the library's mixture and places it (as TemplatePrior), and has the base draw from the counts.
// At the end of a task the task joins the model of largest posterior weight or, if that is a new
// model, starts one and gives the library its pairs with at least m_s own samples.
//
// What is approximated (docs/decisions.md, "One posterior over whole tasks and templates"): a
// model's pair with samples has the sparse Dirichlet updated by them, not G₀ updated by them (the
// template components' share vanishes as a model's samples grow); a pair's terms use its own
// samples up to its last reweighing, on TemplatePrior's schedule (after every sample up to 16,
// then when its count doubles or it reaches a new state; after every sample while the library is
// empty), the same samples for every model, so the comparison between models is exact on them;
// a finished task joins one model (the posterior's mode), as LatentPrior; the library learns from
// the tasks that start a model, each model's pairs once, as G₀ is the prior of a new model; and
// TemplatePrior's approximations of a component's placement hold.
//
// With pair_concentration γ set, models share their pairs' distributions (dishes.go): model k's
// pair i is dish d(k, i), whose samples are those of every task of every model holding it, and
// M(D_i) above becomes
//
//	G₀(D_i) = Σ_d m_d/(M_i + γ) · DM(D_i | 1/S + N_d) · R_d(D_i) + γ/(M_i + γ) · M(D_i)
//
// over pair i's dishes d (m_d models hold d, M_i in all), the term of pair i under a new model
// and under every model without a dish there; a draw places on such a pair a dish or a library
// component by their shares of G₀(D_i) — on a pair with no own samples by G₀'s prior shares, the
// library's placing nothing there, so that a new model's draw knows the pairs the task has not
// reached as an earlier model's does — and when the task ends, a model without a dish at a
// visited pair takes the one of largest share (a new one for the library's). With edit_share β
// set as well, a new model may be an earlier one with some pairs changed (edits.go).
//
// With no model and an empty library it draws no random number and places nothing: it is its
// base PSRL, action for action.
type HybridPrior struct {
	p     HybridParams
	model PSRLModel // as given
	r     PSRLModel // model on the current task (its reward range, with TaskRange)
	w     PSRLModel // the reward model of the posterior weights on the current task (IdentifyNoise)
	overBase
	ownRewards
	mix    pairMixture
	models []hybridModel // of every size
	tables []dishTable   // their pairs' dishes, one table for each size

	// Per task.
	tab  int   // the table of the task's size (−1: none yet)
	cand []int // the models of the task's size
	// per candidate (the models, then with edits on their edits, edits.go), then fresh: ln of
	// the CRP prior.
	logPrior []float64
	// terms, per pair, per candidate then new: ln of the marginal likelihood of the pair's own
	// samples (as of its last reweighing) under the model.
	terms   []float64
	logw    []float64 // per candidate, then new: the posterior, as logs while computed
	drawn   int       // the candidate drawn last (−1: new)
	byModel []bool    // per pair: model drawn's pooled samples are placed on it
	dirty   []bool    // per pair, own samples since its terms were computed
	visited []int     // pairs with own samples, in order of first sample
	// Per pair, as of its last reweighing: ln M(D_i), and its term under each of its dishes
	// (whose models' terms they are).
	mixTerm   []float64
	dishTerms [][]float64
	shares    []float64 // dishShares' buffer
	clock     drawClock
	rng       *rand.Rand
	newW      float64 // the posterior weight of a new model at the end of the task
}

// NewHybridPrior validates p and returns the learner over base, a PSRL that draws at every call
// of EndEpisode, whose reward model and schedule are r.
func NewHybridPrior(p HybridParams, r PSRLModel, base agent.Base) (*HybridPrior, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := r.validate(HybridPriorType); err != nil {
		return nil, err
	}
	if err := p.checkNoise(r.Beta); err != nil {
		return nil, err
	}
	mix, err := newPairMixture(p.PriorParams)
	if err != nil {
		return nil, err
	}
	ob, err := newOverBase(base, HybridPriorType)
	if err != nil {
		return nil, err
	}
	return &HybridPrior{p: p, model: r, r: r, overBase: ob, mix: mix, clock: drawClock{schedule: r.Schedule}}, nil
}

// Models is the number of whole-task models the learner holds, of every size.
func (h *HybridPrior) Models() int { return len(h.models) }

// BeginTask begins the base, finds the models of the task's size and sets their prior weights,
// and the library's.
func (h *HybridPrior) BeginTask(t agent.Task) error {
	if err := h.begin(t); err != nil {
		return err
	}
	var err error
	if h.r, err = h.model.forTask(HybridPriorType, t, h.noise); err != nil {
		return err
	}
	h.w = weightsModel(h.r, h.p)
	h.rng = t.Rand
	n := t.S * t.A
	h.mix.begin(n)
	h.cand = h.cand[:0]
	tasks := 0
	h.tab = h.tableOf(t.S, t.A)
	for k, m := range h.models {
		if m.table == h.tab {
			h.cand = append(h.cand, k)
			tasks += m.tasks
		}
	}
	total := float64(tasks) + h.p.Concentration
	h.logPrior = h.logPrior[:0]
	for _, k := range h.cand {
		h.logPrior = append(h.logPrior, math.Log(float64(h.models[k].tasks)/total))
	}
	fresh := h.p.Concentration / total
	if h.p.edits() && tasks > 0 { // the edit of each candidate, β·T_k/T of a new model's prior
		for _, k := range h.cand {
			h.logPrior = append(h.logPrior, math.Log(fresh*h.p.EditShare*float64(h.models[k].tasks)/float64(tasks)))
		}
		fresh *= 1 - h.p.EditShare
	}
	h.logPrior = append(h.logPrior, math.Log(fresh))
	h.terms = buf.Zeroed(h.terms, n*len(h.logPrior))
	h.drawn = -1
	h.byModel = buf.Zeroed(h.byModel, n)
	h.beginRewards(n)
	h.dirty = buf.Zeroed(h.dirty, n)
	h.visited = h.visited[:0]
	h.mixTerm = buf.Zeroed(h.mixTerm, n)
	h.dishTerms = slices.Grow(h.dishTerms[:0], n)[:n]
	h.clock.reset(n)
	return nil
}

// weightsModel is the reward model of the posterior weights on a task whose base model is r.
// Under the Normal reward posteriors it is r's own (under normal-shared-noise, with the family's
// noise, forTask), with the noise learned from that prior scale under identify_variance learned:
// one reward model for the weights and the draws.
// Under the Beta posterior, whose Bernoulli likelihood of a fractional reward is at least 1/2
// under any mean near it, it is Normal: each reward about its pair's mean with noise σ_id times
// the range's half-width (known, or its prior scale when learned), the mean a priori the
// Normal of the range's middle and half-width; σ_id 0, or a range of one point, keeps the Beta.
func weightsModel(r PSRLModel, p HybridParams) PSRLModel {
	learned := p.IdentifyVariance == LearnedVariance
	if !r.Beta {
		r.LearnedNoise = learned
		return r
	}
	half := (r.RewardMax - r.RewardMin) / 2
	if p.IdentifyNoise == 0 || !(half > 0) {
		return r
	}
	return PSRLModel{RewardMean: (r.RewardMin + r.RewardMax) / 2, RewardSD: half, RewardNoise: p.IdentifyNoise * half, LearnedNoise: learned}
}

// Observe records the sample with the base and marks the pair's terms for computing again before
// the next draw; with TSDE or the doubling rule it draws when the epoch ends.
func (h *HybridPrior) Observe(s, a int, r float64, next int) {
	i := s*h.A + a
	seen := len(h.own.Successors(i))
	if !h.record(i, next, r) {
		return
	}
	n := h.own.N(i)
	if n == 1 {
		h.visited = append(h.visited, i)
	}
	h.ownSq[i] += r * r
	if len(h.mix.comps) == 0 || n <= exactWeights || n&(n-1) == 0 || len(h.own.Successors(i)) > seen {
		h.dirty[i] = true
	}
	if h.clock.ends(h.st.Samples(), i, n) {
		h.draw()
	}
}

// EndEpisode draws a model at the end of every episode when that is the schedule.
func (h *HybridPrior) EndEpisode() {
	if h.clock.atEpisodeEnd() {
		h.draw()
	}
}

// pairTerms are pair i's terms: per candidate, then new.
func (h *HybridPrior) pairTerms(i int) []float64 {
	k := len(h.logPrior)
	return h.terms[i*k : i*k+k]
}

// reweigh computes pair i's component weights in the library's mixture and its terms under every
// candidate model and a new one from its own samples.
func (h *HybridPrior) reweigh(i int) {
	mixture := h.mix.reweigh(i, &h.own, h.ownSq[i], h.S, h.w)
	dishes := h.dishesAt(i)
	h.dishTerms[i] = h.dishTerms[i][:0]
	for d := range dishes {
		h.dishTerms[i] = append(h.dishTerms[i], h.dishTerm(i, &dishes[d]))
	}
	h.mixTerm[i] = mixture
	g0 := mixture
	if h.p.sharesPairs() && len(dishes) > 0 {
		g0 = normalize(h.dishShares(i))
	}
	terms := h.pairTerms(i)
	K := len(h.cand)
	for j, k := range h.cand {
		if d := h.models[k].dish[i]; d >= 0 {
			terms[j] = h.dishTerms[i][d]
			if h.p.edits() {
				terms[K+j] = h.editTerm(terms[j], g0)
			}
		} else {
			terms[j] = g0
			if h.p.edits() {
				terms[K+j] = g0
			}
		}
	}
	terms[len(terms)-1] = g0
}

// posterior brings the terms of the pairs with new samples up to date and sets logw to the
// posterior over the candidates and a new model (probabilities).
func (h *HybridPrior) posterior() {
	for _, i := range h.visited {
		if h.dirty[i] {
			h.reweigh(i)
			h.dirty[i] = false
		}
	}
	h.logw = append(h.logw[:0], h.logPrior...)
	for _, i := range h.visited {
		for j, t := range h.pairTerms(i) {
			h.logw[j] += t
		}
	}
	normalize(h.logw)
}

// draw draws a model z from the posterior (no random number when a new model is certain), places
// its pooled samples on the pairs it has seen (an edit of it, its dishes where it keeps them,
// keepDish), draws a library component for every other visited pair (no random number with an
// empty library), has the base draw from the counts, and begins an epoch.
func (h *HybridPrior) draw() {
	h.posterior()
	z, edit := -1, -1 // the candidate drawn, or the candidate whose edit is drawn
	if len(h.cand) > 0 {
		j := drawIndex(h.logw, h.rng.Float64())
		if j < len(h.cand) {
			z = j
		}
		edit = h.editOf(j)
	}
	if z != h.drawn {
		for i := range h.S * h.A {
			var d *dish
			if z >= 0 {
				d = h.dishOf(h.cand[z], i)
			}
			if d != nil {
				h.placeSamples(i, d.succ, d.r)
				h.byModel[i] = true
			} else if h.byModel[i] {
				h.unplace(i)
				h.byModel[i] = false
			}
		}
		h.drawn = z
	}
	for _, i := range h.visited {
		if h.byModel[i] || edit >= 0 && h.keepDish(edit, i) || h.p.sharesPairs() && h.drawDish(i) {
			continue
		}
		if len(h.mix.comps) == 0 {
			h.unplace(i)
			continue
		}
		if k := drawIndex(h.mix.weights(i), h.rng.Float64()); k < len(h.mix.comps) {
			g := h.mix.comps[k].g
			h.place(i, g, h.mix.placedReward(g, &h.own, i, h.r), h.p.Strength, h.p.Partial)
		} else {
			h.unplace(i)
		}
	}
	if h.p.sharesPairs() {
		for i := range h.S * h.A {
			if !h.byModel[i] && h.own.N(i) == 0 && !(edit >= 0 && h.keepDish(edit, i)) && !h.drawDish(i) {
				h.unplace(i)
			}
		}
	}
	for i := range h.clock.nk {
		h.clock.nk[i] = h.own.N(i)
	}
	h.l.EndEpisode()
	h.clock.epochStart = h.st.Samples()
}

// drawDish draws, with γ set, whether pair i takes one of its dishes (placed, and true) or a
// library component (false), by their shares of G₀(D_i) — for a pair with no own samples its
// prior shares, and the library's component places nothing there; no random number when the
// pair has no dish.
func (h *HybridPrior) drawDish(i int) bool {
	dishes := h.dishesAt(i)
	if len(dishes) == 0 {
		return false
	}
	shares := h.dishShares(i)
	normalize(shares)
	d := drawIndex(shares, h.rng.Float64())
	if d == len(dishes) {
		return false
	}
	h.placeSamples(i, dishes[d].succ, dishes[d].r)
	return true
}

// EndTask gives the task to the candidate of the largest posterior weight (a new model on equal
// weights), or makes it a new model (holding, if it is an edit, the dishes of its earlier model
// that it keeps: inherit), whose pairs with at least m_s own samples the library learns;
// the task's samples of each visited pair join the model's dish there, which a model without one
// takes first (seat).
// Without the whole-task part every task is a new model and no model is kept. It pools the
// task's rewards first (endRewards).
func (h *HybridPrior) EndTask() {
	h.endRewards(&h.own, h.model)
	h.posterior()
	h.newW = 0
	for _, w := range h.logw[len(h.cand):] { // fresh, and the edits
		h.newW += w
	}
	best := h.freshIndex()
	for j, w := range h.logw {
		if w > h.logw[best] {
			best = j
		}
	}
	edit := h.editOf(best) // the candidate whose edit is most probable, or −1
	if best >= len(h.cand) {
		if h.p.Templates {
			h.mix.learn(&h.own, h.visited, h.S)
		}
		if !h.p.WholeTasks {
			return
		}
		h.tab = h.table(h.S, h.A)
		h.models = append(h.models, hybridModel{table: h.tab, dish: slices.Repeat([]int32{-1}, h.S*h.A)})
		best = len(h.models) - 1
		if edit >= 0 {
			h.inherit(&h.models[best], edit)
		}
	} else {
		best = h.cand[best]
	}
	m := &h.models[best]
	dishes := h.tables[h.tab].pairs
	for _, i := range h.visited {
		if m.dish[i] < 0 {
			m.dish[i] = h.seat(i)
			dishes[i][m.dish[i]].models++
		}
		n, r, succ := h.own.Pair(i)
		dishes[i][m.dish[i]].add(succ, n, r, h.ownSq[i])
	}
	m.tasks++
}

// TaskMetrics are the base's statistics; the whole-task models held and the posterior weight of a
// new model at the end of the task (fresh, and with edits on every edit's); the library's size and the templates added this task; and the
// pairs placed at the end of the task, from a model or from the library.
func (h *HybridPrior) TaskMetrics() []agent.Metric {
	return append(h.st.Metrics(),
		agent.Metric{Name: "latent_models", Value: float64(len(h.models))},
		agent.Metric{Name: "new_model_weight", Value: h.newW},
		agent.Metric{Name: "library_size", Value: float64(h.mix.lib.Len())},
		agent.Metric{Name: "new_templates", Value: float64(h.mix.created)},
		agent.Metric{Name: "placed_pairs", Value: float64(h.placedPairs())})
}

// rename makes err, an error of the learner named from, one of the learner named to.
func rename(err error, from, to string) error {
	if rest, ok := strings.CutPrefix(err.Error(), from); ok {
		return errors.New(to + rest)
	}
	return err
}
