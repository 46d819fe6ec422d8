package temple

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

// hybridAgent is HybridPrior (α 1, m_s 10, c 50, ν 0.1; Beta rewards on [0, 1], a draw per
// episode) over PSRL, holding the given models (as latentAgent) and library templates (reward 0,
// each given once), beginning a task of 10 states and 1 action.
func hybridAgent(t *testing.T, models []latentModelSpec, tmpls ...[]template.Count) *HybridPrior {
	t.Helper()
	p := DefaultHybridParams()
	p.IdentifyNoise, p.IdentifyVariance = 0, KnownVariance // the base's Beta rewards, as latent-psrl's hand-worked tests
	return hybridAgentWith(t, p, models, tmpls...)
}

// hybridAgentWith is hybridAgent with parameters p.
func hybridAgentWith(t *testing.T, p HybridParams, models []latentModelSpec, tmpls ...[]template.Count) *HybridPrior {
	t.Helper()
	h, err := NewHybridPrior(p, PSRLModel{Beta: true, RewardMax: 1}, episodePSRL(t))
	if err != nil {
		t.Fatal(err)
	}
	h.models, h.tables = hybridModelsOf(heldOf(models)...)
	for _, c := range tmpls {
		h.mix.given[h.mix.lib.Add(c, 0).ID] = 1
	}
	if err := h.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	return h
}

// heldModel is a model for the tests: its dish at pair 0 of a 10-state, 1-action task, and the
// tasks it had.
type heldModel struct {
	dish  dish
	tasks int
}

// heldOf are the models of specs: pair 0 moved to next n times, reward 0.
func heldOf(specs []latentModelSpec) []heldModel {
	var out []heldModel
	for _, m := range specs {
		out = append(out, heldModel{dish{succ: []mdp.Succ{{State: int32(m.next), N: m.n}}, n: m.n}, m.tasks})
	}
	return out
}

// hybridModelsOf are HybridPrior's models of the held ones, each holding its dish at pair 0 alone,
// and their table.
func hybridModelsOf(held ...heldModel) ([]hybridModel, []dishTable) {
	tb := dishTable{S: 10, A: 1, pairs: make([][]dish, 10)}
	var models []hybridModel
	for _, m := range held {
		d := slices.Repeat([]int32{-1}, 10)
		d[0] = int32(len(tb.pairs[0]))
		m.dish.models = 1
		tb.pairs[0] = append(tb.pairs[0], m.dish)
		models = append(models, hybridModel{table: 0, dish: d, tasks: m.tasks})
	}
	return models, []dishTable{tb}
}

// hybridPosterior is the learner's posterior over its models of the task's size, then new.
func hybridPosterior(h *HybridPrior) []float64 {
	h.posterior()
	return slices.Clone(h.logw)
}

// closeTo reports whether got is want normalised, to 1e-12 each.
func closeTo(got, want []float64) bool {
	total := 0.0
	for _, w := range want {
		total += w
	}
	for k := range want {
		if math.Abs(got[k]-want[k]/total) > 1e-12 {
			return false
		}
	}
	return len(got) == len(want)
}

