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

func newMBIEEB(t *testing.T, p MBIEEBParams) *MBIEEB {
	t.Helper()
	l, err := NewMBIEEB(p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A two-state chain by hand, γ = 0.9, β = 1, R_max = 1 (V_max = 10). Pair (0,0) was seen once,
// moving to state 1 with reward 0.5; pair (1,0) four times, staying in 1 with reward 0; pairs
// (0,1) and (1,1) are unvisited, worth V_max = 10. Then V(1) = max(Q(1,0), 10) and
//
//	Q(1,0) = 0 + 0.9·V(1) + 1/√4 = 9.5 < 10, so V(1) = 10;
//	Q(0,0) = 0.5 + 0.9·10 + 1/√1 = 10.5 > 10:
//
// the bonus of a pair seen once makes it beat an unvisited one, and in state 1 the unvisited
// action wins.
func TestMBIEEBBonusByHand(t *testing.T) {
	l := newMBIEEB(t, MBIEEBParams{Beta: 1, RMax: 1, PlanTolerance: 1e-10, Replan: ReplanEverySample, Planning: PlanFull})
	l.Begin(task(2, 2, 1))
	l.Record(0, 1, 0.5)
	for range 4 {
		l.Record(2, 1, 0)
	}
	want := []float64{10.5, 10, 9.5, 10}
	for i, q := range l.Q() {
		if math.Abs(q-want[i]) > 1e-8 {
			t.Fatalf("Q = %v, want %v", l.Q(), want)
		}
	}
	if a := l.Act(0); a != 0 {
		t.Errorf("action in state 0 = %d, want 0 (10.5 against 10)", a)
	}
	if a := l.Act(1); a != 1 {
		t.Errorf("action in state 1 = %d, want the unvisited 1 (10 against 9.5)", a)
	}
	// Visiting (1,1) once, staying in 1 with reward 0.2: V(1) = 0.2 + 0.9·V(1) + 1/√1 by (1,1),
	// so V(1) = 12, Q(1,0) = 0.9·12 + 0.5 = 11.3, Q(0,0) = 0.5 + 0.9·12 + 1 = 12.3, and the
	// unvisited Q(0,1) stays at 10.
	l.Record(3, 1, 0.2)
	want = []float64{12.3, 10, 11.3, 12}
	for i, q := range l.Q() {
		if math.Abs(q-want[i]) > 1e-8 {
			t.Fatalf("Q = %v, want %v", l.Q(), want)
		}
	}
}

// Augmentation enters n(s,a) and the estimates: on a one-state self-loop paying nothing,
// Q = (β/√n)/(1−γ), so three added counts halve the bonus of a pair seen once (n 1 → 4), and a
// Replace by one count restores it.
func TestMBIEEBAugmentShrinksTheBonus(t *testing.T) {
	l := newMBIEEB(t, MBIEEBParams{Beta: 1, RMax: 1, PlanTolerance: 1e-10, Replan: ReplanDoubling, Planning: PlanFull})
	l.Begin(task(1, 1, 1))
	l.Record(0, 0, 0)
	if q := l.Q()[0]; math.Abs(q-10) > 1e-7 {
		t.Fatalf("Q = %v with n = 1, want β/(1−γ) = 10", q)
	}
	l.Augment(0, []mdp.Succ{{State: 0, N: 3}}, 0)
	if q := l.Q()[0]; l.Stats().Counts().N(0) != 4 || math.Abs(q-5) > 1e-7 {
		t.Fatalf("after augmenting 3: n = %d, Q = %v; want 4 and (β/2)/(1−γ) = 5", l.Stats().Counts().N(0), q)
	}
	// Augmented reward enters R̂: 3 more counts with reward sum 1.4 make R̂ = 1.4/7.
	l.Augment(0, []mdp.Succ{{State: 0, N: 3}}, 1.4)
	if want := (0.2 + 1/math.Sqrt(7)) / 0.1; math.Abs(l.Q()[0]-want) > 1e-7 {
		t.Fatalf("Q = %v, want (R̂ + β/√7)/(1−γ) = %v", l.Q()[0], want)
	}
	l.Replace(0, []mdp.Succ{{State: 0, N: 1}}, 0)
	if q := l.Q()[0]; l.Stats().Counts().N(0) != 1 || math.Abs(q-10) > 1e-7 {
		t.Fatalf("after Replace: n = %d, Q = %v; want 1 and 10", l.Stats().Counts().N(0), q)
	}
	if l.Stats().Samples() != 1 {
		t.Errorf("own samples = %d, want 1: augmentation is not an own sample", l.Stats().Samples())
	}
}

// A terminal state is worth 0 although it is never visited (unvisited pairs are otherwise worth
// V_max), so nothing is bootstrapped past it.
func TestMBIEEBPlansTerminalStatesAtZero(t *testing.T) {
	l := newMBIEEB(t, MBIEEBParams{Beta: 1, RMax: 1, PlanTolerance: 1e-10, Replan: ReplanDoubling, Planning: PlanFull})
	tk := task(2, 1, 1)
	tk.Terminal = []bool{false, true}
	l.Begin(tk)
	l.Record(0, 1, 0.5)
	if q := l.Q(); math.Abs(q[0]-1.5) > 1e-9 || q[1] != 0 {
		t.Fatalf("Q = %v, want [1.5 0]: R̂ + β/√1 with nothing past the terminal state", q)
	}
}

// The cap m: a pair keeps its first m own samples and is then known; the counts and the reward
// sums add up to what was kept, and Samples counts them.
func TestMBIEEBCapAndCountConservation(t *testing.T) {
	l := newMBIEEB(t, MBIEEBParams{Beta: 0.5, M: 5, RMax: 1, PlanTolerance: 1e-6, Replan: ReplanDoubling, Planning: PlanFull})
	l.Begin(task(3, 2, 4))
	rng := rand.New(rand.NewPCG(3, 3))
	kept := make([]int64, 6)
	rsum := make([]float64, 6)
	for range 200 {
		i, next, r := rng.IntN(6), rng.IntN(3), rng.Float64()
		if got, want := l.Record(i, next, r), kept[i] < 5; got != want {
			t.Fatalf("Record on pair %d with %d kept = %v, want %v", i, kept[i], got, want)
		}
		if kept[i] < 5 {
			kept[i]++
			rsum[i] += r
		}
	}
	var total int64
	for i := range 6 {
		var succ int64
		for _, x := range l.Stats().Counts().Successors(i) {
			succ += x.N
		}
		if l.Stats().Counts().N(i) != kept[i] || succ != kept[i] || math.Abs(l.Stats().Counts().R(i)-rsum[i]) > 1e-12 {
			t.Errorf("pair %d: n = %d, successors sum %d, R = %v; want %d, %d, %v", i, l.Stats().Counts().N(i), succ, l.Stats().Counts().R(i), kept[i], kept[i], rsum[i])
		}
		if !l.Stats().Known(i) {
			t.Errorf("pair %d not known with %d samples, cap 5", i, kept[i])
		}
		total += kept[i]
	}
	if l.Stats().Samples() != total || l.Stats().KnownPairs() != 6 || l.Stats().SamplesUntilAllKnown() != 30 {
		t.Errorf("samples %d, known pairs %d, samples until all known %d; want %d, 6, 30", l.Stats().Samples(), l.Stats().KnownPairs(), l.Stats().SamplesUntilAllKnown(), total)
	}
	if l.Stats().Phase(0) != agent.KnownModel {
		t.Errorf("phase of a state with every pair at its cap = %v", l.Stats().Phase(0))
	}
	// Without a cap every sample is kept and no pair is ever known.
	l = newMBIEEB(t, MBIEEBParams{Beta: 0.5, RMax: 1, PlanTolerance: 1e-6, Replan: ReplanDoubling, Planning: PlanFull})
	l.Begin(task(1, 1, 4))
	for range 100 {
		if !l.Record(0, 0, 1) {
			t.Fatal("a sample was dropped without a cap")
		}
	}
	if l.Stats().Known(0) || l.Stats().Phase(0) != agent.Exploring || l.Stats().SamplesUntilAllKnown() != -1 {
		t.Errorf("m = 0: known %v, phase %v, samples until all known %d; want false, exploring, -1", l.Stats().Known(0), l.Stats().Phase(0), l.Stats().SamplesUntilAllKnown())
	}
}

// The doubling schedule plans when a count reaches 1, 2, 4, 8, …, and only when an action needs
// it; every-sample plans after every change.
func TestMBIEEBReplanSchedule(t *testing.T) {
	for _, c := range []struct {
		replan Replan
		plans  []int // after each of 9 samples of one pair, each followed by Act
	}{
		{ReplanDoubling, []int{2, 3, 3, 4, 4, 4, 4, 5, 5}}, // plan 1 is the first Act's
		{ReplanEverySample, []int{2, 3, 4, 5, 6, 7, 8, 9, 10}},
	} {
		l := newMBIEEB(t, MBIEEBParams{Beta: 1, RMax: 1, PlanTolerance: 1e-6, Replan: c.replan, Planning: PlanFull})
		l.Begin(task(2, 2, 1))
		l.Act(0)
		var got []int
		for range c.plans {
			l.Record(0, 1, 0)
			l.Act(0)
			got = append(got, l.Stats().Plans())
		}
		if !slices.Equal(got, c.plans) {
			t.Errorf("%s: plans %v, want %v", c.replan, got, c.plans)
		}
		// Seven more samples (n = 16) without an action: no plan until one is needed, then one.
		for range 7 {
			l.Record(0, 1, 0)
		}
		before := l.Stats().Plans()
		l.Act(0)
		if before != got[len(got)-1] || l.Stats().Plans() != before+1 {
			t.Errorf("%s: %d plans before the action, %d after; want %d and one more", c.replan, before, l.Stats().Plans(), got[len(got)-1])
		}
	}
}

func TestMBIEEBValidate(t *testing.T) {
	ok := DefaultMBIEEB()
	if err := ok.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, c := range []struct {
		edit func(*MBIEEBParams)
		want string
	}{
		{func(p *MBIEEBParams) { p.Beta = -1 }, "mbie-eb: beta = -1"},
		{func(p *MBIEEBParams) { p.Beta = math.NaN() }, "beta = NaN"},
		{func(p *MBIEEBParams) { p.M = -2 }, "mbie-eb: m = -2"},
		{func(p *MBIEEBParams) { p.RMax = math.Inf(1) }, "mbie-eb: r_max = +Inf"},
		{func(p *MBIEEBParams) { p.PlanTolerance = 0 }, "mbie-eb: plan_tolerance = 0"},
		{func(p *MBIEEBParams) { p.Replan = "sometimes" }, `mbie-eb: replan = "sometimes"`},
	} {
		p := ok
		c.edit(&p)
		_, err := NewMBIEEB(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

// driveLine runs base learner l for 300 steps on the 3-state corridor m (line) with fixed seeds and
// returns its actions; with askPolicy it asks for the policy before every action and fails if Act
// takes an action the policy gives probability 0.
func driveLine(t *testing.T, m *mdp.Model, l agent.Base, askPolicy bool) []int {
	t.Helper()
	l.Begin(task(3, 2, 11))
	rng := rand.New(rand.NewPCG(5, 5))
	var acts []int
	s := 0
	dst := make([]float64, 2)
	for range 300 {
		if askPolicy {
			l.Policy(s, dst)
		}
		a := l.Act(s)
		if askPolicy && dst[a] == 0 {
			t.Fatalf("Act took %d, which the policy %v gives probability 0", a, dst)
		}
		acts = append(acts, a)
		next, r := m.Step(s, a, rng)
		l.Record(s*2+a, next, r)
		s = next
	}
	return acts
}

// The same seeds give the same run; the policy MBIE-EB gives is uniform over the greedy actions
// of the plan Act uses, and asking for it changes nothing.
func TestMBIEEBDeterminismAndPolicy(t *testing.T) {
	m := line(t)
	run := func(askPolicy bool) ([]int, *MBIEEB) {
		l := newMBIEEB(t, DefaultMBIEEB())
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
	// The corridor is learned: right everywhere.
	dst := make([]float64, 2)
	for s := range 3 {
		if l.Policy(s, dst); dst[1] != 1 {
			t.Errorf("policy in state %d = %v, want always right", s, dst)
		}
	}
}

func BenchmarkMBIEEBMaze4x4(b *testing.B) {
	for _, replan := range []Replan{ReplanDoubling, ReplanEverySample} {
		b.Run(string(replan), func(b *testing.B) {
			p := DefaultMBIEEB()
			p.Replan = replan
			l, err := NewMBIEEB(p)
			if err != nil {
				b.Fatal(err)
			}
			benchTasks(b, agent.NewSingle(l))
			b.ReportMetric(float64(l.Stats().Plans()), "plans/task")
		})
	}
}

// TestMBIEEBIncrementalPlanMatchesFullPlan drives MBIE-EB planning incrementally (delta and
// incremental in turn) and MBIE-EB planning in full to 1e-12 through the same changes on random
// small MDPs — samples (capped and uncapped), augmentations, withdrawn augmentations (Replace),
// terminal states learned from a step — on the every-sample schedule, and after every change
// compares the plans: values within plan_tolerance, and the same greedy action wherever the
// exact plan's leads by more than twice the tolerance.
func TestMBIEEBIncrementalPlanMatchesFullPlan(t *testing.T) {
	for _, planning := range []Planning{PlanDelta, PlanIncremental} {
		t.Run(string(planning), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(9, 10))
			for trial := 0; trial < 60; trial++ {
				S, A, gamma, terminal := randomPlanTask(rng)
				p := MBIEEBParams{Beta: rng.Float64(), M: []int64{0, 3}[rng.IntN(2)], RMax: []float64{1, 2}[rng.IntN(2)],
					PlanTolerance: 1e-4, Replan: ReplanEverySample, Planning: planning}
				exact := p
				exact.Planning, exact.PlanTolerance = PlanFull, 1e-12
				li, le := newMBIEEB(t, p), newMBIEEB(t, exact)
				for _, l := range []*MBIEEB{li, le} {
					l.Begin(agent.Task{S: S, A: A, Gamma: gamma, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: terminal})
				}
				for change := 0; change < 80; change++ {
					changeAtRandom(rng, S, A, []planChange{augmentPair, augmentPair, withdrawPair, learnTerminal}, li, le)
					checkSamePlan(t, fmt.Sprintf("trial %d change %d", trial, change), li.Q(), le.Q(), S, A, p.PlanTolerance)
				}
			}
		})
	}
}
