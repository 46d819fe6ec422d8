package temple

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// LatentParams are the parameters of LatentPSRL, posterior sampling over the models of past tasks.
type LatentParams struct {
	// Concentration is the Chinese restaurant process's α: the prior weight of a "new model"
	// against a past model's count of the tasks it explained.
	Concentration float64 `yaml:"concentration" doc:"α of the Chinese restaurant process: the prior weight of a new model, beside each past model's count of tasks it explained" range:"> 0"`
}

// DefaultLatentParams are α = 1: a new model is as likely a priori as a model seen once.
func DefaultLatentParams() LatentParams { return LatentParams{Concentration: 1} }

// Validate names the first parameter out of range.
func (p LatentParams) Validate() error {
	if !(p.Concentration > 0) || math.IsInf(p.Concentration, 0) {
		return fmt.Errorf("latent-psrl: concentration = %v, want a finite number > 0", p.Concentration)
	}
	return nil
}

// LatentSchedule is when LatentPSRL draws a component and a model: the PSRL schedules'
// (learners.PSRLSchedule), counted on the task's own samples.
type LatentSchedule int

const (
	LatentPerEpisode LatentSchedule = iota // at the end of every runner episode
	LatentTSDE                             // TSDE's epochs (Ouyang et al. 2017)
	LatentDoubling                         // UCRL2's doubling rule
)

// LatentPrior is what LatentPSRL takes of its PSRL base: α₀ of its Dirichlet prior, the range of
// the rewards of its Beta posterior, and its schedule.
type LatentPrior struct {
	Alpha                float64
	RewardMin, RewardMax float64
	Schedule             LatentSchedule
}

// LatentPSRL is posterior sampling for a latent MDP (the finite-model setting of Brunskill & Li,
// UAI 2013): every task's model is one of a finite, unknown set that recurs. It keeps a library
// of models learned from finished tasks — each component the pooled counts of the tasks it
// explained — and puts a Chinese-restaurant-process prior on the current task's model: component
// k with weight T_k/(T + α), T_k the tasks it explained of T, and a "new model" with α/(T + α).
//
// Conjugacy makes the posterior exact given the library: component k's weight is its prior
// weight times the marginal likelihood of the task's own samples under it, per pair the
// Dirichlet–multinomial with parameters α₀ + c_k(s,a,s′) over all S next states and the
// Beta–Bernoulli of the scaled rewards with parameters 1 + X_k, 1 + C_k − X_k (c_k, C_k, X_k: the
// component's counts, their sum and scaled reward sum); the new model's are those with c_k = 0.
// The log weights are updated after every own sample by the predictive probability of that
// sample, ln((α₀ + c_k(s′) + n(s′))/(S·α₀ + C_k + n)) plus the reward's Beta term, so a step costs
// O(K) for K components, and pairs the task has not sampled contribute nothing.
//
// To draw (on the PSRL schedule, counted on own samples), LatentPSRL draws a component from these
// weights and gives the base PSRL, for every pair the component has counts of, its own samples
// plus the component's as pseudo-counts (agent.Replacer); the base draws from Dirichlet(α₀ + own +
// component) and Beta as usual and plans. The new model leaves the base its own samples: plain
// PSRL. With an empty library no component is drawn and no random number is spent, so it is PSRL
// exactly. What is approximated (docs/decisions.md, "A latent-model posterior over PSRL"): the
// library is grouped greedily — at the end of a task its samples join the component of largest
// posterior weight, or found a new one when that is the new model — rather than by a posterior
// over partitions; the base's prior support (observed states, by default) differs from the
// likelihood's (all S states); rewards in [0, 1] that are not 0 or 1 enter the Beta fractionally.
type LatentPSRL struct {
	p LatentParams
	r LatentPrior
	overBase
	comps []latentComponent

	// Per task.
	logw     []float64 // log posterior weight of each component, then of the new model
	w        []float64 // scratch: the weights as probabilities
	choice   int       // the component drawn last (−1: new)
	replaced []int     // pairs whose base statistics hold the drawn component's counts
	merged   []mdp.Succ
	nk       []int64 // own count of each pair when the epoch began
	rng      *rand.Rand
	// TSDE's epoch: own samples when it began and the last epoch's length.
	epochStart, lastLen int64
	samples             int64
	created             int
}

