package baseline

import (
	"math"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

func TestFMRLValidation(t *testing.T) {
	for _, c := range []struct {
		edit func(*FMRLParams)
		want string
	}{
		{func(p *FMRLParams) { p.RMax.M = 0 }, "fmrl: rmax: known threshold m = 0"},
		{func(p *FMRLParams) { p.Ms = 0 }, "fmrl: m_s = 0, want 1 <= m_s <= m = 500"},
		{func(p *FMRLParams) { p.Ms = 501 }, "fmrl: m_s = 501"},
		{func(p *FMRLParams) { p.T1 = 0 }, "fmrl: t1 = 0, want at least 1"},
		{func(p *FMRLParams) { p.ModelGap = -0.1 }, "fmrl: model_gap = -0.1"},
		{func(p *FMRLParams) { p.Delta = 1 }, "fmrl: delta = 1, want 0 < delta < 1"},
		{func(p *FMRLParams) { p.Xi = 0 }, "fmrl: xi = 0"},
		{func(p *FMRLParams) { p.Xi = math.NaN() }, "fmrl: xi = NaN"},
	} {
		p := DefaultFMRL()
		c.edit(&p)
		if _, err := NewFMRL(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	f, _ := NewFMRL(DefaultFMRL())
	if err := f.BeginTask(newTask(0, 16, 4, 0.95, 1)); err != nil {
		t.Fatal(err)
	}
	f.EndTask()
	if err := f.BeginTask(newTask(1, 25, 4, 0.95, 1)); err == nil || !strings.Contains(err.Error(), "task 1 has S=25 A=4, the earlier tasks have S=16 A=4") {
		t.Errorf("task of another size: error %v", err)
	}
}

// record builds counts on S states and one action: pair s gets n[s] samples split over the
// successors as given, with reward sum r[s].
func record(S int, rows map[int]map[int]int64, r map[int]float64) *mdp.Counts {
	c := mdp.NewCounts(S, 1)
	for i, row := range rows {
		for next, k := range row {
			c.Add(i, next, k, 0)
		}
		c.AddReward(i, r[i])
	}
	return c
}

// TestFMRLGrouping checks the model distance and the clustering rule on hand-made records of a
// model with 3 states and one action.
func TestFMRLGrouping(t *testing.T) {
	p := DefaultFMRL()
	p.Ms, p.ModelGap = 2, 0.3
	f, _ := NewFMRL(p)
	// x: pair 0 → (0.5, 0.5, 0), R̂ 0; pair 1 → (0, 1, 0), R̂ 1; pair 2 has 1 sample only.
	x := record(3, map[int]map[int]int64{0: {0: 2, 1: 2}, 1: {1: 4}, 2: {2: 1}}, map[int]float64{1: 4})
	// y: pair 0 → (0.5, 0.5, 0), R̂ 0.25; pair 1 → (0, 0.75, 0.25), R̂ 1; pair 2 → (1, 0, 0).
	y := record(3, map[int]map[int]int64{0: {0: 4, 1: 4}, 1: {1: 3, 2: 1}, 2: {0: 4}}, map[int]float64{0: 2, 1: 4})
	// Pair 0: 0 + 0.25; pair 1: ‖(0, 0.25, −0.25)‖₂ + 0 = 0.3536; pair 2 is skipped (x has 1 < m_s
	// samples, although the two disagree completely).
	if d := mdp.ModelDistance(x, y, p.Ms); math.Abs(d-math.Sqrt(0.125)) > 1e-12 {
		t.Errorf("D(x,y) = %v, want %v", d, math.Sqrt(0.125))
	}
	// No pair with m_s samples in both: not comparable.
	z := record(3, map[int]map[int]int64{2: {2: 5}}, nil)
	if d := mdp.ModelDistance(x, z, p.Ms); !math.IsInf(d, 1) {
		t.Errorf("D(x,z) = %v, want +Inf", d)
	}
	// Records: x opens group 0; y is 0.354 > Γ = 0.3 from it and opens group 1; z is not
	// comparable with group 0 and 1.414 from group 1 on pair 2, so it opens group 2; x2 (a copy of
	// x) is at distance 0 from group 0, 0.354 from group 1 and not comparable with group 2, so it
	// joins group 0; w (pair 0 only, R̂ 0.125) is exactly as close (0.125) to groups 0 and 1 and
	// joins the lower.
	w := record(3, map[int]map[int]int64{0: {0: 3, 1: 3}}, map[int]float64{0: 0.75})
	f.records = []*mdp.Counts{x, y, z, x.Clone(), w}
	f.group()
	if f.Groups() != 3 {
		t.Fatalf("%d groups, want 3", f.Groups())
	}
	g0 := f.GroupCounts(0)
	if g0.N(0) != 4+4+6 || g0.N(1) != 8 || g0.N(2) != 2 || g0.R(0) != 0.75 || g0.R(1) != 8 {
		t.Errorf("group 0 counts n = %d %d %d, R(0) = %v; want x twice plus w", g0.N(0), g0.N(1), g0.N(2), g0.R(0))
	}
	if f.GroupCounts(1).N(0) != 8 || f.GroupCounts(2).N(2) != 5 {
		t.Errorf("groups 1 and 2 should hold y and z alone")
	}
	if f.records != nil {
		t.Errorf("records kept after grouping")
	}
}

// TestFMRLElimination follows the pairwise test by hand. Three groups on 2 states and 1 action:
// on pair 0 every group moves to state 0 after 100 samples, paying R̂ = 0 in group 0 and R̂ = 1 in
// groups 1 and 2 (which are identical); pair 1 has no data. With δ = 0.01 each group's width is
// w = √(2·ln 200/100) = 0.3255, so a pair of groups is tested iff L ≥ 0.651: (0,1) and (0,2) have
// L = 1, (1,2) has L = 0. An observation (0 → 0, r = 1) adds L²/4 = 0.25 to c and
// ‖μ_0 − z‖² − ‖μ_1 − z‖² = 1 − 0 = 1 to Δ. The bound is ln(100)/0.2 = 23.03, reached at the 93rd
// observation (c = 23.25), which eliminates group 0 (Δ = 93 > 0) through the pair (0,1); the pair
// (0,2) is not consulted any more. Groups 1 and 2 never differ enough to be tested, so nothing is
// identified.
func TestFMRLElimination(t *testing.T) {
	same := func(r float64) *mdp.Counts {
		return record(2, map[int]map[int]int64{0: {0: 100}}, map[int]float64{0: r})
	}
	p := DefaultFMRL()
	p.RMax.M, p.Ms, p.T1 = 50, 1, 1
	f, _ := NewFMRL(p)
	for _, c := range []*mdp.Counts{same(0), same(100), same(100)} {
		f.groups = append(f.groups, newGroupModel(c, p.Delta))
	}
	f.task, f.S, f.A = 1, 2, 1 // phase 1 is over
	if err := f.BeginTask(newTask(1, 2, 1, 0.95, 1)); err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.bound-math.Log(100)/0.2) > 1e-12 || math.Abs(f.groups[0].w[0]-math.Sqrt(2*math.Log(200)/100)) > 1e-12 {
		t.Fatalf("bound %v, width %v", f.bound, f.groups[0].w[0])
	}
	for k := 1; k <= 92; k++ {
		f.Observe(0, 0, 1, 0)
	}
	if !f.alive[0] || math.Abs(f.c[0*3+1]-23) > 1e-9 || math.Abs(f.delta[0*3+1]-92) > 1e-9 || f.c[1*3+2] != 0 {
		t.Fatalf("after 92 observations: alive %v, c01 = %v, Δ01 = %v, c12 = %v", f.alive, f.c[1], f.delta[1], f.c[5])
	}
	f.Observe(0, 0, 1, 0)
	if f.alive[0] || !f.alive[1] || !f.alive[2] || f.nAlive != 2 {
		t.Fatalf("after 93 observations alive = %v, want group 0 eliminated", f.alive)
	}
	if f.c[0*3+2] != 23 || f.c[1*3+2] != 0 || f.identified != -1 {
		t.Errorf("c02 = %v (want 23, untouched by the decision), c12 = %v (want 0), identified %d (want −1)", f.c[2], f.c[5], f.identified)
	}
	if testing.AllocsPerRun(100, func() { f.eliminate(0, 1, 0) }) != 0 {
		t.Errorf("elimination allocates")
	}

	// With two groups the same observations identify group 1 at step 93, and its counts are
	// handed to the learner: pair 0 has its 50 own samples (frozen at m) plus the group's 100.
	f2, _ := NewFMRL(p)
	f2.groups = []*groupModel{newGroupModel(same(0), p.Delta), newGroupModel(same(100), p.Delta)}
	f2.task, f2.S, f2.A = 1, 2, 1
	if err := f2.BeginTask(newTask(1, 2, 1, 0.95, 1)); err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 93; k++ {
		f2.Observe(0, 0, 1, 0)
	}
	got := f2.TaskMetrics()
	for name, want := range map[string]float64{"phase": 2, "groups": 2, "identified": 1, "identified_group": 1, "identified_after_steps": 93, "candidates_left": 1} {
		if v, ok := metric(got, name); !ok || v != want {
			t.Errorf("metric %s = %v, want %v", name, v, want)
		}
	}
	l := f2.Learner()
	if l.Stats().Counts().N(0) != 150 || !l.Stats().Known(0) || l.Stats().Counts().N(1) != 0 || l.Stats().Known(1) {
		t.Errorf("learner n = %d %d, known %v %v; want 150 (known) and 0 (unknown)", l.Stats().Counts().N(0), l.Stats().Counts().N(1), l.Stats().Known(0), l.Stats().Known(1))
	}

	// Groups that differ by less than their widths are never tested.
	f3, _ := NewFMRL(p)
	f3.groups = []*groupModel{newGroupModel(same(0), p.Delta), newGroupModel(same(50), p.Delta)}
	f3.task, f3.S, f3.A = 1, 2, 1
	if err := f3.BeginTask(newTask(1, 2, 1, 0.95, 1)); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 1000; k++ {
		f3.Observe(0, 0, 1, 0)
	}
	if f3.c[1] != 0 || f3.nAlive != 2 {
		t.Errorf("L = 0.5 < 0.651 was tested: c = %v, candidates %d", f3.c[1], f3.nAlive)
	}
}

// TestFMRLTwoGoalGrid runs FMRL on a seeded sequence of 4×4 grids (slip 0.4) whose tasks have one
// of two goals. Phase 1 (tasks 1–4) sees both goals twice; FMRL must form exactly 2 groups, and on
// every phase-2 task identify the group built from the tasks with the same goal, after which its
// learner knows more pairs than plain RMax on the same task at the same step.
func TestFMRLTwoGoalGrid(t *testing.T) {
	goalA, goalB := gridModel(t, env.Cell{X: 4, Y: 4}), gridModel(t, env.Cell{X: 1, Y: 4})
	p := DefaultFMRL()
	p.RMax.M, p.Ms, p.T1 = 100, 10, 4
	f, err := NewFMRL(p)
	if err != nil {
		t.Fatal(err)
	}
	seq := []*mdp.Model{goalA, goalB, goalA, goalB, goalB, goalA, goalA, goalB, goalA, goalB, goalB, goalB, goalA, goalA}
	// Known pairs every 1000 steps; FMRL must never know fewer pairs than RMax and must know more
	// at some point.
	const steps, every = 8000, 1000
	for k, m := range seq {
		var known []int
		runSteps(t, f, m, k, steps, 0.95, 7, func(step int) {
			if step%every == 0 {
				known = append(known, f.Learner().Stats().KnownPairs())
			}
		})
		metrics := f.TaskMetrics()
		if phase, _ := metric(metrics, "phase"); phase != map[bool]float64{true: 1, false: 2}[k < p.T1] {
			t.Fatalf("task %d: phase %v", k+1, phase)
		}
		if k == p.T1-1 && f.Groups() != 2 {
			t.Fatalf("%d groups after phase 1, want 2", f.Groups())
		}
		if k < p.T1 {
			continue
		}
		want := 0.0 // group 0 was opened by task 1 (goal A), group 1 by task 2 (goal B)
		if m == goalB {
			want = 1
		}
		if g, _ := metric(metrics, "identified_group"); g != want {
			t.Fatalf("task %d: identified group %v, want %v", k+1, g, want)
		}
		after, _ := metric(metrics, "identified_after_steps")
		base, err := learners.NewRMax(p.RMax)
		if err != nil {
			t.Fatal(err)
		}
		rm := agent.NewSingle(base)
		var rmaxKnown []int
		runSteps(t, rm, m, k, steps, 0.95, 7, func(step int) {
			if step%every == 0 {
				v, _ := metric(rm.TaskMetrics(), "known_pairs")
				rmaxKnown = append(rmaxKnown, int(v))
			}
		})
		more := false
		for c := range known {
			if known[c] < rmaxKnown[c] {
				t.Errorf("task %d: after %d steps FMRL knows %d pairs, RMax %d", k+1, (c+1)*every, known[c], rmaxKnown[c])
			}
			more = more || known[c] > rmaxKnown[c]
		}
		if !more {
			t.Errorf("task %d: FMRL never knows more pairs than RMax: %v vs %v", k+1, known, rmaxKnown)
		}
		t.Logf("task %d: group %v identified after %v steps; known pairs every %d steps: FMRL %v, RMax %v", k+1, want, after, every, known, rmaxKnown)
	}
}

// TestPhases: FMRL and MaxQInit on RMax report their learner's phases (exploring at the start
// of a task, known model once every action of a state is known); MaxQInit on Q-learning reports
// none.
func TestPhases(t *testing.T) {
	m := gridModel(t, env.Cell{X: 4, Y: 4})
	p := DefaultFMRL()
	p.RMax.M, p.Ms = 5, 2
	f, err := NewFMRL(p)
	if err != nil {
		t.Fatal(err)
	}
	mp := DefaultMaxQInit(BaseRMax)
	mp.RMax.M = 5
	rmq, err := NewMaxQInit(mp, []*mdp.Model{m}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	qmq, err := NewMaxQInit(DefaultMaxQInit(BaseQLearning), []*mdp.Model{m}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ag   interface {
			agent.Agent
			agent.StepInfo
		}
		learner func() *learners.RMax
	}{
		{"FMRL", f, f.Learner},
		{"MaxQInit-RMax", rmq, func() *learners.RMax { return &rmq.base.(*rmaxBase).l }},
		{"MaxQInit-Q", qmq, nil},
	} {
		runSteps(t, c.ag, m, 0, 200, 0.95, 1, nil)
		seen := map[agent.Phase]bool{}
		for s := 0; s < m.S; s++ {
			want := agent.Unclassified
			if c.learner != nil {
				want = agent.KnownModel
				for a := 0; a < m.A; a++ {
					if !c.learner().Stats().Known(s*m.A + a) {
						want = agent.Exploring
					}
				}
			}
			if got := c.ag.Phase(s); got != want {
				t.Errorf("%s: state %d phase %v, want %v", c.name, s, got, want)
			}
			seen[want] = true
		}
		if c.learner != nil && !(seen[agent.Exploring] && seen[agent.KnownModel]) {
			t.Errorf("%s: after 200 steps the states' phases are %v, want both exploring and known", c.name, seen)
		}
	}
}
