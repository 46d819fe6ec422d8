package learners

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

func newE3(t *testing.T, p E3Params) *E3 {
	t.Helper()
	l, err := NewE3(p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// knownChain makes states 0 and 1 of a 3-state, 2-action task known with m = 1, γ = 0.9, R_max = 1
// (V_max = 10): (0,0) stays in 0 paying 0.5, (0,1) goes to 1, (1,0) goes to the unknown state 2,
// (1,1) returns to 0; nothing pays but (0,0).
func knownChain(t *testing.T, eps float64, terminal []bool, planning Planning) *E3 {
	l := newE3(t, E3Params{M: 1, RMax: 1, Epsilon: eps, PlanTolerance: 1e-10, Planning: planning})
	tk := task(3, 2, 1)
	tk.Terminal = terminal
	l.Begin(tk)
	l.Record(0, 0, 0.5)
	l.Record(1, 1, 0)
	l.Record(2, 2, 0)
	l.Record(3, 0, 0)
	return l
}

// The two plans and the choice between them, by hand on knownChain.
//
//	exploitation (state 2 worth 0): V(0) = 0.5/(1−0.9) = 5 by staying; Q(0,1) = 0.9·V(1) = 4.05,
//	  Q(1,0) = 0, Q(1,1) = 0.9·5 = 4.5;
//	exploration (state 2 worth V_max = 10, no rewards): Q(1,0) = 0.9·10 = 9 = V(1),
//	  Q(0,1) = 0.9·9 = 8.1 = V(0), Q(0,0) = Q(1,1) = 0.9·8.1 = 7.29.
//
// E3 explores in a known state s iff V̂_explore(s) > ε/2: with ε = 16.4 (threshold 8.2) it
// exploits in state 0 (stay, 8.1 ≤ 8.2) and explores in state 1 (towards state 2, 9 > 8.2); with
// ε = 16 it explores in both; with ε = 20 it exploits in both (state 1: back to 0).
func TestE3ExploreOrExploitByHand(t *testing.T) {
	l := knownChain(t, 16.4, nil, PlanDelta)
	wantX := []float64{5, 4.05, 0, 4.5, 0, 0}
	wantE := []float64{7.29, 8.1, 9, 7.29, 10, 10}
	for i := range wantX {
		if math.Abs(l.ExploitQ()[i]-wantX[i]) > 1e-8 || math.Abs(l.ExploreQ()[i]-wantE[i]) > 1e-8 {
			t.Fatalf("exploitation Q = %v, want %v; exploration Q = %v, want %v", l.ExploitQ(), wantX, l.ExploreQ(), wantE)
		}
	}
	for _, c := range []struct {
		eps     float64
		explore [2]bool
		act     [2]int
	}{
		{16.4, [2]bool{false, true}, [2]int{0, 0}},
		{16, [2]bool{true, true}, [2]int{1, 0}},
		{20, [2]bool{false, false}, [2]int{0, 1}},
	} {
		l := knownChain(t, c.eps, nil, PlanDelta)
		dst := make([]float64, 2)
		for s := range 2 {
			if got := l.Explores(s); got != c.explore[s] {
				t.Errorf("ε = %v, state %d: explores = %v, want %v", c.eps, s, got, c.explore[s])
			}
			if a := l.Act(s); a != c.act[s] {
				t.Errorf("ε = %v, state %d: action %d, want %d", c.eps, s, a, c.act[s])
			}
			if l.Policy(s, dst); dst[c.act[s]] != 1 {
				t.Errorf("ε = %v, state %d: policy %v, want action %d", c.eps, s, dst, c.act[s])
			}
		}
		if l.Stats().Phase(0) != agent.KnownModel || l.Stats().Phase(2) != agent.Exploring {
			t.Errorf("phases %v %v, want known_model in a known state, exploring in an unknown one", l.Stats().Phase(0), l.Stats().Phase(2))
		}
	}
	if l.Stats().Plans() != 1 {
		t.Errorf("%d plans for one model, want 1", l.Stats().Plans())
	}
}

// A terminal state is not an unknown state to escape to: it is worth 0 in both plans, so with
// state 2 terminal nothing is left to explore and E3 exploits even with ε = 0. (Full planning,
// whose first plan starts from values 0: delta planning starts from V_max, the values when nothing
// is known, and leaves up to plan_tolerance of exploration value, which ε = 0 would count.)
func TestE3TerminalStatesAreNotExplored(t *testing.T) {
	l := knownChain(t, 0, []bool{false, false, true}, PlanFull)
	for i, q := range l.ExploreQ() {
		if q != 0 {
			t.Fatalf("exploration Q[%d] = %v with nothing unknown but a terminal state, want 0", i, q)
		}
	}
	if l.Explores(1) || l.Act(1) != 1 || l.ExploitQ()[4] != 0 {
		t.Errorf("explores %v, action %d in state 1, terminal Q %v; want exploitation, back to 0, 0", l.Explores(1), l.Act(1), l.ExploitQ()[4])
	}
}

// Balanced wandering: in an unknown state E3 takes a least-tried action, each of the tied ones
// sometimes, and its policy is uniform over them.
func TestE3BalancedWandering(t *testing.T) {
	l := newE3(t, E3Params{M: 3, RMax: 1, Epsilon: 0.1, PlanTolerance: 1e-6, Planning: PlanDelta})
	l.Begin(task(1, 4, 3))
	l.Record(0, 0, 0)
	l.Record(1, 0, 0)
	l.Record(3, 0, 0)
	dst := make([]float64, 4)
	if l.Policy(0, dst); !slices.Equal(dst, []float64{0, 0, 1, 0}) {
		t.Errorf("policy %v, want the least-tried action 2", dst)
	}
	for range 20 {
		if a := l.Act(0); a != 2 {
			t.Fatalf("least-tried action = %d, want 2", a)
		}
	}
	v := l.PolicyVersion()
	l.Record(2, 0, 0)
	if l.PolicyVersion() == v {
		t.Error("a sample changed the least-tried actions and not the policy version")
	}
	seen := map[int]bool{}
	for range 200 {
		seen[l.Act(0)] = true
	}
	if l.Policy(0, dst); len(seen) != 4 || !slices.Equal(dst, []float64{0.25, 0.25, 0.25, 0.25}) {
		t.Errorf("tied actions chosen %v, policy %v; want all four, uniform", seen, dst)
	}
}

// Known pairs keep no samples; counts add up to what was kept; a state is known when all its
// actions are; augmentation can make a pair known and then the plans change.
func TestE3KnownSetsAndCountConservation(t *testing.T) {
	l := newE3(t, E3Params{M: 4, RMax: 1, Epsilon: 0.1, PlanTolerance: 1e-6, Planning: PlanDelta})
	l.Begin(task(3, 2, 4))
	rng := rand.New(rand.NewPCG(3, 3))
	kept := make([]int64, 6)
	for range 100 {
		i := rng.IntN(6)
		if got, want := l.Record(i, rng.IntN(3), rng.Float64()), kept[i] < 4; got != want {
			t.Fatalf("Record on pair %d with %d kept = %v, want %v", i, kept[i], got, want)
		}
		kept[i] = min(kept[i]+1, 4)
	}
	for i := range 6 {
		var succ int64
		for _, x := range l.Stats().Counts().Successors(i) {
			succ += x.N
		}
		if l.Stats().Counts().N(i) != 4 || succ != 4 || !l.Stats().Known(i) {
			t.Errorf("pair %d: n = %d, successors %d, known %v; want 4, 4, true", i, l.Stats().Counts().N(i), succ, l.Stats().Known(i))
		}
	}
	if l.Stats().Samples() != 24 || l.Stats().KnownPairs() != 6 || l.Stats().SamplesUntilAllKnown() != 24 || !l.StateKnown(2) {
		t.Errorf("samples %d, known pairs %d, until all known %d; want 24, 6, 24", l.Stats().Samples(), l.Stats().KnownPairs(), l.Stats().SamplesUntilAllKnown())
	}

	l.Begin(task(2, 1, 1))
	l.Record(0, 1, 0)
	if l.StateKnown(0) {
		t.Fatal("state known after 1 of 4 samples")
	}
	v := l.PolicyVersion()
	l.Augment(0, []mdp.Succ{{State: 1, N: 3}}, 2) // 4 counts, reward sum 2: R̂ = 0.5
	if !l.StateKnown(0) || l.PolicyVersion() == v || l.Stats().Samples() != 1 {
		t.Fatalf("after augmentation: known %v, version changed %v, own samples %d; want true, true, 1", l.StateKnown(0), l.PolicyVersion() != v, l.Stats().Samples())
	}
	if q := l.ExploitQ()[0]; math.Abs(q-0.5) > 1e-9 {
		t.Errorf("exploitation Q(0,0) = %v, want R̂ = 0.5 (the unknown state 1 is worth 0)", q)
	}
	l.Replace(0, []mdp.Succ{{State: 1, N: 1}}, 0)
	if l.StateKnown(0) || l.Stats().KnownPairs() != 0 {
		t.Errorf("after Replace by 1 count: state known %v, known pairs %d; want false, 0", l.StateKnown(0), l.Stats().KnownPairs())
	}
}

func TestE3Validate(t *testing.T) {
	ok := DefaultE3()
	if err := ok.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, c := range []struct {
		edit func(*E3Params)
		want string
	}{
		{func(p *E3Params) { p.M = 0 }, "e3: m = 0"},
		{func(p *E3Params) { p.RMax = 0 }, "e3: r_max = 0"},
		{func(p *E3Params) { p.Epsilon = -1 }, "e3: epsilon = -1"},
		{func(p *E3Params) { p.Epsilon = math.Inf(1) }, "e3: epsilon = +Inf"},
		{func(p *E3Params) { p.PlanTolerance = math.NaN() }, "e3: plan_tolerance = NaN"},
	} {
		p := ok
		c.edit(&p)
		_, err := NewE3(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

// The same seeds give the same run; Act takes only actions its policy allows, and asking for the
// policy changes nothing. The corridor is learned: right everywhere.
func TestE3DeterminismAndPolicy(t *testing.T) {
	m := line(t)
	run := func(askPolicy bool) ([]int, *E3) {
		l := newE3(t, E3Params{M: 5, RMax: 1, Epsilon: 0.1, PlanTolerance: 1e-6, Planning: PlanDelta})
		return driveLine(t, m, l, askPolicy), l
	}
	a, l := run(true)
	b, _ := run(true)
	c, _ := run(false)
	if !slices.Equal(a, b) {
		t.Fatal("two runs with the same seeds differ")
	}
	if !slices.Equal(a, c) {
		t.Fatal("asking for the policy changed the actions")
	}
	dst := make([]float64, 2)
	for s := range 3 {
		if l.Policy(s, dst); dst[1] != 1 || l.Explores(s) {
			t.Errorf("state %d: policy %v, explores %v; want right, exploiting", s, dst, l.Explores(s))
		}
	}
}

func BenchmarkE3Maze4x4(b *testing.B) {
	l, err := NewE3(DefaultE3())
	if err != nil {
		b.Fatal(err)
	}
	benchTasks(b, agent.NewSingle(l))
	b.ReportMetric(float64(l.Stats().Plans()), "plans/task")
}

// TestE3IncrementalPlansMatchFullPlans drives E3 planning incrementally (delta and incremental in
// turn) and E3 planning in full to 1e-12 through the same changes on random small MDPs —
// samples making states known, augmentations, withdrawn augmentations (Replace) that make known
// states unknown, terminal states learned from a step — and after every change compares both
// plans: values within plan_tolerance, and the same greedy action wherever the exact plan's leads
// by more than twice the tolerance.
func TestE3IncrementalPlansMatchFullPlans(t *testing.T) {
	for _, planning := range []Planning{PlanDelta, PlanIncremental} {
		t.Run(string(planning), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 12))
			for trial := 0; trial < 60; trial++ {
				S, A, gamma, terminal := randomPlanTask(rng)
				p := E3Params{M: 1 + rng.Int64N(3), RMax: []float64{1, 2}[rng.IntN(2)], Epsilon: 0.1, PlanTolerance: 1e-4, Planning: planning}
				exact := p
				exact.Planning, exact.PlanTolerance = PlanFull, 1e-12
				li, le := newE3(t, p), newE3(t, exact)
				for _, l := range []*E3{li, le} {
					l.Begin(agent.Task{S: S, A: A, Gamma: gamma, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: terminal})
				}
				for change := 0; change < 80; change++ {
					changeAtRandom(rng, S, A, []planChange{augmentPair, augmentPair, withdrawToOne, learnTerminal}, li, le)
					for k, pair := range [][2][]float64{{li.ExploitQ(), le.ExploitQ()}, {li.ExploreQ(), le.ExploreQ()}} {
						checkSamePlan(t, fmt.Sprintf("trial %d change %d, plan %d", trial, change, k), pair[0], pair[1], S, A, p.PlanTolerance)
					}
				}
			}
		})
	}
}
