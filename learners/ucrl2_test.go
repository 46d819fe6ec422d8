package learners

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/mdp"
)

// The inner maximisation of extended value iteration on three states with V = (1, 2, 3), worked
// by hand: d/2 of mass moves to state 2 (the best) and leaves the lowest-valued successors first.
func TestUCRL2InnerMaximisationByHand(t *testing.T) {
	v := []float64{1, 2, 3}
	cases := []struct {
		name string
		next []int32
		prob []float64
		d    float64
		want float64
	}{
		// p̂ = (0.5, 0.3, 0.2), d = 0.4: p̃ = (0.3, 0.3, 0.4), 0.3·1 + 0.3·2 + 0.4·3 = 2.1.
		{"small width", []int32{0, 1, 2}, []float64{0.5, 0.3, 0.2}, 0.4, 2.1},
		// d = 1.2: 0.6 moves to state 2; it takes all of state 0's 0.5 and 0.1 of state 1's:
		// p̃ = (0, 0.2, 0.8), 0.2·2 + 0.8·3 = 2.8.
		{"two states drained", []int32{2, 0, 1}, []float64{0.2, 0.5, 0.3}, 1.2, 2.8},
		// d ≥ 2·(1 − p̂(2)) = 1.6: everything goes to state 2.
		{"all mass", []int32{1, 2, 0}, []float64{0.3, 0.2, 0.5}, 1.7, 3},
		// The best state unobserved: p̂ = (0.6, 0.4, 0), d = 0.5: p̃ = (0.35, 0.4, 0.25),
		// 0.35 + 0.8 + 0.75 = 1.9.
		{"best unobserved", []int32{1, 0}, []float64{0.4, 0.6}, 0.5, 1.9},
		// No sample: every distribution is plausible.
		{"no sample", nil, nil, 3, 3},
	}
	for _, c := range cases {
		got := optimisticNext(c.next, c.prob, c.d, 2, v)
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: Σ p̃·V = %v, want %v", c.name, got, c.want)
		}
		for k := 1; k < len(c.next); k++ {
			if v[c.next[k-1]] > v[c.next[k]] {
				t.Errorf("%s: successors %v not left sorted by value", c.name, c.next)
			}
		}
	}
}

// denseInnerMax is the inner maximisation as the paper writes it, dense in S: sort all
// states by V descending, put min(1, p̂(s₁) + d/2) on the best, then take the excess from the
// worst states.
func denseInnerMax(phat, v []float64, d float64) float64 {
	S := len(v)
	order := make([]int, S)
	for s := range order {
		order[s] = s
	}
	sort.SliceStable(order, func(a, b int) bool { return v[order[a]] > v[order[b]] })
	p := slices.Clone(phat)
	p[order[0]] = math.Min(1, phat[order[0]]+d/2)
	sum := 0.0
	for _, x := range p {
		sum += x
	}
	for l := S - 1; sum > 1 && l > 0; l-- {
		s := order[l]
		p[s] = math.Max(0, 1-(sum-p[s]))
		sum = 0
		for _, x := range p {
			sum += x
		}
	}
	x := 0.0
	for s := range p {
		x += p[s] * v[s]
	}
	return x
}

// The sparse inner maximisation agrees with the paper's dense one on random cases.
func TestUCRL2InnerMaximisationMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const S = 7
	for trial := 0; trial < 2000; trial++ {
		v := make([]float64, S)
		for s := range v {
			v[s] = rng.Float64()*10 - 3
		}
		phat := make([]float64, S)
		var next []int32
		var prob []float64
		total := 0.0
		for s := range phat {
			if rng.IntN(2) == 0 {
				phat[s] = rng.Float64()
				total += phat[s]
			}
		}
		if total == 0 {
			continue
		}
		for s := range phat {
			phat[s] /= total
			if phat[s] > 0 {
				next = append(next, int32(s))
				prob = append(prob, phat[s])
			}
		}
		d := rng.Float64() * 2.5
		want := denseInnerMax(phat, v, d)
		if got := optimisticNext(next, prob, d, mdp.ArgMax(v), v); math.Abs(got-want) > 1e-9 {
			t.Fatalf("p̂ = %v, V = %v, d = %v: sparse %v, dense %v", phat, v, d, got, want)
		}
	}
}

