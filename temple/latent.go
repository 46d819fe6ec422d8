package temple

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// LatentPSRLType is LatentPrior's agent type: the name a config gives it (type: latent-psrl) and
// its errors begin with.
const LatentPSRLType = "latent-psrl"

// LatentParams are the parameters of LatentPrior, posterior sampling over the task models seen
// so far and a new one.
type LatentParams struct {
	// Concentration is α of the Chinese restaurant process over the task models: after T tasks, a
	// task's model is new with prior probability α/(T + α), and that of a model which T_k of them
	// had with T_k/(T + α).
	Concentration float64 `yaml:"concentration" doc:"α of the Chinese restaurant process over task models: after T tasks, a task's model is new with prior probability α/(T + α), that of a model T_k of them had with T_k/(T + α)" range:"> 0"`
}

// DefaultLatentParams are α = 1.
func DefaultLatentParams() LatentParams { return LatentParams{Concentration: 1} }

// Validate names the first parameter out of range.
func (p LatentParams) Validate() error {
	if !(p.Concentration > 0) || math.IsInf(p.Concentration, 0) {
		return fmt.Errorf("latent-psrl: concentration = %v, want a finite number > 0", p.Concentration)
	}
	return nil
}

// latent-psrl registers with PSRL's search space and α of its Chinese restaurant process over
// task models.
func init() {
	agenttypes.Register(agenttypes.Type{Name: LatentPSRLType, Display: "Latent-PSRL", Summary: "PSRL whose prior is a mixture over the task models seen so far and a new one: Wilson et al. 2007's model class acting as MixTS (Hong et al. 2022), the mixture learned across tasks as in Meta-TS (Kveton et al. 2021)",
		Defaults: func() agenttypes.Params {
			return &LatentPSRLSpec{PSRLParams: learners.DefaultPSRL(), LatentParams: DefaultLatentParams()}
		}, PairBytes: 200, Search: agenttypes.Join(learners.PSRLSearch, agenttypes.LogReal("concentration", 0.01, 100)),
		Needs: agenttypes.Needs{SameStates: true, SameActions: true, Why: "its posterior is over whole task models, pair by pair"}, Rank: 130})
}

// LatentPSRLSpec is latent-psrl as a config gives it: its base is PSRL, whose keys it has beside
// its own (and whose inert keys are its).
type LatentPSRLSpec struct {
	learners.PSRLParams `yaml:",inline"`
	LatentParams        `yaml:",inline"`
}

// Validate checks PSRL's keys and the learner's.
func (p *LatentPSRLSpec) Validate() error {
	if err := p.PSRLParams.Validate(); err != nil {
		return err
	}
	return p.LatentParams.Validate()
}

// New builds the learner over a PSRL that draws when the learner says, on the PSRL schedule of
// the config (as template-prior).
func (p *LatentPSRLSpec) New(agenttypes.Context) (agent.Agent, error) {
	base, err := learners.NewPSRL(drawnBase(p.PSRLParams))
	if err != nil {
		return nil, err
	}
	return NewLatentPrior(p.LatentParams, psrlModel(p.PSRLParams), base)
}

// MemoryBytes is PSRL's and, at most, one model a task: each pair's counts with up to 8 next
// states (a grid's move reaches a few; an estimate, not a bound, for tasks where a pair reaches
// many), and the weights' reward terms of every model and pair.
func (p *LatentPSRLSpec) MemoryBytes(typeBytes, S, A, tasks int64) int64 {
	return p.PSRLParams.MemoryBytes(typeBytes, S, A, tasks) + tasks*S*A*(48+16*min(S, 8)+16)
}