// latentComponent is one model of the library: the pooled counts of the tasks it explained.
type latentComponent struct {
	counts *mdp.Counts
	tasks  int64
}

// NewLatentPSRL validates p and returns the learner over base, a PSRL that draws at every call of
// EndEpisode and whose prior and schedule are r.
func NewLatentPSRL(p LatentParams, r LatentPrior, base agent.Base) (*LatentPSRL, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if !(r.Alpha > 0) || !(r.RewardMax > r.RewardMin) {
		return nil, fmt.Errorf("latent-psrl: prior α₀ = %v and reward range [%v, %v], want α₀ > 0 and a range of positive width", r.Alpha, r.RewardMin, r.RewardMax)
	}
	ob, err := newOverBase(base, "latent-psrl")
	if err != nil {
		return nil, err
	}
	return &LatentPSRL{p: p, r: r, overBase: ob}, nil
}

// Components is the number of models in the library.
func (lp *LatentPSRL) Components() int { return len(lp.comps) }

// BeginTask begins the base (which draws its first model from the prior) and sets the log
// weights to the CRP prior; with a library it draws a component and the base's model again.
func (lp *LatentPSRL) BeginTask(t agent.Task) error {
	lp.begin(t)
	lp.rng = t.Rand
	var total int64
	for _, c := range lp.comps {
		total += c.tasks
	}
	K := len(lp.comps)
	lp.logw = buf.Zeroed(lp.logw, K+1)
	norm := math.Log(float64(total) + lp.p.Concentration)
	for k, c := range lp.comps {
		lp.logw[k] = math.Log(float64(c.tasks)) - norm
	}
	lp.logw[K] = math.Log(lp.p.Concentration) - norm
	lp.choice, lp.replaced = -1, lp.replaced[:0]
	lp.nk = buf.Zeroed(lp.nk, t.S*t.A)
	lp.epochStart, lp.lastLen, lp.samples, lp.created = 0, 1, 0, 0 // T_0 = 1, as learners.PSRL
	if K > 0 {
		lp.draw()
	}
	return nil
}

// Observe adds the sample's predictive log probability under each component to its log weight,
// records it with the base, and draws on the schedule.
func (lp *LatentPSRL) Observe(s, a int, r float64, next int) {
	i := s*lp.A + a
	lp.reweigh(i, next, r)
	if !lp.record(i, next, r) {
		return
	}
	lp.samples++
	n := lp.own.N(i)
	switch {
	case lp.r.Schedule == LatentTSDE && (lp.samples-lp.epochStart > lp.lastLen || n > 2*lp.nk[i]):
		lp.lastLen = lp.samples - lp.epochStart
		lp.draw()
	case lp.r.Schedule == LatentDoubling && n-lp.nk[i] >= max(1, lp.nk[i]):
		lp.draw()
	}
}

// reweigh adds to each log weight ln p(next, r | the pair's own samples so far, component): the
// Dirichlet–multinomial's and the Beta's predictive probabilities.
func (lp *LatentPSRL) reweigh(i, next int, r float64) {
	width := lp.r.RewardMax - lp.r.RewardMin
	x := math.Min(1, math.Max(0, (r-lp.r.RewardMin)/width))
	n, sum := lp.own.N(i), lp.own.R(i)
	nx := math.Min(float64(n), math.Max(0, (sum-float64(n)*lp.r.RewardMin)/width))
	ns := countOf(lp.own.Successors(i), next)
	for k := range lp.logw {
		var c, cs int64
		cx := 0.0
		if k < len(lp.comps) {
			cc := lp.comps[k].counts
			c, cs = cc.N(i), countOf(cc.Successors(i), next)
			cx = math.Min(float64(c), math.Max(0, (cc.R(i)-float64(c)*lp.r.RewardMin)/width))
		}
		trans := (lp.r.Alpha + float64(cs+ns)) / (float64(lp.S)*lp.r.Alpha + float64(c+n))
		a, b := 1+cx+nx, 1+float64(c+n)-cx-nx
		switch x { // one logarithm a step when the reward is 0 or 1
		case 1:
			lp.logw[k] += math.Log(trans * a / (a + b))
		case 0:
			lp.logw[k] += math.Log(trans * b / (a + b))
		default:
			lp.logw[k] += math.Log(trans) + betaFraction(a, b, x)
		}
	}
}