// With an empty library the posterior over whole tasks is latent-psrl's (TestLatentPosteriorByHand:
// ∝ 100.1/102, 0.1/102 and 0.05 after one sample to state 1). With a deterministic template in
// the library (weight 0.9, new 0.1), a new model's pair has the library's mixture marginal
// instead of the sparse Dirichlet's: the template places the one state seen with probability
// 1/S, its Dirichlet(50·[1]) gives it likelihood Γ(50)/Γ(51)·Γ(51)/Γ(50) = 1 and its reward prior
// Beta(1, 51) gives reward 0 likelihood 51/52, so M = 0.9·0.1·51/52 + 0.1·0.05 = 0.0932692…, and the
// posterior is ∝ 100.1/102, 0.1/102 and M.
func TestHybridPosteriorByHand(t *testing.T) {
	models := []latentModelSpec{{1, 100, 1}, {2, 100, 1}}
	h := hybridAgent(t, models)
	h.Observe(0, 0, 0, 1)
	if got, want := hybridPosterior(h), []float64{100.1 / 102, 0.1 / 102, 0.05}; !closeTo(got, want) {
		t.Errorf("empty library: posterior %v, want ∝ %v", got, want)
	}
	h = hybridAgent(t, models, []template.Count{{Rank: 0, N: 10}})
	h.Observe(0, 0, 0, 1)
	m := 0.9*0.1*51/52 + 0.1*0.05
	if got, want := hybridPosterior(h), []float64{100.1 / 102, 0.1 / 102, m}; !closeTo(got, want) {
		t.Errorf("a deterministic template: posterior %v, want ∝ %v", got, want)
	}
	// A pair that no model has seen has the mixture's marginal under every model and under a new
	// one: its samples leave the posterior over models as it was.
	seen := hybridAgent(t, models, []template.Count{{Rank: 0, N: 10}})
	seen.Observe(0, 0, 0, 1) // as h
	for _, next := range []int{3, 3, 4, 3} {
		h.Observe(0, 0, 0, 1)
		seen.Observe(0, 0, 0, 1)
		seen.Observe(1, 0, 0.5, next)
	}
	if got, want := hybridPosterior(seen), hybridPosterior(h); !closeTo(got, want) {
		t.Errorf("samples of a pair no model has seen moved the posterior from %v to %v", want, got)
	}
}

// sharedAgent is hybridAgent with pair_concentration γ = 1 holding four models of one task each:
// models 0 and 1 share a dish at pair 0 (100 moves to state 1), model 2 holds another (100 to
// state 2), model 3 none.
func sharedAgent(t *testing.T) *HybridPrior {
	t.Helper()
	p := DefaultHybridParams()
	p.IdentifyNoise, p.PairConcentration = 0, 1
	return sharedAgentWith(t, p)
}

// sharedAgentWith is sharedAgent with parameters p.
func sharedAgentWith(t *testing.T, p HybridParams) *HybridPrior {
	t.Helper()
	h := hybridAgentWith(t, p, nil)
	h.models, h.tables = hybridModelsOf(heldOf([]latentModelSpec{{1, 100, 1}, {2, 100, 1}, {2, 100, 1}})...)
	h.models[1].dish[0] = 0 // model 1 takes model 0's dish (to state 1), model 2 the second (to state 2)
	h.models[2].dish[0] = 1
	h.tables[0].pairs[0] = h.tables[0].pairs[0][:2] // the third, now held by none, dropped
	h.tables[0].pairs[0][0].models = 2
	h.models = append(h.models, hybridModel{dish: slices.Repeat([]int32{-1}, 10), tasks: 1})
	if err := h.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	return h
}

// With γ = 1, after one sample to state 1 (reward 0) at pair 0, models 0 and 1 have their shared
// dish's term 100.1/102 (TestHybridPosteriorByHand), model 2 its dish's 0.1/102, and model 3 (no
// dish at the pair) and a new model G₀ = (2/4)·100.1/102 + (1/4)·0.1/102 + (1/4)·0.05: the dishes
// at m_d/(M_i + γ), M_i = 3 models holding one, and the empty library's sparse Dirichlet and Beta
// (0.1·1/2) at γ/(M_i + γ). Every prior is 1/5 (T = 4 tasks, α = 1), so the posterior is ∝ those
// five terms. A pair with no dish has M under every model and leaves the posterior as it was.
func TestHybridPairConcentrationByHand(t *testing.T) {
	h := sharedAgent(t)
	h.Observe(0, 0, 0, 1)
	a, b := 100.1/102, 0.1/102
	g0 := a/2 + b/4 + 0.05/4
	if got, want := hybridPosterior(h), []float64{a, a, b, g0, g0}; !closeTo(got, want) {
		t.Errorf("posterior %v, want ∝ %v", got, want)
	}
	before := hybridPosterior(h)
	for _, next := range []int{3, 3, 4} {
		h.Observe(1, 0, 0.5, next)
	}
	if got := hybridPosterior(h); !closeTo(got, before) {
		t.Errorf("samples of a pair with no dish moved the posterior from %v to %v", before, got)
	}
}