// LatentPrior is posterior sampling for a latent MDP (the setting of Brunskill & Li, UAI 2013;
// Kwon, Efroni, Caramanis & Mannor, NeurIPS 2021, for its limits), over a PSRL base: each task's
// model is one of the models of the tasks before it or a new one, a priori by a Chinese
// restaurant process of concentration α, and a model is Dirichlet over each pair's next states
// and Beta (or Normal) on its mean reward. It is the finite-model setting's counterpart of
// TemplatePrior: a mixture prior over whole tasks where TemplatePrior's is over each pair.
//
// Model k holds the own samples of the tasks assigned to it, pooled (N_k). Under model k a pair's
// next states are Dirichlet(1/S + N_k(s,a,·)) — the posterior of the sparse Dirichlet(1/S, …, 1/S)
// given those samples, the tasks of one model sharing its transitions exactly — and under the new
// model Dirichlet(1/S, …, 1/S). The posterior weight of model k is its prior weight times the
// marginal likelihood of the task's own samples, exact and kept up to date sample by sample: the
// predictive probability (1/S + N_k(s,a,s′) + n(s,a,s′))/(1 + N_k(s,a) + n(s,a)) of each next
// state, and the rewards' marginal under the model's reward posterior (PSRLModel.rewardData). To
// draw a model it draws k from those weights, places N_k beside every pair's own samples as
// pseudo-counts (agent.Replacer; the new model places nothing), and has the base draw from its
// posterior on these counts. At the end of a task the task joins the model of the largest
// posterior weight, or starts a new one.
//
// What is approximated (docs/decisions.md, "The latent-model posterior"): a finished task joins
// one model (the posterior's mode) instead of being kept as a distribution over models, so the
// models are never regrouped; the base draws with its own prior (α₀ over observed next states)
// where the weights use the sparse Dirichlet(1/S).
type LatentPrior struct {
	p     LatentParams
	model PSRLModel // as given
	r     PSRLModel // model on the current task (its reward range, with TaskRange)
	overBase
	ownRewards
	models []latentModel
	tasks  int // finished tasks

	// Per task.
	logw    []float64 // per model, then new: log prior weight + log marginal likelihood so far
	drawn   int       // the model drawn last, placed beside the own samples (−1: new)
	clock   drawClock
	rng     *rand.Rand
	weights []float64
	// Per model, then new, per pair: ln of the marginal likelihood of the pair's own rewards so
	// far and its normaliser (rewardData, rewardNorm), kept so that a sample costs one term.
	rewardML, rewardNorm []float64
}

// latentModel is one task model: the pooled own samples of the tasks that had it.
type latentModel struct {
	counts mdp.Counts
	tasks  int
}

// NewLatentPrior validates p and returns the learner over base, a PSRL that draws at every call
// of EndEpisode, whose reward model and schedule are r.
func NewLatentPrior(p LatentParams, r PSRLModel, base agent.Base) (*LatentPrior, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := r.validate(LatentPSRLType); err != nil {
		return nil, err
	}
	ob, err := newOverBase(base, LatentPSRLType)
	if err != nil {
		return nil, err
	}
	return &LatentPrior{p: p, model: r, r: r, overBase: ob, clock: drawClock{schedule: r.Schedule}}, nil
}

// Models is the number of task models the learner holds.
func (lp *LatentPrior) Models() int { return len(lp.models) }

// BeginTask begins the base and sets the models' prior weights: T_k/(T + α), new α/(T + α).
func (lp *LatentPrior) BeginTask(t agent.Task) error {
	if len(lp.models) > 0 && (lp.models[0].counts.S != t.S || lp.models[0].counts.A != t.A) {
		return fmt.Errorf("latent-psrl: a task of %d states and %d actions after tasks of %d and %d: the latent-model posterior needs tasks of one size",
			t.S, t.A, lp.models[0].counts.S, lp.models[0].counts.A)
	}
	if err := lp.begin(t); err != nil {
		return err
	}
	var err error
	if lp.r, err = lp.model.forTask(LatentPSRLType, t, lp.noise); err != nil {
		return err
	}
	lp.rng = t.Rand
	total := float64(lp.tasks) + lp.p.Concentration
	lp.logw = lp.logw[:0]
	for _, m := range lp.models {
		lp.logw = append(lp.logw, math.Log(float64(m.tasks)/total))
	}
	lp.logw = append(lp.logw, math.Log(lp.p.Concentration/total))
	lp.drawn = -1
	lp.beginRewards(t.S * t.A)
	lp.rewardML = buf.Zeroed(lp.rewardML, len(lp.logw)*t.S*t.A)
	lp.rewardNorm = buf.Zeroed(lp.rewardNorm, len(lp.logw)*t.S*t.A)
	lp.clock.reset(t.S * t.A)
	return nil
}

// Observe brings every model's weight up to date with the sample, records it with the base, and
// draws when the schedule's epoch ends.
func (lp *LatentPrior) Observe(s, a int, r float64, next int) {
	i := s*lp.A + a
	n, sum, succ := lp.own.Pair(i)
	nNext, sq := succCount(succ, next), lp.ownSq[i]
	if !lp.record(i, next, r) {
		return
	}
	for k := range lp.logw {
		var m *mdp.Counts // nil: the new model
		if k < len(lp.models) {
			m = &lp.models[k].counts
		}
		lp.logw[k] += lp.transitionStep(m, i, next, n, nNext) + lp.rewardStep(k, m, i, n, sum, sq, r)
	}
	lp.ownSq[i] += r * r
	if lp.clock.ends(lp.st.Samples(), i, lp.own.N(i)) {
		lp.draw()
	}
}

