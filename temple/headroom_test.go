package temple

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// mudModel is a task of 3 states and 1 action: from state 0 the action reaches state 1 with
// probability 0.8 and state 2 with 0.2, paying −0.1 (true template (0.8, 0.2), reward −0.1);
// from states 1 and 2 it stays, paying 0 (template (1), reward 0).
func mudModel(t *testing.T) *mdp.Model {
	t.Helper()
	m, err := mdp.New(3, 1, [][]mdp.Transition{
		{{Next: 1, Prob: 0.8, Reward: -0.1}, {Next: 2, Prob: 0.2, Reward: -0.1}},
		{{Next: 1, Prob: 1}},
		{{Next: 2, Prob: 1}},
	}, []float64{1, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// psrlBase is PSRL with the sparse prior (prior_support: observed) and TSDE.
func psrlBase(t testing.TB) *learners.PSRL {
	t.Helper()
	p := learners.DefaultPSRL()
	p.PriorSupport, p.Schedule = learners.ObservedStates, learners.TSDE
	p.RewardMin, p.RewardMax = learners.Bound(0), learners.Bound(1) // the range these tests were worked on
	l, err := learners.NewPSRL(p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// succOf is pair i's count of next state s in the base's statistics.
func succOf(st *agent.Stats, i, s int) int64 {
	for _, x := range st.Counts().Successors(i) {
		if int(x.State) == s {
			return x.N
		}
	}
	return 0
}

// TestTrueTemplatesPlacesOnceTheSupportIsSeen works pair (0, 0) of mudModel by hand, strength
// 1000: after one sample (to state 1) the pair has seen 1 of its template's 2 ranks and keeps its
// own sample; after a second (to state 2) both ranks are placed — state 1, first by count (ties by
// state), gets 1 + 800, state 2 gets 1 + 200, the reward sum −0.2 + 1000·(−0.1); after a third
// sample to state 2, σ puts state 2 first: 2 + 800 there and 1 + 200 on state 1.
func TestTrueTemplatesPlacesOnceTheSupportIsSeen(t *testing.T) {
	h, err := NewTrueTemplates(DefaultHeadroomParams(), psrlBase(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.BeginTask(agent.Task{S: 3, A: 1, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 2)), Truth: mudModel(t)}); err != nil {
		t.Fatal(err)
	}
	st := h.Base().Stats()
	h.Observe(0, 0, -0.1, 1)
	if n := st.Counts().N(0); n != 1 || h.placedPairs() != 0 {
		t.Fatalf("after one sample: n = %d, placed %d; want 1, 0", n, h.placedPairs())
	}
	h.Observe(0, 0, -0.1, 2)
	if a, b, r := succOf(st, 0, 1), succOf(st, 0, 2), st.Counts().R(0); a != 801 || b != 201 || !near(r, -100.2) {
		t.Fatalf("after two samples: n(1) = %d, n(2) = %d, R = %v; want 801, 201, -100.2", a, b, r)
	}
	h.Observe(0, 0, -0.1, 2)
	if a, b := succOf(st, 0, 1), succOf(st, 0, 2); a != 201 || b != 802 {
		t.Fatalf("after three samples: n(1) = %d, n(2) = %d; want 201, 802", a, b)
	}
	if st.Samples() != 3 {
		t.Errorf("own samples %d, want 3", st.Samples())
	}
}

// TestTrueTemplatesMakesADeterministicPairKnownAtOnce: over RMax with m = 50, state 1's pair
// (template (1)) is placed with 50 counts at its first sample, so it is known at once and RMax
// keeps no further own sample of it; pair (0, 0), of two ranks, is not placed after one sample.
func TestTrueTemplatesMakesADeterministicPairKnownAtOnce(t *testing.T) {
	h, err := NewTrueTemplates(HeadroomParams{Strength: 50}, rmaxBase(50))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.BeginTask(agent.Task{S: 3, A: 1, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 2)), Truth: mudModel(t)}); err != nil {
		t.Fatal(err)
	}
	st := h.Base().Stats()
	h.Observe(1, 0, 0, 1)
	h.Observe(0, 0, -0.1, 1)
	if !st.Known(1) || st.Counts().N(1) != 51 || st.Known(0) {
		t.Fatalf("pair 1 known %v with n %d, pair 0 known %v; want true, 51, false", st.Known(1), st.Counts().N(1), st.Known(0))
	}
	h.Observe(1, 0, 0, 1)
	if st.Counts().N(1) != 51 || st.Samples() != 2 {
		t.Errorf("after a known pair's sample: n %d, own samples %d; want 51, 2", st.Counts().N(1), st.Samples())
	}
}

// TestTrueTemplatesNeedsTheTruth: a task without a true model is refused with a reason.
func TestTrueTemplatesNeedsTheTruth(t *testing.T) {
	h, err := NewTrueTemplates(DefaultHeadroomParams(), psrlBase(t))
	if err != nil {
		t.Fatal(err)
	}
	err = h.BeginTask(agent.Task{Index: 4, S: 3, A: 1, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 2))})
	if err == nil || !strings.Contains(err.Error(), "task 4 has no true model") {
		t.Errorf("error %v, want one naming task 4 and the missing true model", err)
	}
	if _, err := NewTrueTemplates(HeadroomParams{Strength: 0}, psrlBase(t)); err == nil || !strings.Contains(err.Error(), "strength = 0") {
		t.Errorf("strength 0: error %v, want one naming strength", err)
	}
}

func near(x, y float64) bool { return x-y < 1e-9 && y-x < 1e-9 }

// TestTrueTemplatesPartialPlacement: with partial set, pair (0, 0) of mudModel is placed at its
// first sample (to state 1): the template's first rank, 800 counts, on state 1 beside its own
// sample, the second rank's 200 left out (no state for it yet), the reward sum −0.1 + 800·(−0.1).
func TestTrueTemplatesPartialPlacement(t *testing.T) {
	h, err := NewTrueTemplates(HeadroomParams{Strength: 1000, Partial: true}, psrlBase(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.BeginTask(agent.Task{S: 3, A: 1, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 2)), Truth: mudModel(t)}); err != nil {
		t.Fatal(err)
	}
	st := h.Base().Stats()
	h.Observe(0, 0, -0.1, 1)
	if n, a, r := st.Counts().N(0), succOf(st, 0, 1), st.Counts().R(0); n != 801 || a != 801 || !near(r, -80.1) {
		t.Errorf("after one sample: n = %d, n(1) = %d, R = %v; want 801, 801, -80.1", n, a, r)
	}
}