// fixedSource is a random source whose every number is its value: Float64 gives 0 for 0 and
// just under 1 for ^0.
type fixedSource uint64

func (s fixedSource) Uint64() uint64 { return uint64(s) }

// With γ set, a pair drawn from G₀ takes a dish by its share (u = 0: the first, the shared one,
// its 100 samples placed beside the pair's own) or the library's (u just under 1: with an empty
// library, the pair's own samples alone); a pair with no dish draws no random number.
func TestHybridPairConcentrationDraws(t *testing.T) {
	h := sharedAgent(t)
	h.Observe(0, 0, 0, 1)
	h.Observe(1, 0, 0, 3)
	h.posterior()
	h.rng = rand.New(fixedSource(0))
	if !h.drawDish(0) || !h.placed[0] {
		t.Errorf("u = 0: pair 0 did not take a dish")
	}
	h.unplace(0)
	h.rng = rand.New(fixedSource(^uint64(0)))
	if h.drawDish(0) || h.placed[0] {
		t.Errorf("u just under 1: pair 0 took a dish, want the library's share")
	}
	// Pair 2, given pair 0's dishes, has no own samples: its prior shares, 2/4 and 1/4 the two
	// dishes' (M_i + γ = 4) and 1/4 the library's, which places nothing (u = 0.4 and 0.6: a dish
	// placed; 0.9: none).
	h.tables[0].pairs[2] = h.tables[0].pairs[0]
	for _, c := range []struct {
		u      float64
		placed bool
	}{{0.4, true}, {0.6, true}, {0.9, false}} {
		h.unplace(2)
		h.rng = rand.New(fixedSource(uint64(c.u * (1 << 53))))
		if got := h.drawDish(2); got != c.placed || h.placed[2] != c.placed {
			t.Errorf("pair 2, no own samples, u = %v: placed %v, want %v", c.u, got, c.placed)
		}
	}
	h.rng = nil // a random number drawn would panic
	if h.drawDish(1) {
		t.Errorf("pair 1, which has no dish, took one")
	}
}

// When a task ends, the model it joins takes, at a visited pair where it holds no dish, the dish
// of largest share (γ set: the other model's dish, now held by two and pooling both tasks'
// samples) or a new one (γ unset).
func TestHybridSeatsAPairAtADish(t *testing.T) {
	for _, g := range []float64{0, 1} {
		p := DefaultHybridParams()
		p.IdentifyNoise, p.PairConcentration = 0, g
		h := hybridAgentWith(t, p, nil)
		a := heldModel{dish{succ: []mdp.Succ{{State: 1, N: 100}}, n: 100}, 1}
		h.models, h.tables = hybridModelsOf(a, a)
		h.models[1].dish[0] = -1 // model 1 holds pair 1's dish, 100 moves to state 5
		h.models[1].dish[1] = 0
		h.tables[0].pairs[0] = h.tables[0].pairs[0][:1]
		h.tables[0].pairs[1] = []dish{{succ: []mdp.Succ{{State: 5, N: 100}}, n: 100, models: 1}}
		if err := h.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
			t.Fatal(err)
		}
		for range 12 {
			h.Observe(0, 0, 0, 1)
			h.Observe(1, 0, 0, 5)
		}
		h.EndTask()
		if h.Models() != 2 {
			t.Fatalf("γ %v: %d models, want the task joined one of the 2", g, h.Models())
		}
		for k := range 2 {
			if h.models[k].tasks != 2 {
				continue
			}
			other := 1 - k // the pair where model k held no dish: pair 1 for model 0, pair 0 for model 1
			d := h.dishOf(k, other)
			switch {
			case g > 0 && (d.models != 2 || d.n != 112):
				t.Errorf("γ 1: model %d took a dish at pair %d held by %d models with %d samples, want the other model's: 2 and 112", k, other, d.models, d.n)
			case g == 0 && (d.models != 1 || d.n != 12):
				t.Errorf("γ unset: model %d took a dish at pair %d held by %d models with %d samples, want a new one: 1 and 12", k, other, d.models, d.n)
			}
		}
	}
}