// The confidence widths and optimistic rewards at t_k, from the paper's equations (3) and (4).
func TestUCRL2ConfidenceSets(t *testing.T) {
	p := DefaultUCRL2()
	p.RMax = 2
	l := UCRL2{P: p}
	l.Begin(task(2, 1, 1))
	l.Record(0, 1, 0.4)
	l.Record(0, 1, 0.2)
	l.Record(0, 0, 0.3)
	// t_k = 4 (the next step), N = 3, r̂ = 0.3.
	width := l.build(&l.model, nil)
	wantW := math.Sqrt(14 * 2 * math.Log(2*1*4/0.05) / 3)
	wantR := 0.3 + 2*math.Sqrt(7*math.Log(2*2*1*4/0.05)/(2*3))
	if math.Abs(width[0]-wantW) > 1e-12 || math.Abs(l.model.R[0]-math.Min(2, wantR)) > 1e-12 {
		t.Errorf("pair 0: width %v, r̃ %v; want %v, %v", width[0], l.model.R[0], wantW, math.Min(2, wantR))
	}
	// The unvisited pair: N counted as 1, r̂ = 0, r̃ clipped at R_max.
	if want := math.Sqrt(14 * 2 * math.Log(2*1*4/0.05)); math.Abs(width[1]-want) > 1e-12 || l.model.R[1] != 2 {
		t.Errorf("pair 1: width %v, r̃ %v; want %v, 2", width[1], l.model.R[1], want)
	}
	// Counts added from a template enter N (C-UCRL): 97 more at reward 0.1 each shrink the width
	// to that of N = 100 and move r̂ to (0.9 + 9.7)/100.
	l.Augment(0, []mdp.Succ{{State: 1, N: 97}}, 9.7)
	width = l.build(&l.model, width)
	wantW = math.Sqrt(14 * 2 * math.Log(2*1*4/0.05) / 100)
	wantR = 0.106 + 2*math.Sqrt(7*math.Log(2*2*1*4/0.05)/(2*100))
	if math.Abs(width[0]-wantW) > 1e-12 || math.Abs(l.model.R[0]-wantR) > 1e-12 {
		t.Errorf("augmented pair 0: width %v, r̃ %v; want %v, %v", width[0], l.model.R[0], wantW, wantR)
	}
}

// width_scale multiplies both widths, by hand: at width_scale 0.25 the pair of
// TestUCRL2ConfidenceSets (t_k = 4, N = 3, r̂ = 0.3, R_max 2) has the L1 width
// 0.25·√(14·2·log(2·1·4/0.05)/3) = 0.25·√(28·5.075174/3) = 0.25·6.882462 = 1.720616 and the
// optimistic reward 0.3 + 0.25·2·√(7·log(2·2·1·4/0.05)/6) = 0.3 + 0.5·√(7·5.768321/6)
// = 0.3 + 0.5·2.594168 = 1.597084, below R_max.
func TestUCRL2WidthScale(t *testing.T) {
	p := DefaultUCRL2()
	p.RMax, p.WidthScale = 2, 0.25
	l := UCRL2{P: p}
	l.Begin(task(2, 1, 1))
	l.Record(0, 1, 0.4)
	l.Record(0, 1, 0.2)
	l.Record(0, 0, 0.3)
	width := l.build(&l.model, nil)
	if math.Abs(width[0]-1.720616) > 1e-6 || math.Abs(l.model.R[0]-1.597084) > 1e-6 {
		t.Errorf("width_scale 0.25: width %v, r̃ %v; want 1.720616, 1.597084", width[0], l.model.R[0])
	}
}

