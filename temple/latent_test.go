package temple

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
)

// latentModelSpec is a model for the tests: pair 0 of a 10-state, 1-action task moved to next n
// times (reward 0), in the given number of tasks.
type latentModelSpec struct {
	next  int
	n     int64
	tasks int
}

// latentAgent is LatentPrior (α 1, Beta rewards on [0, 1], a draw per episode) over PSRL, holding
// the given models, beginning a task of 10 states and 1 action.
func latentAgent(t *testing.T, models ...latentModelSpec) *LatentPrior {
	t.Helper()
	lp, err := NewLatentPrior(DefaultLatentParams(), PSRLModel{Beta: true, RewardMax: 1}, episodePSRL(t))
	if err != nil {
		t.Fatal(err)
	}
	lp.models = modelsOf(models)
	for _, m := range models {
		lp.tasks += m.tasks
	}
	if err := lp.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	return lp
}

// modelsOf are the models of specs, each of a task of 10 states and 1 action.
func modelsOf(specs []latentModelSpec) []latentModel {
	var out []latentModel
	for _, m := range specs {
		var lm latentModel
		lm.counts.Reset(10, 1)
		lm.counts.Add(0, m.next, m.n, 0)
		lm.tasks = m.tasks
		out = append(out, lm)
	}
	return out
}

// latentPosterior is the learner's posterior over its models, then new.
func latentPosterior(lp *LatentPrior) []float64 {
	w := slices.Clone(lp.logw)
	normalize(w)
	return w
}

// Two models that differ on pair 0 (100 samples to state 1, or to state 2; one task each, so
// prior 1/3 each and 1/3 for a new model with α = 1). One sample to state 1 with reward 0 has, by
// hand, the predictive probabilities (0.1 + 100)/(1 + 100), 0.1/101 and 0.1/1 (S = 10) and, under
// Beta(1, 101), Beta(1, 101) and Beta(1, 1), reward likelihoods 101/102, 101/102 and 1/2: the
// posterior is proportional to 100.1/102, 0.1/102 and 0.05.
func TestLatentPosteriorByHand(t *testing.T) {
	lp := latentAgent(t, latentModelSpec{1, 100, 1}, latentModelSpec{2, 100, 1})
	lp.Observe(0, 0, 0, 1)
	want := []float64{100.1 / 102, 0.1 / 102, 0.05}
	total := want[0] + want[1] + want[2]
	for k, w := range latentPosterior(lp) {
		if math.Abs(w-want[k]/total) > 1e-12 {
			t.Errorf("posterior of component %d: %v, want %v", k, w, want[k]/total)
		}
	}
	// A second sample to state 1 multiplies model 0's odds against the new model by
	// (101.1/102)·(102/103) / ((1.1/2)·(2/3)) = 2.63 (transition and reward): 0.981 on model 0.
	lp.Observe(0, 0, 0, 1)
	if w := latentPosterior(lp); math.Abs(w[0]-0.9813) > 1e-4 {
		t.Errorf("after two samples to state 1 the posterior is %v, want 0.981 on model 0", w)
	}
	lp.EndEpisode()
	if lp.drawn != 0 || lp.placedPairs() != 1 {
		t.Errorf("drew model %d with %d pairs placed, want model 0 placed on pair 0", lp.drawn, lp.placedPairs())
	}
}

// A wrong prior is overturned: the only model (pair 0 always to state 1, 1000 samples) had 50
// tasks (prior 50/51), and the task's pair 0 moves to states 2 and 3. Each sample to a state the
// model never saw costs it a factor 0.1/1001 against the new model's 0.1: after two samples the
// new model has more than 0.999 of the posterior, and the draw places nothing.
func TestLatentOverturnsAWrongPrior(t *testing.T) {
	lp := latentAgent(t, latentModelSpec{1, 1000, 50})
	if w := latentPosterior(lp); math.Abs(w[0]-50.0/51) > 1e-12 {
		t.Fatalf("prior %v, want 50/51 on the model", w)
	}
	lp.Observe(0, 0, 0, 2)
	lp.Observe(0, 0, 0, 3)
	if w := latentPosterior(lp); w[1] < 0.999 {
		t.Errorf("posterior %v after two samples the model rules out, want more than 0.999 on a new model", w)
	}
	lp.EndEpisode()
	if lp.drawn != -1 || lp.placedPairs() != 0 {
		t.Errorf("drew model %d with %d pairs placed, want the new model and nothing placed", lp.drawn, lp.placedPairs())
	}
}