// With σ_id (identify_noise) 0.2 on the Beta range [0, 1] the weights take rewards as Normal about
// each pair's mean with noise 0.2 half-widths, 0.1, the mean N(0.5, 0.5²) a priori (the middle and
// half-width of the range). By hand, one sample to state 1 with reward 0: under either model (100
// rewards 0 at pair 0) the mean's posterior is N(2/10004, 1/10004) (precision 4 + 100/0.01), so
// reward 0 has the predictive density N(0; 2/10004, 1/10004 + 0.01); under a new model N(0; 0.5,
// 0.25 + 0.01). With the transitions' 100.1/101, 0.1/101 and 0.1, the posterior is ∝ their
// products. A reward a model never paid rules it out: reward 0.8 where both models paid 0 leaves
// the new model almost all.
func TestHybridIdentifyNoiseByHand(t *testing.T) {
	normal := func(x, mean, v float64) float64 { return math.Exp(-(x-mean)*(x-mean)/(2*v)) / math.Sqrt(2*math.Pi*v) }
	models := []latentModelSpec{{1, 100, 1}, {2, 100, 1}}
	p := DefaultHybridParams()
	p.IdentifyNoise = 0.2
	h := hybridAgentWith(t, p, models)
	h.Observe(0, 0, 0, 1)
	dk, dnew := normal(0, 2.0/10004, 1.0/10004+0.01), normal(0, 0.5, 0.26)
	if got, want := hybridPosterior(h), []float64{100.1 / 101 * dk, 0.1 / 101 * dk, 0.1 * dnew}; !closeTo(got, want) {
		t.Errorf("posterior %v, want ∝ %v", got, want)
	}
	h = hybridAgentWith(t, p, models)
	h.Observe(0, 0, 0.8, 1)
	if w := hybridPosterior(h); w[2] < 0.999 {
		t.Errorf("reward 0.8 where both models paid 0: posterior %v, want more than 0.999 on a new model", w)
	}
}

// The weights' reward model: under the Normal base its own (σ_id unused), the noise learned from
// reward_noise with identify_variance learned; under the Beta base a Normal of σ_id half-widths of
// the range about the range's middle; σ_id 0 or a range of one point keeps the Beta.
func TestHybridWeightsModel(t *testing.T) {
	normal := PSRLModel{RewardMean: 1, RewardSD: 2, RewardNoise: 0.05, Schedule: DrawTSDE}
	p := DefaultHybridParams()
	if got := weightsModel(normal, p); got != normal {
		t.Errorf("Normal base: %+v, want the base's %+v", got, normal)
	}
	p.IdentifyVariance = LearnedVariance
	if got, want := weightsModel(normal, p), (PSRLModel{RewardMean: 1, RewardSD: 2, RewardNoise: 0.05, LearnedNoise: true, Schedule: DrawTSDE}); got != want {
		t.Errorf("Normal base, noise learned: %+v, want %+v", got, want)
	}
	beta := PSRLModel{Beta: true, RewardMin: 0, RewardMax: 10000}
	p = DefaultHybridParams()
	if got, want := weightsModel(beta, p), (PSRLModel{RewardMean: 5000, RewardSD: 5000, RewardNoise: 1500}); got != want {
		t.Errorf("Beta base on [0, 10 000]: %+v, want %+v", got, want)
	}
	p.IdentifyNoise = 0
	if got := weightsModel(beta, p); got != beta {
		t.Errorf("σ_id 0: %+v, want the Beta %+v", got, beta)
	}
	p = DefaultHybridParams()
	point := PSRLModel{Beta: true, RewardMin: 3, RewardMax: 3}
	if got := weightsModel(point, p); got != point {
		t.Errorf("a range of one point: %+v, want the Beta %+v", got, point)
	}
}