// riverSwimActions is the SHA-256 of the actions of base l in 20 000 steps of one continuing run
// on Strehl & Littman's RiverSwim (γ 0.95, the learner's and the environment's random numbers
// from fixed seeds), and the run's total reward.
func riverSwimActions(t *testing.T, l agent.Base) (string, float64) {
	t.Helper()
	m, _ := classic.RiverSwim()
	ag := agent.NewSingle(l)
	if err := ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	envRand := rand.New(rand.NewPCG(2, 2))
	h := sha256.New()
	s, total := m.SampleStart(envRand), 0.0
	for range 20000 {
		a := ag.Act(s)
		h.Write([]byte{byte(a)})
		next, r := m.Step(s, a, envRand)
		ag.Observe(s, a, r, next)
		s, total = next, total+r
	}
	return hex.EncodeToString(h.Sum(nil)), total
}

// width_scale 1 (the default) is the published widths bit for bit: UCRL2 takes, action for
// action, what it took before the key existed (the digest and reward computed by the code of
// commit 631699a), and so does C-UCRL with planning_width: ucrl2, temple's C-UCRL before issue 54.
func TestWidthScaleOneIsThePublishedWidths(t *testing.T) {
	pu := DefaultUCRL2()
	pu.RMax = 10000 // RiverSwim's rewards are 5 and 10 000
	u, err := NewUCRL2(pu)
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultCUCRL()
	p.RMax, p.PlanningWidth = 10000, UCRL2PlanningWidth
	c, err := NewCUCRL(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		name   string
		l      agent.Base
		digest string
		reward float64
	}{
		{"UCRL2", u, "e08aefd532a72acb15a40673114c3ce9029c619b66ec23dc2956d403e8cba9d5", 141120},
		{"C-UCRL, planning_width ucrl2", c, "891cf56147a100800dfb4d30bdfdbf77901816b8647b7ac2d4347fabd7d985e6", 1405360},
	} {
		if d, r := riverSwimActions(t, x.l); d != x.digest || r != x.reward {
			t.Errorf("%s: actions %s, reward %v; want %s, %v", x.name, d, r, x.digest, x.reward)
		}
	}
}

// The doubling rule: a new episode when ν_k(s,a) reaches max(1, N_k(s,a)). With one pair the
// episodes begin at steps 1, 2, 3, 5, 9, 17, 33: N_k = 0, 1, 2, 4, 8, 16.
func TestUCRL2DoublingRule(t *testing.T) {
	l := UCRL2{P: DefaultUCRL2()}
	l.Begin(task(1, 1, 1))
	var starts []int
	for step := 1; step <= 40; step++ {
		before := l.Stats().Plans()
		l.Act(0)
		if l.Stats().Plans() > before {
			starts = append(starts, step)
		}
		l.Record(0, 0, 0)
	}
	if want := []int{1, 2, 3, 5, 9, 17, 33}; !slices.Equal(starts, want) {
		t.Errorf("episodes began at steps %v, want %v", starts, want)
	}
	// Augmentation ends the episode: the next step plans with it.
	l.EndEpisode() // not UCRL2's episode
	before := l.Stats().Plans()
	l.Act(0)
	if l.Stats().Plans() != before {
		t.Fatal("the runner's episode ended UCRL2's")
	}
	l.Augment(0, []mdp.Succ{{State: 0, N: 5}}, 0)
	l.Act(0)
	if l.Stats().Plans() != before+1 || l.nk[0] != 45 {
		t.Errorf("after Augment: plans %d, N_k %d; want %d, 45", l.Stats().Plans(), l.nk[0], before+1)
	}
}