// At the end of a task the task joins the model of the largest posterior weight or starts one: a
// task whose pair 0 went to state 1 joins model 0 (its counts pooled: 100 + 3), one whose pair 0
// went to state 5 starts model 1.
func TestLatentTaskJoinsItsModel(t *testing.T) {
	lp := latentAgent(t, latentModelSpec{1, 100, 1})
	for range 3 {
		lp.Observe(0, 0, 0, 1)
	}
	lp.EndTask()
	if lp.Models() != 1 || lp.models[0].counts.N(0) != 103 || lp.models[0].tasks != 2 {
		t.Fatalf("models %d, model 0: %d samples of pair 0 in %d tasks; want 1, 103, 2", lp.Models(), lp.models[0].counts.N(0), lp.models[0].tasks)
	}
	if err := lp.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(2, 2))}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		lp.Observe(0, 0, 0, 5)
	}
	lp.EndTask()
	if lp.Models() != 2 || lp.models[1].counts.N(0) != 3 {
		t.Errorf("models %d after a task of another model, want 2 (the new one with its 3 samples)", lp.Models())
	}
	if err := lp.BeginTask(agent.Task{S: 11, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(3, 3))}); err == nil ||
		!strings.Contains(err.Error(), "tasks of one size") {
		t.Errorf("a task of another size: %v", err)
	}
}

// With no model yet the learner is its base PSRL on PSRL's schedule: on a random MDP, the same
// actions as PSRL run alone with the doubling rule, for the same random numbers.
func TestLatentWithoutModelsIsPSRL(t *testing.T) {
	const S, A, steps = 6, 2, 3000
	mdpRng := rand.New(rand.NewPCG(9, 9))
	next := make([][]float64, S*A)
	for i := range next {
		next[i] = make([]float64, S)
		for s := range next[i] {
			next[i][s] = mdpRng.Float64()
		}
	}
	run := func(a agent.Agent) []int {
		rng := rand.New(rand.NewPCG(4, 4))
		if err := a.BeginTask(agent.Task{S: S, A: A, Gamma: 0.9, Rand: rng}); err != nil {
			t.Fatal(err)
		}
		env := rand.New(rand.NewPCG(5, 5))
		var acts []int
		s := 0
		for range steps {
			act := a.Act(s)
			acts = append(acts, act)
			i := s*A + act
			u, to := env.Float64()*sum(next[i]), 0
			for u > next[i][to] && to < S-1 {
				u -= next[i][to]
				to++
			}
			r := float64(to) / S
			a.Observe(s, act, r, to)
			s = to
		}
		return acts
	}
	p := learners.DefaultPSRL()
	p.RewardMin, p.RewardMax = learners.Bound(0), learners.Bound(1) // the range these tests were worked on
	alone, err := learners.NewPSRL(p)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := NewLatentPrior(DefaultLatentParams(), PSRLModel{Beta: true, RewardMax: 1, Schedule: DrawDoubling}, episodePSRL(t))
	if err != nil {
		t.Fatal(err)
	}
	if x, y := run(agent.NewSingle(alone)), run(lp); !slices.Equal(x, y) {
		t.Error("without models the learner acted otherwise than PSRL alone")
	}
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

func TestLatentParamsValidate(t *testing.T) {
	for _, c := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if err := (LatentParams{Concentration: c}).Validate(); err == nil || !strings.Contains(err.Error(), "concentration") {
			t.Errorf("concentration %v: %v", c, err)
		}
	}
	if _, err := NewLatentPrior(DefaultLatentParams(), PSRLModel{Beta: true, RewardMin: 1, RewardMax: 0}, episodePSRL(t)); err == nil ||
		!strings.Contains(err.Error(), "latent-psrl: reward range") {
		t.Errorf("an empty reward range: %v", err)
	}
}