// σ_id is inert under the Normal reward posterior, whose weights are the base's, and only there.
func TestHybridIdentifyNoiseInertUnderNormal(t *testing.T) {
	spec := HybridPriorSpec{PSRLParams: learners.DefaultPSRL(), HybridParams: DefaultHybridParams()}
	if slices.Contains(spec.Inert(), "identify_noise") {
		t.Errorf("Beta reward posterior: inert keys %v, want identify_noise used", spec.Inert())
	}
	for _, normal := range []learners.RewardPosterior{learners.NormalReward, learners.SharedNoiseReward} {
		spec.RewardPosterior = normal
		if !slices.Contains(spec.Inert(), "identify_noise") {
			t.Errorf("reward posterior %s: inert keys %v, want identify_noise among them", normal, spec.Inert())
		}
	}
}

// studentT is Student's t density at x with nu degrees of freedom, location m and scale s.
func studentT(x, nu, m, s float64) float64 {
	z := (x - m) / s
	return math.Exp(lgamma((nu+1)/2)-lgamma(nu/2)) / (math.Sqrt(nu*math.Pi) * s) * math.Pow(1+z*z/nu, -(nu+1)/2)
}

// The Normal–Gamma marginal by hand: one reward's is Student's t with 2a₀ degrees of freedom about
// the prior mean, of scale² b₀(κ₀ + 1)/(a₀κ₀); two rewards' is the first's times the second's
// predictive, Student's t again under the prior updated by the first (κ₁ = κ₀ + 1, a₁ = a₀ + ½,
// b₁ = b₀ + κ₀(x₁ − m)²/(2κ₁), m₁ = (κ₀m + x₁)/κ₁).
func TestNormalGammaByHand(t *testing.T) {
	p := normalGamma{mean: 0.5, k0: 0.04, a0: 1, b0: 0.01}
	x1, x2 := 0.2, 0.9
	first := studentT(x1, 2, 0.5, math.Sqrt(0.01*1.04/0.04))
	if got := math.Exp(p.logML(1, x1, x1*x1)); math.Abs(got-first) > 1e-12*first {
		t.Errorf("one reward: %v, want %v", got, first)
	}
	k1, a1 := 1.04, 1.5
	b1, m1 := 0.01+0.04*(x1-0.5)*(x1-0.5)/(2*k1), (0.04*0.5+x1)/k1
	second := studentT(x2, 2*a1, m1, math.Sqrt(b1*(k1+1)/(a1*k1)))
	if got, want := math.Exp(p.logML(2, x1+x2, x1*x1+x2*x2)), first*second; math.Abs(got-want) > 1e-12*want {
		t.Errorf("two rewards: %v, want %v", got, want)
	}
	if got := p.logML(0, 0, 0); got != 0 {
		t.Errorf("no reward: %v, want 0", got)
	}
}

// With identify_variance learned (prior scale 0.1), reward 0 after a model's 100 rewards 0 at the
// pair has the predictive of the Normal–Gamma prior (mean 0.5, κ₀ = 0.1²/0.5², a₀ = 1, b₀ = 0.1²)
// updated by them: Student's t with 2·51 degrees of freedom about m = 0.04·0.5/100.04, of scale²
// b(κ + 1)/(aκ) with κ = 100.04, a = 51, b = 0.01 + 0.04·100·0.5²/(2·100.04); under a new model
// the prior's own, t with 2 degrees of freedom about 0.5 of scale² 0.01·1.04/0.04.
func TestHybridLearnedVarianceByHand(t *testing.T) {
	p := DefaultHybridParams()
	p.IdentifyNoise, p.IdentifyVariance = 0.2, LearnedVariance // the noise's prior scale 0.1
	models := []latentModelSpec{{1, 100, 1}, {2, 100, 1}}
	h := hybridAgentWith(t, p, models)
	h.Observe(0, 0, 0, 1)
	k, a := 100.04, 51.0
	b := 0.01 + 0.04*100*0.25/(2*k)
	dk := studentT(0, 2*a, 0.04*0.5/k, math.Sqrt(b*(k+1)/(a*k)))
	dnew := studentT(0, 2, 0.5, math.Sqrt(0.01*1.04/0.04))
	if got, want := hybridPosterior(h), []float64{100.1 / 101 * dk, 0.1 / 101 * dk, 0.1 * dnew}; !closeTo(got, want) {
		t.Errorf("posterior %v, want ∝ %v", got, want)
	}
}

