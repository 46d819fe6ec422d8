package temple

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// editAgent is sharedAgent (γ = 1; models 0 and 1 share a dish at pair 0, model 2 holds another,
// model 3 none) with edits: β = 0.5, ρ = 0.2.
func editAgent(t *testing.T) *HybridPrior {
	t.Helper()
	p := DefaultHybridParams()
	p.IdentifyNoise, p.PairConcentration, p.EditShare, p.ChangeRate = 0, 1, 0.5, 0.2
	return sharedAgentWith(t, p)
}

// With β = 0.5 and ρ = 0.2, after one sample to state 1 (reward 0) at pair 0: the four models
// have prior 1/5 each (T = 4 tasks, α = 1) and their terms a, a, b and G₀ (as
// TestHybridPairConcentrationByHand); a new model's 1/5 is split, the edit of each model β·T_k/T
// of it (1/40) and a fresh one 1 − β (1/10). The edit of a model holding a dish has the term
// (1 − ρ)·dish + ρ·G₀, that of model 3 (no dish) G₀, and a fresh model G₀.
func TestHybridEditPosteriorByHand(t *testing.T) {
	h := editAgent(t)
	h.Observe(0, 0, 0, 1)
	a, b := 100.1/102, 0.1/102
	g0 := a/2 + b/4 + 0.05/4
	ea, eb := 0.8*a+0.2*g0, 0.8*b+0.2*g0
	want := []float64{a / 5, a / 5, b / 5, g0 / 5, ea / 40, ea / 40, eb / 40, g0 / 40, g0 / 10}
	if got := hybridPosterior(h); !closeTo(got, want) {
		t.Errorf("posterior %v, want ∝ %v", got, want)
	}
	// Drawn, the edit of model 0 keeps its dish at pair 0 with the dish's share of the edit's
	// term, (1 − ρ)·a / ((1 − ρ)·a + ρ·G₀).
	if got, want := h.keepShare(0, 0), 0.8*a/ea; math.Abs(got-want) > 1e-12 {
		t.Errorf("keep share at pair 0: %v, want %v", got, want)
	}
	h.rng = rand.New(fixedSource(0))
	if !h.keepDish(0, 0) || !h.placed[0] {
		t.Errorf("u = 0: the edit of model 0 did not keep its dish at pair 0")
	}
	h.unplace(0)
	h.rng = rand.New(fixedSource(^uint64(0)))
	if h.keepDish(0, 0) || h.placed[0] {
		t.Errorf("u just under 1: the edit of model 0 kept its dish at pair 0")
	}
	h.rng = nil // a random number drawn would panic
	if h.keepDish(3, 0) {
		t.Errorf("the edit of model 3, which holds no dish at pair 0, placed one")
	}
}

// A task that agrees with the earlier model at three pairs and refutes it at a fourth ends with
// the edit most probable (γ = 10: a fresh model gives the earlier model's dishes 1/11 a pair
// where the edit gives them 1 − ρ): the new model holds the earlier model's dishes where the
// task agreed, and at the pair the task never reached, and a dish of its own where the task
// refuted the earlier one; the earlier model keeps its one task.
func TestHybridEditInherits(t *testing.T) {
	p := DefaultHybridParams()
	p.IdentifyNoise, p.PairConcentration, p.EditShare, p.ChangeRate = 0, 10, 0.5, 0.2
	h := hybridAgentWith(t, p, nil)
	to := []int32{1, 2, 3, 4, 5} // model 0's next state at pairs 0 to 4, 100 times each
	tb := dishTable{S: 10, A: 1, pairs: make([][]dish, 10)}
	m := hybridModel{dish: slices.Repeat([]int32{-1}, 10), tasks: 1}
	for i, s := range to {
		tb.pairs[i] = []dish{{succ: []mdp.Succ{{State: s, N: 100}}, n: 100, models: 1}}
		m.dish[i] = 0
	}
	h.models, h.tables = []hybridModel{m}, []dishTable{tb}
	if err := h.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	for range 12 {
		for i := range 3 {
			h.Observe(i, 0, 0, int(to[i])) // as model 0
		}
		h.Observe(3, 0, 0, 7) // model 0 says 4
	}
	if w := hybridPosterior(h); w[1] < 0.9 {
		t.Fatalf("posterior %v (model 0, its edit, fresh): want the edit above 0.9", w)
	}
	h.EndTask()
	if h.Models() != 2 || h.models[0].tasks != 1 {
		t.Fatalf("%d models, model 0 with %d tasks: want a new model beside model 0's one task", h.Models(), h.models[0].tasks)
	}
	pairs := h.tables[0].pairs
	for i := range 5 {
		d := pairs[i][h.models[1].dish[i]]
		switch {
		case i == 3 && (h.models[1].dish[i] == 0 || d.models != 1 || d.n != 12):
			t.Errorf("pair 3, refuted: the new model holds dish %d (%d models, %d samples), want a new one (1, 12)", h.models[1].dish[i], d.models, d.n)
		case i < 3 && (h.models[1].dish[i] != 0 || d.models != 2 || d.n != 112):
			t.Errorf("pair %d: the new model holds dish %d (%d models, %d samples), want model 0's (2, 112)", i, h.models[1].dish[i], d.models, d.n)
		case i == 4 && (h.models[1].dish[i] != 0 || d.models != 2 || d.n != 100):
			t.Errorf("pair 4, not reached: the new model holds dish %d (%d models, %d samples), want model 0's (2, 100)", h.models[1].dish[i], d.models, d.n)
		}
	}
}

func TestHybridEditParamsValidate(t *testing.T) {
	for _, c := range []struct {
		share, rate, gamma float64
		want               string
	}{
		{-0.1, 0.2, 10, "hybrid-prior: edit_share = -0.1, want a number in [0, 1)"},
		{1, 0.2, 10, "hybrid-prior: edit_share = 1, want a number in [0, 1)"},
		{math.NaN(), 0.2, 10, "hybrid-prior: edit_share = NaN"},
		{0.5, 0, 10, "hybrid-prior: change_rate = 0, want a number in (0, 1) with edit_share 0.5"},
		{0.5, 1, 10, "hybrid-prior: change_rate = 1, want a number in (0, 1)"},
		{0.5, 0.2, 0, "hybrid-prior: edit_share 0.5 needs pair_concentration > 0"},
	} {
		p := DefaultHybridParams()
		p.EditShare, p.ChangeRate, p.PairConcentration = c.share, c.rate, c.gamma
		if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("edit_share %v, change_rate %v, pair_concentration %v: %v, want %q", c.share, c.rate, c.gamma, err, c.want)
		}
	}
	spec := HybridPriorSpec{HybridParams: DefaultHybridParams()}
	if !slices.Contains(spec.Inert(), "change_rate") || slices.Contains(spec.Inert(), "edit_share") {
		t.Errorf("no edits: inert %v, want change_rate among them and edit_share not", spec.Inert())
	}
}
