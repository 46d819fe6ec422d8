package baseline

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

func TestDelayedQValidation(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		edit func(*DelayedQParams)
		want string
	}{
		{"m zero", func(p *DelayedQParams) { p.M = 0 }, "delayed-q: m = 0, want at least 1"},
		{"epsilon1 zero", func(p *DelayedQParams) { p.Epsilon1 = 0 }, "delayed-q: epsilon1 = 0"},
		{"epsilon1 inf", func(p *DelayedQParams) { p.Epsilon1 = math.Inf(1) }, "delayed-q: epsilon1 = +Inf"},
		{"r_max nan", func(p *DelayedQParams) { p.RMax = nan }, "delayed-q: r_max = NaN"},
		{"initial nan", func(p *DelayedQParams) { p.InitialQ = &nan }, "delayed-q: initial_q = NaN"},
	} {
		p := DefaultDelayedQ()
		c.edit(&p)
		if _, err := NewDelayedQ(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	d, err := NewDelayedQ(DefaultDelayedQ())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.BeginTask(newTask(0, 2, 2, 1, 1)); err == nil || !strings.Contains(err.Error(), "gamma = 1") {
		t.Errorf("gamma 1: error %v, want one naming gamma", err)
	}
	d.SetInitial([]float64{1, 2, 3})
	if err := d.BeginTask(newTask(0, 2, 2, 0.5, 1)); err == nil || !strings.Contains(err.Error(), "initial table has 3 entries") {
		t.Errorf("wrong initial table: error %v", err)
	}
}

// TestDelayedQHandTrace follows the update rule by hand on 2 states and 2 actions with γ = 0.5,
// m = 2, ε1 = 0.1, R_max = 1, so every Q starts at R_max/(1−γ) = 2 and an attempted update
// succeeds iff Q(s,a) − AU/2 ≥ 0.2.
//
//	t=1 (s0,a0) r=0 → s1: b=0 ≤ t*=0, LEARN on; l=0 so b=1; l=1; AU = 0 + 0.5·max Q(s1) = 0.5·2 = 1
//	t=2 (s0,a0) r=0 → s1: b=1 > t*=0; l=2; AU = 1 + 1 = 2. Attempt: Q − AU/m = 2 − 1 = 1 ≥ 0.2,
//	    success: Q(s0,a0) = AU/m + ε1 = 1.1, t* = 2; AU = 0, l = 0
//	t=3 (s1,a0) r=1 → s1: b=0 ≤ 2, LEARN on; b=3; l=1; AU = 1 + 0.5·2 = 2
//	t=4 (s1,a0) r=1 → s1: b=3 > 2; l=2; AU = 4. Attempt: 2 − 4/2 = 0 < 0.2 fails; b=3 > t*=2, so
//	    LEARN(s1,a0) off; AU = 0, l = 0; Q(s1,a0) stays 2
//	t=5 (s1,a0) r=1 → s1: b=3 > t*=2 and LEARN off: nothing changes (l = 0, AU = 0)
//	t=6 (s0,a1) r=0 → s0: b=0 ≤ 2, LEARN on; b=6; l=1; AU = 0 + 0.5·max(1.1, 2) = 1
//	t=7 (s0,a1) r=0 → s0: l=2; AU = 2. Attempt: 2 − 1 = 1 ≥ 0.2, success: Q(s0,a1) = 1.1, t* = 7
//	t=8 (s1,a0) r=1 → s1: b=3 ≤ t*=7, LEARN on again; l=0 so b=8; l=1; AU = 1 + 0.5·2 = 2
func TestDelayedQHandTrace(t *testing.T) {
	p := DelayedQParams{M: 2, Epsilon1: 0.1, RMax: 1}
	d, err := NewDelayedQ(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.BeginTask(newTask(0, 2, 2, 0.5, 1)); err != nil {
		t.Fatal(err)
	}
	const s0a0, s0a1, s1a0 = 0, 1, 2
	// After each transition (s, a, r, next): the whole Q table, the statistics of the pair just
	// updated and t*.
	type state struct {
		s, a  int
		r     float64
		next  int
		pair  int
		q     []float64
		au    float64
		l     int
		b     int64
		learn bool
		tStar int64
	}
	steps := []state{
		{s: 0, a: 0, r: 0.0, next: 1, pair: s0a0, q: []float64{2, 2, 2, 2}, au: 1, l: 1, b: 1, learn: true, tStar: 0},
		{s: 0, a: 0, r: 0.0, next: 1, pair: s0a0, q: []float64{1.1, 2, 2, 2}, au: 0, l: 0, b: 1, learn: true, tStar: 2},
		{s: 1, a: 0, r: 1.0, next: 1, pair: s1a0, q: []float64{1.1, 2, 2, 2}, au: 2, l: 1, b: 3, learn: true, tStar: 2},
		{s: 1, a: 0, r: 1.0, next: 1, pair: s1a0, q: []float64{1.1, 2, 2, 2}, au: 0, l: 0, b: 3, learn: false, tStar: 2},
		{s: 1, a: 0, r: 1.0, next: 1, pair: s1a0, q: []float64{1.1, 2, 2, 2}, au: 0, l: 0, b: 3, learn: false, tStar: 2},
		{s: 0, a: 1, r: 0.0, next: 0, pair: s0a1, q: []float64{1.1, 2, 2, 2}, au: 1, l: 1, b: 6, learn: true, tStar: 2},
		{s: 0, a: 1, r: 0.0, next: 0, pair: s0a1, q: []float64{1.1, 1.1, 2, 2}, au: 0, l: 0, b: 6, learn: true, tStar: 7},
		{s: 1, a: 0, r: 1.0, next: 1, pair: s1a0, q: []float64{1.1, 1.1, 2, 2}, au: 2, l: 1, b: 8, learn: true, tStar: 7},
	}
	for k, w := range steps {
		d.Observe(w.s, w.a, w.r, w.next)
		i := w.pair
		for j, q := range w.q {
			if math.Abs(d.Q()[j]-q) > 1e-12 {
				t.Fatalf("t=%d: Q = %v, want %v", k+1, d.Q(), w.q)
			}
		}
		if math.Abs(d.au[i]-w.au) > 1e-12 || d.l[i] != w.l || d.b[i] != w.b || d.learn[i] != w.learn || d.tStar != w.tStar {
			t.Fatalf("t=%d pair %d: AU=%v l=%d b=%d LEARN=%v t*=%d; want AU=%v l=%d b=%d LEARN=%v t*=%d",
				k+1, i, d.au[i], d.l[i], d.b[i], d.learn[i], d.tStar, w.au, w.l, w.b, w.learn, w.tStar)
		}
	}
	if v, _ := metric(d.TaskMetrics(), "updates"); v != 2 {
		t.Errorf("updates = %v, want 2", v)
	}
	if v, _ := metric(d.TaskMetrics(), "failed_updates"); v != 1 {
		t.Errorf("failed updates = %v, want 1", v)
	}
}

// TestDelayedQResetsEverything: a new task starts from scratch — no AU, l, b, LEARN or t* carried
// over (the published carry-over is a bug).
func TestDelayedQResetsEverything(t *testing.T) {
	d, _ := NewDelayedQ(DelayedQParams{M: 2, Epsilon1: 0.1, RMax: 1})
	if err := d.BeginTask(newTask(0, 2, 2, 0.5, 1)); err != nil {
		t.Fatal(err)
	}
	d.Observe(1, 0, 1, 1)
	d.Observe(1, 0, 1, 1) // fails, LEARN(s1,a0) off
	d.Observe(0, 0, 0, 1) // half an attempt on (s0,a0)
	d.Observe(0, 1, 0, 0)
	d.Observe(0, 1, 0, 0) // succeeds, t* = 5
	if err := d.BeginTask(newTask(1, 2, 2, 0.5, 1)); err != nil {
		t.Fatal(err)
	}
	for i := range d.q {
		if d.q[i] != 2 || d.au[i] != 0 || d.l[i] != 0 || d.b[i] != 0 || !d.learn[i] {
			t.Fatalf("pair %d after reset: Q=%v AU=%v l=%d b=%d LEARN=%v", i, d.q[i], d.au[i], d.l[i], d.b[i], d.learn[i])
		}
	}
	if d.tStar != 0 || d.t != 0 {
		t.Fatalf("t* = %d, t = %d after reset; want 0, 0", d.tStar, d.t)
	}
	// A task can start from a given table; InitialQ overrides R_max/(1−γ).
	d.SetInitial([]float64{4, 3, 2, 1})
	if err := d.BeginTask(newTask(2, 2, 2, 0.5, 1)); err != nil {
		t.Fatal(err)
	}
	if got := d.Q(); got[0] != 4 || got[3] != 1 {
		t.Errorf("Q = %v, want the initial table", got)
	}
	q0 := 7.0
	d2, _ := NewDelayedQ(DelayedQParams{M: 1, Epsilon1: 0.1, RMax: 1, InitialQ: &q0})
	if err := d2.BeginTask(newTask(0, 1, 3, 0.9, 1)); err != nil {
		t.Fatal(err)
	}
	if d2.Q()[2] != 7 {
		t.Errorf("Q = %v, want 7 everywhere", d2.Q())
	}
}

func TestDelayedQGreedyRandomTies(t *testing.T) {
	d, _ := NewDelayedQ(DefaultDelayedQ())
	task := newTask(0, 1, 4, 0.9, 3)
	if err := d.BeginTask(task); err != nil {
		t.Fatal(err)
	}
	d.q[2] = -1 // action 2 is worse; 0, 1, 3 tie
	seen := map[int]int{}
	for k := 0; k < 3000; k++ {
		seen[d.Act(0)]++
	}
	if seen[2] != 0 || len(seen) != 3 {
		t.Fatalf("actions %v, want only 0, 1, 3", seen)
	}
	for _, a := range []int{0, 1, 3} {
		if seen[a] < 900 {
			t.Errorf("tie action %d chosen %d times of 3000, want about 1000", a, seen[a])
		}
	}
}

func TestNoAllocationsPerStep(t *testing.T) {
	goalA, goalB := gridModel(t, env.Cell{X: 4, Y: 4}), gridModel(t, env.Cell{X: 1, Y: 4})
	models := []*mdp.Model{goalA, goalB}
	ags := map[string]agent.Agent{}
	d, _ := NewDelayedQ(DefaultDelayedQ())
	ags["delayed-q"] = d
	for _, base := range []string{BaseQLearning, BaseDelayedQ, BaseRMax} {
		p := DefaultMaxQInit(base)
		p.Tasks = 2
		p.RMax.M = 5
		mq, err := NewMaxQInit(p, models, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		ags["maxqinit-"+base] = mq
	}
	abs, err := NewAbsRL(DefaultAbsRL(QStarEpsilon), models, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	ags["abs-rl"] = abs
	fp := DefaultFMRL()
	fp.T1, fp.RMax.M, fp.Ms = 2, 5, 1
	f, _ := NewFMRL(fp)
	ags["fmrl"] = f
	for name, ag := range ags {
		// Two tasks, so the transfer agents are in their second phase on the third.
		runSteps(t, ag, goalA, 0, 2000, 0.95, 1, nil)
		runSteps(t, ag, goalB, 1, 2000, 0.95, 2, nil)
		task := newTask(2, 16, 4, 0.95, 3)
		if err := ag.BeginTask(task); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(9, 9))
		s := 5
		step := func() {
			a := ag.Act(s)
			next, r := goalA.Step(s, a, rng)
			ag.Observe(s, a, r, next)
			s = next
		}
		for k := 0; k < 3000; k++ {
			step()
		}
		if allocs := testing.AllocsPerRun(1000, step); allocs != 0 {
			t.Errorf("%s: %v allocations per step, want 0", name, allocs)
		}
		ag.EndTask()
	}
}

func TestDelayedQBootstrapsNothingPastATerminalState(t *testing.T) {
	d, err := NewDelayedQ(DelayedQParams{M: 1, Epsilon1: 0.1, RMax: 1})
	if err != nil {
		t.Fatal(err)
	}
	tk := agent.Task{S: 2, A: 1, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: []bool{false, true}}
	if err := d.BeginTask(tk); err != nil {
		t.Fatal(err)
	}
	// Q starts at R_max/(1−γ) = 10. One sample into the terminal state with reward 0.5: the
	// attempted update sets Q to AU/m + ε1 = 0.5 + 0.1, with no γ·max Q(terminal, ·) added.
	d.Observe(0, 0, 0.5, 1)
	if q := d.Q()[0]; math.Abs(q-0.6) > 1e-12 {
		t.Fatalf("Q(0,0) = %v, want 0.6", q)
	}
}