// A pair whose reward depends on its next state (RiverSwim's right end: 1 or 0 at random) spreads
// its rewards under the true model too. With the noise known to be 0.1, a task's sample mean 0.35
// (7 rewards 1 in 20, a deviation of 1.3 standard errors from the model's 0.5) refutes the model
// that pooled the same pair's 0s and 1s, and a task of the same MDP is taken for a new one; with
// the noise learned the model holds.
func TestHybridLearnedVarianceKeepsASpreadModel(t *testing.T) {
	spread := heldModel{dish{succ: []mdp.Succ{{State: 1, N: 50}}, n: 50, r: 25, sq: 25}, 3} // 25 rewards 1 and 25 rewards 0
	for _, v := range []RewardVariance{KnownVariance, LearnedVariance} {
		p := DefaultHybridParams()
		p.IdentifyNoise, p.IdentifyVariance = 0.2, v // 0.1 on the range [0, 1]
		h := hybridAgentWith(t, p, nil)
		h.models, h.tables = hybridModelsOf(spread)
		if err := h.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
			t.Fatal(err)
		}
		for j := range 20 { // 7 rewards 1 in 20: a sample mean of 0.35 against the model's 0.5
			h.Observe(0, 0, float64(min(j%3, 1)^1), 1)
		}
		w := hybridPosterior(h)
		if v == KnownVariance && w[0] > 0.01 {
			t.Errorf("noise known to be 0.1: posterior of the spread model %v, want below 0.01", w[0])
		}
		if v == LearnedVariance && w[0] < 0.99 {
			t.Errorf("noise learned: posterior of the spread model %v, want above 0.99", w[0])
		}
	}
}

// Drawn, the model's pooled samples are placed on the pairs it has seen, and the library's
// components on the others: the task went to state 1 from pair 0 (model 0, 100 samples there)
// and from pair 1 to state 3 twice (no model has seen pair 1; the deterministic template explains it).
func TestHybridPlacesModelAndTemplates(t *testing.T) {
	h := hybridAgent(t, []latentModelSpec{{1, 100, 1}}, []template.Count{{Rank: 0, N: 10}})
	for range 5 {
		h.Observe(0, 0, 0, 1)
		h.Observe(1, 0, 0, 3)
	}
	h.EndEpisode()
	if h.drawn != 0 || !h.byModel[0] || h.byModel[1] || !h.placed[1] {
		t.Errorf("drew model %d; pair 0 by the model %v, pair 1 by the model %v, placed %v: want model 0 on pair 0 and a template on pair 1",
			h.drawn, h.byModel[0], h.byModel[1], h.placed[1])
	}
}