// A terminal state is planned at value 0; a well-sampled pair into it is planned at its
// optimistic reward plus the optimistic d/2 of mass moved back onto itself, the best state.
func TestUCRL2PlansTerminalStatesAtZero(t *testing.T) {
	p := DefaultUCRL2()
	l := UCRL2{P: p}
	tk := task(2, 1, 1)
	tk.Terminal = []bool{false, true}
	l.Begin(tk)
	l.Augment(0, []mdp.Succ{{State: 1, N: 1_000_000}}, 500_000) // r̂ = 0.5
	l.Record(0, 1, 0.5)
	l.Act(0)
	n, tK := 1_000_001.0, 2.0
	d := math.Sqrt(14 * 2 * math.Log(2*tK/p.Delta) / n)
	r := 0.5 + math.Sqrt(7*math.Log(2*2*tK/p.Delta)/(2*n))
	// V(0) = r̃ + γ·(d/2·V(0) + (1 − d/2)·0)
	want := r / (1 - 0.9*d/2)
	if q := l.q; math.Abs(q[0]-want) > 1e-3 || q[1] != 0 {
		t.Errorf("Q(0,0) = %v, Q(1,0) = %v; want %v and 0", q[0], q[1], want)
	}
}

func TestUCRL2Validate(t *testing.T) {
	if err := DefaultUCRL2().Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		change func(*UCRL2Params)
		want   string
	}{
		{func(p *UCRL2Params) { p.Delta = 1.5 }, "ucrl2: delta = 1.5, want 0 < delta < 1"},
		{func(p *UCRL2Params) { p.Delta = 0 }, "ucrl2: delta = 0, want 0 < delta < 1"},
		{func(p *UCRL2Params) { p.Delta = math.NaN() }, "ucrl2: delta = NaN"},
		{func(p *UCRL2Params) { p.RMax = 0 }, "ucrl2: r_max = 0"},
		{func(p *UCRL2Params) { p.RMax = math.Inf(1) }, "ucrl2: r_max = +Inf"},
		{func(p *UCRL2Params) { p.M = 0 }, "ucrl2: m = 0"},
		{func(p *UCRL2Params) { p.PlanTolerance = -1 }, "ucrl2: plan_tolerance = -1"},
	}
	for _, c := range cases {
		p := DefaultUCRL2()
		c.change(&p)
		_, err := NewUCRL2(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

// conservation drives a base with own samples, augmentation and replacement and checks that
// n(s,a) is the sum of its successor counts, R(s,a) the sum of its rewards, and Samples the own
// samples recorded.
func conservation(t *testing.T, b agent.Base) {
	t.Helper()
	const S, A = 4, 2
	b.Begin(task(S, A, 9))
	rng := rand.New(rand.NewPCG(9, 9))
	n := make([]int64, S*A)
	r := make([]float64, S*A)
	var own int64
	for step := 0; step < 8000; step++ {
		i, next := rng.IntN(S*A), rng.IntN(S)
		switch k := rng.IntN(1000); {
		case k < 10:
			k := int64(1 + rng.IntN(5))
			b.Augment(i, []mdp.Succ{{State: int32(next), N: k}, {State: int32((next + 1) % S)}}, 0.25)
			n[i] += k
			r[i] += 0.25
		case k == 10:
			b.(agent.Replacer).Replace(i, []mdp.Succ{{State: int32(next), N: 3}}, 1.5)
			n[i], r[i] = 3, 1.5
		default:
			b.Act(i / A)
			if !b.Record(i, next, 0.5) {
				t.Fatal("a sample was not kept")
			}
			own++
			n[i]++
			r[i] += 0.5
		}
	}
	c := b.Stats().Counts()
	known := 0
	for i := range n {
		sum := int64(0)
		for _, x := range c.Successors(i) {
			sum += x.N
		}
		if c.N(i) != n[i] || sum != n[i] || math.Abs(c.R(i)-r[i]) > 1e-9 {
			t.Errorf("pair %d: n = %d, Σ n(s′) = %d, R = %v; want %d, %d, %v", i, c.N(i), sum, c.R(i), n[i], n[i], r[i])
		}
		if want := n[i] >= 500; b.Stats().Known(i) != want {
			t.Errorf("pair %d: known = %v with n = %d, want %v", i, b.Stats().Known(i), n[i], want)
		}
		if b.Stats().Known(i) {
			known++
		}
	}
	if known != b.Stats().KnownPairs() || known == 0 || known == S*A {
		t.Errorf("known pairs = %d, counted %d; want a count strictly between 0 and %d to test both", b.Stats().KnownPairs(), known, S*A)
	}
	if b.Stats().Samples() != own {
		t.Errorf("samples = %d, want %d", b.Stats().Samples(), own)
	}
}

func TestUCRL2CountConservation(t *testing.T) { conservation(t, &UCRL2{P: DefaultUCRL2()}) }

// actions runs ag on the maze for a few episodes and returns its actions.
func actions(t *testing.T, ag agent.Agent, seed uint64) []int {
	t.Helper()
	m := line(t)
	rng := rand.New(rand.NewPCG(seed, 2))
	if err := ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(seed, 3))}); err != nil {
		t.Fatal(err)
	}
	var out []int
	for e := 0; e < 50; e++ {
		s := 0
		for k := 0; k < 10; k++ {
			a := ag.Act(s)
			out = append(out, a)
			next, r := m.Step(s, a, rng)
			ag.Observe(s, a, r, next)
			s = next
		}
		ag.EndEpisode()
	}
	return out
}

