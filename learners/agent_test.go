package learners

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/mdp"
)

func task(S, A int, seed uint64) agent.Task {
	return agent.Task{S: S, A: A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(seed, 1)), Rewards: &agent.RewardRange{Min: 0, Max: 1}}
}

// line is a deterministic 3-state corridor: action 0 moves left, action 1 right; being in state
// 2 pays 1 per step (reward on landing), everything else 0.
func line(t *testing.T) *mdp.Model {
	t.Helper()
	var rows [][]mdp.Transition
	for s := 0; s < 3; s++ {
		for _, next := range []int{max(s-1, 0), min(s+1, 2)} {
			r := 0.0
			if next == 2 {
				r = 1
			}
			rows = append(rows, []mdp.Transition{{Next: next, Prob: 1, Reward: r}})
		}
	}
	m, err := mdp.New(3, 2, rows, []float64{1, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// play runs ag on m for steps steps from state 0 and returns the total reward.
func play(ag agent.Agent, m *mdp.Model, steps int, rng *rand.Rand) float64 {
	_, total := agenttest.Loop{Agent: ag, Task: m, Rand: rng}.Steps(0, steps)
	return total
}

func TestRMaxKnownThresholdAndFrozenCounts(t *testing.T) {
	p := DefaultRMax()
	p.M = 3
	l := RMax{P: p}
	l.Begin(task(2, 2, 1))
	for k := 1; k <= 5; k++ {
		recorded := l.Record(0, 1, 0.5)
		if want := k <= 3; recorded != want {
			t.Fatalf("sample %d recorded = %v, want %v", k, recorded, want)
		}
		if want := k >= 3; l.Stats().Known(0) != want {
			t.Fatalf("after %d samples known = %v, want %v", k, l.Stats().Known(0), want)
		}
	}
	if l.Stats().Counts().N(0) != 3 || l.Stats().Counts().R(0) != 1.5 {
		t.Errorf("n = %d, R = %v; want counts frozen at m = 3", l.Stats().Counts().N(0), l.Stats().Counts().R(0))
	}
	// Replacing its counts by fewer makes the pair unknown again; augmentation can make it known.
	l.Replace(0, []mdp.Succ{{State: 1, N: 2}}, 1)
	if l.Stats().Known(0) {
		t.Fatal("pair still known after its count fell below m")
	}
	l.Augment(0, []mdp.Succ{{State: 0, N: 4}, {State: 1, N: 3}}, 0.7)
	if !l.Stats().Known(0) || l.Stats().Counts().N(0) != 9 || math.Abs(l.Stats().Counts().R(0)-1.7) > 1e-12 {
		t.Errorf("after augmentation known = %v, n = %d, R = %v; want true, 9, 1.7", l.Stats().Known(0), l.Stats().Counts().N(0), l.Stats().Counts().R(0))
	}
	if l.Stats().KnownPairs() != 1 {
		t.Errorf("known pairs = %d, want 1", l.Stats().KnownPairs())
	}
}

func TestRMaxOptimisticModel(t *testing.T) {
	p := DefaultRMax()
	p.M, p.PlanTolerance = 2, 1e-9
	l := RMax{P: p}
	l.Begin(task(2, 2, 1))
	// Nothing known: every pair is a self-loop paying R_max, worth 1/(1−0.9) = 10.
	for i, q := range l.Q() {
		if math.Abs(q-10) > 1e-8 {
			t.Fatalf("Q[%d] = %v with nothing known, want R_max/(1−γ) = 10", i, q)
		}
	}
	// Pair (0,0) is known to loop on 0 paying 0: Q(0,0) = 0.9·V(0) = 0.9·10 = 9.
	l.Record(0, 0, 0)
	l.Record(0, 0, 0)
	if q := l.Q()[0]; math.Abs(q-9) > 1e-7 {
		t.Errorf("Q(0,0) = %v, want 9", q)
	}
	plans := l.Stats().Plans()
	l.Q()
	if l.Stats().Plans() != plans {
		t.Error("re-planned although nothing changed")
	}
}

func TestRMaxBalancedWandering(t *testing.T) {
	p := DefaultRMax()
	l := RMax{P: p}
	l.Begin(task(1, 4, 3))
	l.Record(0, 0, 0)
	l.Record(1, 0, 0)
	l.Record(3, 0, 0)
	for k := 0; k < 20; k++ {
		if a := l.Act(0); a != 2 {
			t.Fatalf("least-tried action = %d, want 2", a)
		}
	}
	// Among tied minima every minimiser is taken sometimes (random incumbent kept if minimal).
	l.Record(2, 0, 0)
	seen := map[int]bool{}
	for k := 0; k < 200; k++ {
		seen[l.Act(0)] = true
	}
	if len(seen) != 4 {
		t.Errorf("tied actions chosen: %v, want all four", seen)
	}
}

func TestRMaxLearnsTheCorridor(t *testing.T) {
	m := line(t)
	for _, rule := range []ActionRule{Optimistic, BalancedWandering} {
		p := DefaultRMax()
		p.M, p.Rule = 5, rule
		l, err := NewRMax(p)
		if err != nil {
			t.Fatal(err)
		}
		ag := agent.NewSingle(l)
		if err := ag.BeginTask(task(3, 2, 9)); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(2, 2))
		play(ag, m, 200, rng)
		if l.Stats().KnownPairs() != 6 {
			t.Fatalf("%s: %d pairs known after 200 steps, want 6", rule, l.Stats().KnownPairs())
		}
		if got := play(ag, m, 100, rng); got < 99 {
			t.Errorf("%s: earned %v in the last 100 steps, want ≥ 99 (go right and stay)", rule, got)
		}
	}
}

func TestQLearningUpdateByHand(t *testing.T) {
	ag, err := NewQLearning(QLearningParams{Alpha: 0.5, Epsilon: 0, InitialQ: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := ag.BeginTask(task(2, 2, 1)); err != nil {
		t.Fatal(err)
	}
	// Q(0,1) ← 0.5·1 + 0.5·(2 + 0.9·max(1, 1)) = 1.95.
	ag.Observe(0, 1, 2, 1)
	if q := ag.Q()[1]; math.Abs(q-1.95) > 1e-15 {
		t.Fatalf("Q(0,1) = %v, want 1.95", q)
	}
	// Q(1,0) ← 0.5·1 + 0.5·(0 + 0.9·1.95) = 1.3775.
	ag.Observe(1, 0, 0, 0)
	if q := ag.Q()[2]; math.Abs(q-1.3775) > 1e-15 {
		t.Fatalf("Q(1,0) = %v, want 1.3775", q)
	}
	if a := ag.Act(0); a != 1 {
		t.Errorf("greedy action with ε = 0 is %d, want 1", a)
	}
	if err := ag.BeginTask(task(2, 2, 1)); err != nil || ag.Q()[1] != 1 {
		t.Errorf("a new task did not restart from initial Q: %v", ag.Q())
	}
}

func TestQLearningLearnsTheCorridor(t *testing.T) {
	ag, err := NewQLearning(DefaultQLearning())
	if err != nil {
		t.Fatal(err)
	}
	ag.BeginTask(task(3, 2, 4))
	m := line(t)
	rng := rand.New(rand.NewPCG(5, 5))
	play(ag, m, 5000, rng)
	if pi := mdp.GreedyPolicy(ag.Q(), 3, 2); pi[0] != 1 || pi[1] != 1 || pi[2] != 1 {
		t.Errorf("greedy policy %v, want always right", pi)
	}
}

func TestParameterErrors(t *testing.T) {
	bad := []struct {
		err  error
		want string
	}{
		{RMaxParams{M: 0, RMax: 1, Rule: Optimistic, PlanTolerance: 1}.Validate(), "m = 0"},
		{RMaxParams{M: 1, RMax: 1, Rule: "greedy", PlanTolerance: 1}.Validate(), `action rule "greedy"`},
		{RMaxParams{M: 1, RMax: math.Inf(1), Rule: Optimistic, PlanTolerance: 1}.Validate(), "r_max = +Inf"},
		{QLearningParams{Alpha: 0, Epsilon: 0.1}.Validate(), "alpha = 0"},
		{QLearningParams{Alpha: 0.1, Epsilon: 1.5}.Validate(), "epsilon = 1.5"},
	}
	for _, b := range bad {
		if b.err == nil || !strings.Contains(b.err.Error(), b.want) {
			t.Errorf("error = %v, want %q", b.err, b.want)
		}
	}
}

// TestPolicies: the policies the learners give (agent.PolicyInfo) are the distributions of their Act,
// by hand: balanced wandering keeps a random incumbent when it is least tried and otherwise ends
// on the lowest-index least-tried action; ε-greedy spreads ε and shares 1 − ε among maximisers.
// Asking for the policy changes nothing: the next actions are those of an untouched twin.
func TestPolicies(t *testing.T) {
	newLearner := func() *RMax {
		l := &RMax{P: DefaultRMax()}
		l.Begin(agent.Task{S: 2, A: 4, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 2))})
		for a, n := range []int{3, 1, 2, 1} {
			for range n {
				l.Record(a, 1, 0)
			}
		}
		return l
	}
	l, twin := newLearner(), newLearner()
	v := l.PolicyVersion()
	dst := make([]float64, 4)
	l.Policy(0, dst)
	if want := []float64{0, 0.75, 0, 0.25}; !slices.Equal(dst, want) {
		t.Errorf("balanced wandering: %v, want %v", dst, want)
	}
	for range 100 {
		if a, b := l.Act(0), twin.Act(0); a != b {
			t.Fatalf("asking for the policy changed the actions: %d, twin %d", a, b)
		}
	}
	if l.Record(1, 1, 0); l.PolicyVersion() == v {
		t.Error("a new sample left the policy version unchanged")
	}

	q, err := NewQLearning(QLearningParams{Alpha: 0.5, Epsilon: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.BeginTask(agent.Task{S: 2, A: 4, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 2))}); err != nil {
		t.Fatal(err)
	}
	copy(q.Q(), []float64{0, 1, 1, 0})
	q.Policy(0, dst)
	if want := []float64{0.025, 0.475, 0.475, 0.025}; !slices.EqualFunc(dst, want, func(x, y float64) bool { return math.Abs(x-y) < 1e-15 }) {
		t.Errorf("ε-greedy: %v, want %v", dst, want)
	}
	v = q.PolicyVersion()
	if q.Observe(0, 1, 2, 1); q.PolicyVersion() == v { // Q(0,1) rises above Q(0,2): one maximiser left
		t.Error("the greedy actions changed and the version did not")
	}
}