// At the end of a task the task joins its model (the library learns nothing of it: the model's
// pairs were given when it began), or starts a new model whose pairs with m_s own samples the
// library learns; a task of another size is a new model of its size, the others not candidates.
func TestHybridTaskJoinsOrStartsAModel(t *testing.T) {
	h := hybridAgent(t, []latentModelSpec{{1, 100, 1}})
	for range 12 {
		h.Observe(0, 0, 0, 1)
	}
	h.EndTask()
	if h.Models() != 1 || h.dishOf(0, 0).n != 112 || h.models[0].tasks != 2 || h.mix.lib.Len() != 0 {
		t.Fatalf("models %d (model 0: %d samples in %d tasks), library %d: want the task joined model 0, the library empty",
			h.Models(), h.dishOf(0, 0).n, h.models[0].tasks, h.mix.lib.Len())
	}
	if err := h.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(2, 2))}); err != nil {
		t.Fatal(err)
	}
	for range 12 {
		h.Observe(0, 0, 0, 5)
		h.Observe(0, 0, 0, 6)
	}
	h.EndTask()
	if h.Models() != 2 || h.mix.lib.Len() != 1 {
		t.Fatalf("models %d, library %d after a task of another model: want 2 and the new model's pair as a template", h.Models(), h.mix.lib.Len())
	}
	if err := h.BeginTask(agent.Task{S: 11, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(3, 3))}); err != nil {
		t.Fatalf("a task of another size: %v", err)
	}
	if len(h.cand) != 0 || h.logPrior[0] != 0 {
		t.Errorf("a task of 11 states has candidates %v, prior %v: want none, a new model certain", h.cand, h.logPrior)
	}
}

// Without the whole-task part every task is a new model, none is kept, and the library learns
// from every task (template-prior's posterior); without the template part the library stays
// empty (latent-psrl's).
func TestHybridAblations(t *testing.T) {
	for _, c := range []struct {
		whole, templates bool
		models, library  int
	}{{false, true, 0, 1}, {true, false, 2, 0}} {
		p := DefaultHybridParams()
		p.WholeTasks, p.Templates = c.whole, c.templates
		h, err := NewHybridPrior(p, PSRLModel{Beta: true, RewardMax: 1}, episodePSRL(t))
		if err != nil {
			t.Fatal(err)
		}
		for task, next := range []int{1, 2} {
			if err := h.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(uint64(task), 1))}); err != nil {
				t.Fatal(err)
			}
			for range 12 {
				h.Observe(0, 0, 0, next)
			}
			h.EndTask()
		}
		if h.Models() != c.models || h.mix.lib.Len() != c.library {
			t.Errorf("whole_tasks %v, templates %v: %d models and %d templates, want %d and %d",
				c.whole, c.templates, h.Models(), h.mix.lib.Len(), c.models, c.library)
		}
	}
}

// With no model and an empty library the learner is its base PSRL on PSRL's schedule, action for
// action: on a random MDP, the same actions as PSRL run alone, for the same random numbers, on
// each of PSRL's schedules.
func TestHybridWithoutModelsOrLibraryIsPSRL(t *testing.T) {
	for _, c := range []struct {
		schedule learners.PSRLSchedule
		draw     DrawSchedule
	}{{learners.PerEpisode, DrawPerEpisode}, {learners.TSDE, DrawTSDE}, {learners.Doubling, DrawDoubling}} {
		p := learners.DefaultPSRL()
		p.RewardMin, p.RewardMax = learners.Bound(0), learners.Bound(1)
		p.Schedule = c.schedule
		alone, err := learners.NewPSRL(p)
		if err != nil {
			t.Fatal(err)
		}
		want := randomMDPActions(t, agent.NewSingle(alone))
		for _, v := range []struct{ gamma, editShare float64 }{{0, 0}, {1, 0}, {1, 0.5}} { // pair_concentration unset and set, edits on
			base := learners.DefaultPSRL()
			base.RewardMin, base.RewardMax, base.Schedule = learners.Bound(0), learners.Bound(1), learners.PerEpisode
			drawn, err := learners.NewPSRL(base)
			if err != nil {
				t.Fatal(err)
			}
			hp := DefaultHybridParams()
			hp.PairConcentration, hp.EditShare, hp.ChangeRate = v.gamma, v.editShare, 0.2
			h, err := NewHybridPrior(hp, PSRLModel{Beta: true, RewardMax: 1, Schedule: c.draw}, drawn)
			if err != nil {
				t.Fatal(err)
			}
			if got := randomMDPActions(t, h); !slices.Equal(got, want) {
				t.Errorf("schedule %v, pair_concentration %v, edit_share %v: without models or library the learner acted otherwise than PSRL alone", c.schedule, v.gamma, v.editShare)
			}
		}
	}
}