// transitionStep is ln of the predictive probability of next for pair i under model m (nil: the
// new model), given the task's own n samples of i, nNext of them to next:
// (1/S + N_m(i, next) + nNext)/(1 + N_m(i) + n).
func (lp *LatentPrior) transitionStep(m *mdp.Counts, i, next int, n, nNext int64) float64 {
	var nm, nmNext int64
	if m != nil {
		nm, nmNext = m.N(i), succCount(m.Successors(i), next)
	}
	return math.Log((1/float64(lp.S) + float64(nmNext+nNext)) / (1 + float64(nm+n)))
}

// rewardStep is the change of ln of the marginal likelihood of pair i's own rewards under model
// k, m its counts (nil: new), when reward r joins its n rewards of sum sum and sum of squares sq.
func (lp *LatentPrior) rewardStep(k int, m *mdp.Counts, i int, n int64, sum, sq, r float64) float64 {
	var nm int64
	var sm float64
	if m != nil {
		nm, sm = m.N(i), m.R(i)
	}
	at := k*lp.S*lp.A + i
	if n == 0 {
		lp.rewardNorm[at] = lp.r.rewardNorm(nm, sm)
	}
	ml := lp.r.rewardData(n+1, sum+r, sq+r*r, nm, sm) - lp.rewardNorm[at]
	d := ml - lp.rewardML[at]
	lp.rewardML[at] = ml
	return d
}

// EndEpisode draws a model at the end of every episode when that is the schedule.
func (lp *LatentPrior) EndEpisode() {
	if lp.clock.atEpisodeEnd() {
		lp.draw()
	}
}

// draw draws a model from the posterior weights, places it beside the own samples when it is not
// the one placed already, has the base draw from the counts, and begins an epoch.
func (lp *LatentPrior) draw() {
	k := -1 // with no model yet the new one is certain, and no random number is drawn
	if len(lp.models) > 0 {
		lp.weights = append(lp.weights[:0], lp.logw...)
		normalize(lp.weights)
		if k = drawIndex(lp.weights, lp.rng.Float64()); k == len(lp.models) {
			k = -1
		}
	}
	if k != lp.drawn {
		lp.placeModel(k)
		lp.drawn = k
	}
	for i := range lp.clock.nk {
		lp.clock.nk[i] = lp.own.N(i)
	}
	lp.l.EndEpisode()
	lp.clock.epochStart = lp.st.Samples()
}

// placeModel sets every pair's statistics to its own samples plus model k's pooled samples (k −1:
// its own samples alone). An own sample recorded later joins both, so a placement stays right
// until another model is drawn.
func (lp *LatentPrior) placeModel(k int) {
	for i := range lp.S * lp.A {
		if k < 0 || lp.models[k].counts.N(i) == 0 {
			lp.unplace(i)
			continue
		}
		lp.placePooled(i, &lp.models[k].counts)
	}
}

// EndTask gives the task to the model of the largest posterior weight (the first of equal ones),
// or makes it a new model; and pools the task's rewards (endRewards).
func (lp *LatentPrior) EndTask() {
	best := len(lp.logw) - 1
	for k, w := range lp.logw {
		if w > lp.logw[best] {
			best = k
		}
	}
	if best == len(lp.models) {
		lp.models = append(lp.models, latentModel{})
		lp.models[best].counts.Reset(lp.S, lp.A)
	}
	m := &lp.models[best]
	m.counts.Merge(&lp.own)
	m.tasks++
	lp.tasks++
	lp.endRewards(&lp.own, lp.model)
}

// TaskMetrics are the base's statistics, the models held, and the posterior weight of a new model
// at the end of the task.
func (lp *LatentPrior) TaskMetrics() []agent.Metric {
	lp.weights = append(lp.weights[:0], lp.logw...)
	normalize(lp.weights)
	return append(lp.st.Metrics(),
		agent.Metric{Name: "latent_models", Value: float64(len(lp.models))},
		agent.Metric{Name: "new_model_weight", Value: lp.weights[len(lp.weights)-1]})
}

// succCount is the count of next among succ.
func succCount(succ []mdp.Succ, next int) int64 {
	for _, x := range succ {
		if int(x.State) == next {
			return x.N
		}
	}
	return 0
}