// betaFraction is ln of B(a + x, b + 1 − x)/B(a, b): the Beta(a, b) marginal of one more
// reward scaled to x in (0, 1), fractionally (a/(a + b) and b/(a + b) at x = 1 and 0).
func betaFraction(a, b, x float64) float64 {
	return lgamma(a+x) - lgamma(a) + lgamma(b+1-x) - lgamma(b) - math.Log(a+b) // Γ(a+b+1) = (a+b)·Γ(a+b)
}

// countOf is the count of state next among succ.
func countOf(succ []mdp.Succ, next int) int64 {
	for _, x := range succ {
		if int(x.State) == next {
			return x.N
		}
	}
	return 0
}

// Weights are the posterior probabilities of the library's components, then of the new model.
func (lp *LatentPSRL) Weights() []float64 {
	lp.w = append(lp.w[:0], lp.logw...)
	normalize(lp.w)
	return lp.w
}

// EndEpisode draws at the end of every episode when the schedule is per episode.
func (lp *LatentPSRL) EndEpisode() {
	if lp.r.Schedule == LatentPerEpisode {
		lp.draw()
	}
}

// draw draws a component from the posterior (none with an empty library), gives the base its
// counts beside the own samples, has the base draw its model, and begins an epoch.
func (lp *LatentPSRL) draw() {
	if len(lp.comps) > 0 {
		lp.choice = drawIndex(lp.Weights(), lp.rng.Float64())
		if lp.choice == len(lp.comps) {
			lp.choice = -1
		}
		lp.placeComponent()
	}
	lp.l.EndEpisode()
	lp.epochStart = lp.samples
	for i := range lp.nk {
		lp.nk[i] = lp.own.N(i)
	}
}

// placeComponent leaves every pair its own samples, then adds the drawn component's counts to
// the pairs it has any of.
func (lp *LatentPSRL) placeComponent() {
	for _, i := range lp.replaced {
		lp.rep.Replace(i, lp.own.Successors(i), lp.own.R(i))
	}
	lp.replaced = lp.replaced[:0]
	if lp.choice < 0 {
		return
	}
	cc := lp.comps[lp.choice].counts
	for i := range lp.S * lp.A {
		n, r, succ := cc.Pair(i)
		if n == 0 {
			continue
		}
		lp.merged = append(lp.merged[:0], lp.own.Successors(i)...)
		for _, x := range succ {
			j := 0
			for j < len(lp.merged) && lp.merged[j].State != x.State {
				j++
			}
			if j == len(lp.merged) {
				lp.merged = append(lp.merged, mdp.Succ{State: x.State})
			}
			lp.merged[j].N += x.N
		}
		lp.rep.Replace(i, lp.merged, lp.own.R(i)+r)
		lp.replaced = append(lp.replaced, i)
	}
}

// EndTask gives the task's own samples to the component of largest posterior weight, or makes
// them a new component when that is the new model (a greedy CRP assignment).
func (lp *LatentPSRL) EndTask() {
	if lp.samples == 0 {
		return
	}
	k := 0
	for j, x := range lp.logw {
		if x > lp.logw[k] {
			k = j
		}
	}
	if k == len(lp.comps) {
		lp.comps = append(lp.comps, latentComponent{counts: lp.own.Clone(), tasks: 1})
		lp.created++
		return
	}
	lp.comps[k].counts.Merge(&lp.own)
	lp.comps[k].tasks++
}

// TaskMetrics are the base's statistics, the library's size, whether this task founded a new
// component, the posterior weight of the new model at the end of the task, and the component
// drawn last (its index in the library, −1 for the new model).
func (lp *LatentPSRL) TaskMetrics() []agent.Metric {
	w := lp.Weights()
	return append(lp.st.Metrics(),
		agent.Metric{Name: "library_size", Value: float64(len(lp.comps))},
		agent.Metric{Name: "new_models", Value: float64(lp.created)},
		agent.Metric{Name: "new_model_weight", Value: w[len(w)-1]},
		agent.Metric{Name: "drawn_model", Value: float64(lp.choice)})
}