// randomMDPActions are a's actions over 3000 steps of one task of a random 6-state, 2-action MDP,
// each episode 50 steps, its random numbers and the MDP's fixed.
func randomMDPActions(t *testing.T, a agent.Agent) []int {
	const S, A, steps = 6, 2, 3000
	mdpRng := rand.New(rand.NewPCG(9, 9))
	next := make([][]float64, S*A)
	for i := range next {
		next[i] = make([]float64, S)
		for s := range next[i] {
			next[i][s] = mdpRng.Float64()
		}
	}
	if err := a.BeginTask(agent.Task{S: S, A: A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(4, 4))}); err != nil {
		t.Fatal(err)
	}
	env := rand.New(rand.NewPCG(5, 5))
	var acts []int
	s := 0
	for step := range steps {
		act := a.Act(s)
		acts = append(acts, act)
		i := s*A + act
		u, to := env.Float64()*sum(next[i]), 0
		for u > next[i][to] && to < S-1 {
			u -= next[i][to]
			to++
		}
		a.Observe(s, act, float64(to)/S, to)
		s = to
		if step%50 == 49 {
			a.EndEpisode()
		}
	}
	return acts
}

func TestHybridParamsValidate(t *testing.T) {
	p := DefaultHybridParams()
	p.WholeTasks, p.Templates = false, false
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "that is PSRL") {
		t.Errorf("both parts off: %v", err)
	}
	p = DefaultHybridParams()
	p.Tau = -1
	if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), "hybrid-prior: tau = -1") {
		t.Errorf("tau −1: %v", err)
	}
	p = DefaultHybridParams()
	p.IdentifyNoise = -0.1
	if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), "hybrid-prior: identify_noise = -0.1") {
		t.Errorf("identify_noise −0.1: %v", err)
	}
	for _, g := range []float64{-1, math.NaN(), math.Inf(1)} {
		p = DefaultHybridParams()
		p.PairConcentration = g
		if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("hybrid-prior: pair_concentration = %v, want a finite number >= 0", g)) {
			t.Errorf("pair_concentration %v: %v", g, err)
		}
	}
	p = DefaultHybridParams()
	p.IdentifyVariance = "guessed"
	if err := p.Validate(); err == nil || err.Error() != `hybrid-prior: identify_variance "guessed", want "known" or "learned"` {
		t.Errorf("identify_variance guessed: %v", err)
	}
	// The learned noise's prior scale is σ_id under the Beta reward posterior, reward_noise under
	// the Normal one: identify_noise 0 is refused with the first only, by the config's check and
	// by the constructor.
	spec := HybridPriorSpec{PSRLParams: learners.DefaultPSRL(), HybridParams: DefaultHybridParams()}
	spec.IdentifyVariance, spec.IdentifyNoise = LearnedVariance, 0
	if err := spec.Validate(); err == nil || !strings.Contains(err.Error(), "identify_variance learned needs identify_noise > 0 under reward_posterior beta") {
		t.Errorf("learned variance, identify_noise 0, Beta rewards: %v", err)
	}
	if _, err := NewHybridPrior(spec.HybridParams, PSRLModel{Beta: true, RewardMax: 1}, episodePSRL(t)); err == nil {
		t.Error("learned variance, identify_noise 0, Beta rewards: built")
	}
	spec.RewardPosterior = learners.NormalReward
	if err := spec.Validate(); err != nil {
		t.Errorf("learned variance, identify_noise 0, Normal rewards: %v", err)
	}
	p = DefaultHybridParams()
	p.Concentration = 0
	if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), "hybrid-prior: concentration = 0") {
		t.Errorf("concentration 0: %v", err)
	}
}