func TestUCRL2DeterministicForASeed(t *testing.T) {
	a, _ := NewUCRL2(DefaultUCRL2())
	b, _ := NewUCRL2(DefaultUCRL2())
	if x, y := actions(t, agent.NewSingle(a), 4), actions(t, agent.NewSingle(b), 4); !slices.Equal(x, y) {
		t.Error("two runs with the same seed acted differently")
	}
}

// Policy gives the plan the next Act will make, without making it.
func TestUCRL2PolicyHasNoSideEffects(t *testing.T) {
	l := &UCRL2{P: DefaultUCRL2()}
	l.Begin(task(3, 2, 1))
	dst := make([]float64, 2)
	for step := 0; step < 200; step++ {
		s := step % 3
		plans, version := l.Stats().Plans(), l.PolicyVersion()
		l.Policy(s, dst)
		if l.Stats().Plans() != plans || l.PolicyVersion() != version {
			t.Fatal("Policy planned")
		}
		a := l.Act(s)
		if dst[a] == 0 {
			t.Fatalf("step %d: Act took %d, which Policy gave probability 0 (%v)", step, a, dst)
		}
		after := make([]float64, 2)
		l.Policy(s, after)
		if !slices.Equal(dst, after) {
			t.Fatalf("step %d: Policy gave %v before the plan and %v after it", step, dst, after)
		}
		l.Record(s*2+a, (s+a)%3, float64(a)*0.3)
	}
}

// Policy after an Augment that comes when the episode has already ended (as O-TempLe's do after
// the sample that ended it) is the plan the next Act makes with the added counts, not the plan
// made on the side before them.
func TestUCRL2PolicyAfterAugmentOfAnEndedEpisode(t *testing.T) {
	l := &UCRL2{P: DefaultUCRL2()}
	l.Begin(task(3, 2, 1))
	before, after, acted := make([]float64, 2), make([]float64, 2), make([]float64, 2)
	l.Policy(0, before) // the episode has not begun: a plan on the side, both actions untried
	if before[0] != before[1] {
		t.Fatalf("untried actions: %v, want a tie", before)
	}
	// Many samples of (0, 0) to state 0 with reward 0: its optimistic value falls below the
	// untried action 1's.
	l.Augment(0, []mdp.Succ{{State: 0, N: 5000}}, 0)
	l.Policy(0, after)
	l.Act(0)
	l.Policy(0, acted)
	if !slices.Equal(after, acted) || after[1] != 1 {
		t.Fatalf("Policy after the Augment %v, after the plan Act made %v; want action 1 surely", after, acted)
	}
}
