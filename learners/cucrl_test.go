package learners

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// newCUCRL is a C-UCRL learner begun on a task of S states and A actions.
func newCUCRL(t *testing.T, p CUCRLParams, S, A int) *UCRL2 {
	t.Helper()
	l, err := NewCUCRL(p)
	if err != nil {
		t.Fatal(err)
	}
	l.Begin(task(S, A, 1))
	return l
}

// row is pair i's successors in the model m, as a map state → probability.
func row(m *mdp.Sparse, i int) map[int32]float64 {
	out := map[int32]float64{}
	for k := m.Start[i]; k < m.Start[i+1]; k++ {
		out[m.Next[k]] = m.Prob[k]
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

// Two pairs whose distributions are permutations of each other, (s′1: 0.75, s′2: 0.25) and
// (s′2: 0.75, s′0: 0.25), share a class and pool: P_c = (300 + 600, 100 + 200), n_c = 1200, and
// each pair gets (0.75, 0.25) through its own mapping with the paper's width at n = 1200
// (TestCUCRLPlanningWidths has it by hand).
func TestCUCRLPoolsPermutedPairs(t *testing.T) {
	l := newCUCRL(t, DefaultCUCRL(), 3, 1)
	l.Augment(0, []mdp.Succ{{State: 1, N: 300}, {State: 2, N: 100}}, 0)
	l.Augment(1, []mdp.Succ{{State: 2, N: 600}, {State: 0, N: 200}}, 0)
	var m mdp.Sparse
	width := l.build(&m, nil)
	e := l.pool
	if e.class[0] != e.class[1] || e.class[2] != -1 {
		t.Fatalf("classes %v, want pairs 0 and 1 together and the unvisited pair 2 alone", e.class)
	}
	if c := e.class[0]; e.nc[c] != 1200 || !slices.Equal(e.pooled[c], []int64{900, 300}) {
		t.Errorf("pooled n_c = %d, P_c = %v; want 1200, [900 300]", e.nc[c], e.pooled[c])
	}
	for i, want := range []map[int32]float64{{1: 0.75, 2: 0.25}, {2: 0.75, 0: 0.25}} {
		got := row(&m, i)
		if len(got) != len(want) {
			t.Errorf("pair %d: row %v, want %v", i, got, want)
		}
		for s, p := range want {
			if !near(got[s], p) {
				t.Errorf("pair %d: p̃(%d) = %v, want %v", i, s, got[s], p)
			}
		}
		if e.free[i] != 0 {
			t.Errorf("pair %d: free mass %v, want 0", i, e.free[i])
		}
		if w := e.paperWidth(1200); !near(width[i], w) {
			t.Errorf("pair %d: width %v, want %v (n_c = 1200)", i, width[i], w)
		}
	}
}

// The planning widths by hand, on TestCUCRLPoolsPermutedPairs's class (S = 3, A = 1, δ = 0.05,
// n_c = 1200, t_k = 1: augmented counts are not own samples), and on RiverSwim-6's sizes.
//
// The paper's W_n(δ/(3SA)) = √(2(1 + 1/n)·log(√(n+1)·(2^S − 2)·3SA/δ)/n): with 2^S − 2 = 6 and
// 3SA/δ = 180, log(6·180) = log 1080 = 6.984716 and ½·log 1201 = 3.545455, so
// W = √(2·(1 + 1/1200)·10.530171/1200) = √0.0175649 = 0.1325327.
// UCRL2's √(14·S·log(2·A·t_k/δ)/n_c) = √(42·log 40/1200) = √(42·3.688879/1200) = 0.3593199.
// width_scale 0.5 halves either.
//
// RiverSwim-6 (S = 6, A = 2, δ = 0.05) at n = 1000: log(62·36/0.05) = log 44640 = 10.706386 and
// ½·log 1001 = 3.454377, so W = √(2·1.001·14.160763/1000) = 0.1683741; UCRL2's at t = 100 000,
// √(84·log(8·10⁶)/1000) = √(84·15.894952/1000) = 1.1554982, 6.86 times wider (issue 54's "about
// 7×").
func TestCUCRLPlanningWidths(t *testing.T) {
	for _, c := range []struct {
		width PlanningWidth
		scale float64
		want  float64
	}{
		{PaperPlanningWidth, 1, 0.1325327},
		{UCRL2PlanningWidth, 1, 0.3593199},
		{PaperPlanningWidth, 0.5, 0.1325327 / 2},
		{UCRL2PlanningWidth, 0.5, 0.3593199 / 2},
	} {
		p := DefaultCUCRL()
		p.PlanningWidth, p.WidthScale = c.width, c.scale
		l := newCUCRL(t, p, 3, 1)
		l.Augment(0, []mdp.Succ{{State: 1, N: 300}, {State: 2, N: 100}}, 0)
		l.Augment(1, []mdp.Succ{{State: 2, N: 600}, {State: 0, N: 200}}, 0)
		var m mdp.Sparse
		width := l.build(&m, nil)
		for i := range 2 {
			if math.Abs(width[i]-c.want) > 1e-7 {
				t.Errorf("planning_width %s, width_scale %v: pair %d's width %v, want %v", c.width, c.scale, i, width[i], c.want)
			}
		}
	}
	if got := DefaultCUCRL().PlanningWidth; got != PaperPlanningWidth {
		t.Errorf("default planning_width %q, want the paper's", got)
	}
	l := newCUCRL(t, DefaultCUCRL(), 6, 2)
	l.build(&mdp.Sparse{}, nil)
	if got := l.pool.paperWidth(1000); math.Abs(got-0.1683741) > 1e-7 {
		t.Errorf("RiverSwim-6: W_1000(δ/(3SA)) = %v, want 0.1683741", got)
	}
	if got := math.Sqrt(14 * 6 * math.Log(2*2*1e5/0.05) / 1000); math.Abs(got-1.1554982) > 1e-7 {
		t.Errorf("RiverSwim-6: UCRL2's width at n = 1000, t = 100 000: %v, want 1.1554982", got)
	}
}

// The paper's width on S = 4 states, A = 1, δ = 0.05: ε(n) = √(2(1 + 1/n)·(½·log(n+1) + log(14·240))/n),
// so 2ε(82) = 1.00995 and 2ε(84) = 0.99829. A deterministic pair and a (½, ½) pair are at L1
// distance 1: with 82 samples each the test cannot tell them apart and they join (their union
// (123, 41)/164 is within ε(82) + ε(164) of both, 0.5 ≤ 0.505 + 0.36); with 84 each they stay
// apart. Pairs equivalent up to a permutation, (s′1: 30, s′2: 10) and (s′2: 28, s′0: 12) — profiles
// (0.75, 0.25) and (0.7, 0.3), distance 0.1 — join at these counts.
func TestCUCRLApproxEquivalenceSeparatesAtThePapersWidth(t *testing.T) {
	e := &equivalence{CUCRLParams: DefaultCUCRL()}
	e.logW = math.Log(3*4*1/0.05) + math.Log(14)
	if got := 2 * e.clusterWidth(82); math.Abs(got-1.00995) > 1e-5 {
		t.Fatalf("2ε(82) = %v, want 1.00995", got)
	}
	if got := 2 * e.clusterWidth(84); math.Abs(got-0.99829) > 1e-5 {
		t.Fatalf("2ε(84) = %v, want 0.99829", got)
	}
	for _, c := range []struct {
		n    int64
		want []int32
	}{{82, []int32{0, 0, -1, -1}}, {84, []int32{0, 1, -1, -1}}} {
		l := newCUCRL(t, DefaultCUCRL(), 4, 1)
		l.Augment(0, []mdp.Succ{{State: 3, N: c.n}}, 0)
		l.Augment(1, []mdp.Succ{{State: 0, N: c.n / 2}, {State: 2, N: c.n / 2}}, 0)
		var m mdp.Sparse
		l.build(&m, nil)
		if !slices.Equal(l.pool.class, c.want) {
			t.Errorf("%d samples each: classes %v, want %v", c.n, l.pool.class, c.want)
		}
	}
	l := newCUCRL(t, DefaultCUCRL(), 3, 2)
	l.Augment(0, []mdp.Succ{{State: 1, N: 30}, {State: 2, N: 10}}, 0)
	l.Augment(3, []mdp.Succ{{State: 2, N: 28}, {State: 0, N: 12}}, 0)
	var m mdp.Sparse
	l.build(&m, nil)
	if want := []int32{0, -1, -1, 0, -1, -1}; !slices.Equal(l.pool.class, want) {
		t.Errorf("permuted pairs: classes %v, want %v", l.pool.class, want)
	}
	if got := row(&m, 3); !near(got[2], 58.0/80) || !near(got[0], 22.0/80) {
		t.Errorf("pair 3 pooled: row %v, want {2: 58/80, 0: 22/80}", got)
	}
}

// The paper's α: with α = 4, equal profiles merge only when their samples per pair are within a
// factor 4 of each other — 100 and 400 samples join, 100 and 500 do not; with no limit (the
// default) they join.
func TestCUCRLAlphaLimitsMerges(t *testing.T) {
	for _, c := range []struct {
		alpha float64
		big   int64
		want  []int32
	}{{4, 400, []int32{1, 1}}, {4, 500, []int32{0, 1}}, {0, 500, []int32{1, 1}}} {
		p := DefaultCUCRL()
		p.Alpha = c.alpha
		l := newCUCRL(t, p, 2, 1)
		l.Augment(0, []mdp.Succ{{State: 0, N: 100}}, 0)
		l.Augment(1, []mdp.Succ{{State: 1, N: c.big}}, 0)
		var m mdp.Sparse
		l.build(&m, nil)
		if !slices.Equal(l.pool.class, c.want) {
			t.Errorf("α = %v, 100 and %d samples: classes %v, want %v", c.alpha, c.big, l.pool.class, c.want)
		}
	}
}

// ApproxEquivalence by hand with the width 1/√n (inverse-sqrt), on three pairs:
// A = (1) and B = (½, ½) with 100 samples each (width 0.1) and C = (0.75, 0.25) with 4 (width
// 0.5). Round 1 takes A first: B is at distance 1 > 0.2; C at 0.5 ≤ 0.6, and the union
// (103, 1)/104 is within reach of both (A: 0.019 ≤ 0.1 + 0.098; C: 0.481 ≤ 0.5 + 0.098), so A
// takes C. B is at 0.981 > 0.198 from {A, C}; C is merged away and ends the round. Round 2
// merges nothing: classes {A, C} and {B}. C, whose profile is exactly between them, joins the
// nearer class by the order of the rounds.
func TestCUCRLApproxEquivalenceByHand(t *testing.T) {
	p := DefaultCUCRL()
	p.Width = InverseSqrtWidth
	l := newCUCRL(t, p, 4, 1)
	l.Augment(0, []mdp.Succ{{State: 1, N: 100}}, 0)
	l.Augment(1, []mdp.Succ{{State: 0, N: 50}, {State: 2, N: 50}}, 0)
	l.Augment(2, []mdp.Succ{{State: 3, N: 3}, {State: 1, N: 1}}, 0)
	var m mdp.Sparse
	l.build(&m, nil)
	if want := []int32{0, 1, 0, -1}; !slices.Equal(l.pool.class, want) {
		t.Errorf("classes %v, want %v", l.pool.class, want)
	}
	if e := l.pool; e.nc[0] != 104 || !slices.Equal(e.pooled[0], []int64{103, 1}) {
		t.Errorf("class of A: n_c = %d, P_c = %v; want 104, [103 1]", e.nc[0], e.pooled[0])
	}
}

// A pair that has seen fewer outcomes than its class: pair 0 saw only state 1 (6 samples,
// ε(6) = 1.88) and joins pair 2's class (no α limit), whose profile is
// (0.5, 0.5) over 1000 samples. Pooled: P_c = (506, 500), n_c = 1006; pair 0 puts 506/1006 on
// state 1 and leaves 500/1006 free, to go to the best state in planning.
func TestCUCRLUnseenRanksAreFree(t *testing.T) {
	l := newCUCRL(t, DefaultCUCRL(), 4, 1)
	l.Augment(0, []mdp.Succ{{State: 1, N: 6}}, 0)
	l.Augment(2, []mdp.Succ{{State: 0, N: 500}, {State: 3, N: 500}}, 0)
	var m mdp.Sparse
	l.build(&m, nil)
	if got := row(&m, 0); len(got) != 1 || !near(got[1], 506.0/1006) {
		t.Errorf("pair 0: row %v, want {1: 506/1006}", got)
	}
	if !near(l.pool.free[0], 500.0/1006) {
		t.Errorf("pair 0: free %v, want 500/1006", l.pool.free[0])
	}
}

// The inner maximisation with free mass, by hand: V = (1, 2, 3), p̂ = (0.3, 0.2, ·) with 0.5 free
// and d = 0.4. The free 0.5 goes to state 2, then 0.2 more from state 0: p̃ = (0.1, 0.2, 0.7),
// 0.1 + 0.4 + 2.1 = 2.6. With no free mass it is optimisticNext.
func TestCUCRLInnerMaximisationWithFreeMass(t *testing.T) {
	v := []float64{1, 2, 3}
	if got := optimisticNextFree([]int32{1, 0}, []float64{0.2, 0.3}, 0.5, 0.4, 2, v); !near(got, 2.6) {
		t.Errorf("Σ p̃·V = %v, want 2.6", got)
	}
	// d larger than the mass left: everything ends on state 2.
	if got := optimisticNextFree([]int32{1, 0}, []float64{0.2, 0.3}, 0.5, 3, 2, v); !near(got, 3) {
		t.Errorf("Σ p̃·V = %v, want 3", got)
	}
	next, prob := []int32{2, 0, 1}, []float64{0.2, 0.5, 0.3}
	want := optimisticNext(slices.Clone(next), slices.Clone(prob), 1.2, 2, v)
	if got := optimisticNextFree(next, prob, 0, 1.2, 2, v); got != want {
		t.Errorf("free = 0: %v, want optimisticNext's %v", got, want)
	}
}

// When every class has one pair (profiles far apart, ε = 0), C-UCRL planning with UCRL2's width
// plans as UCRL2.
func TestCUCRLSingletonClassesAreUCRL2(t *testing.T) {
	const S, A = 3, 2
	u := &UCRL2{P: DefaultUCRL2()}
	u.Begin(task(S, A, 1))
	p := DefaultCUCRL()
	p.PlanningWidth = UCRL2PlanningWidth
	c := newCUCRL(t, p, S, A)
	profiles := [][]mdp.Succ{
		{{State: 0, N: 5000}},
		{{State: 1, N: 2500}, {State: 2, N: 2500}},
		{{State: 0, N: 1000}, {State: 1, N: 2000}, {State: 2, N: 2000}},
		{{State: 2, N: 4000}, {State: 0, N: 1000}},
		{{State: 1, N: 3000}, {State: 2, N: 1500}, {State: 0, N: 500}},
	}
	for i, p := range profiles {
		u.Augment(i, p, float64(i)*100)
		c.Augment(i, p, float64(i)*100)
	}
	u.Act(0)
	c.Act(0)
	for i := range profiles {
		if c.pool.class[i] != int32(i) {
			t.Fatalf("classes %v, want %d singletons", c.pool.class, len(profiles))
		}
	}
	for i := range u.q {
		if math.Abs(u.q[i]-c.q[i]) > 1e-9 {
			t.Errorf("Q(%d) = %v, UCRL2's %v", i, c.q[i], u.q[i])
		}
	}
}

// Invariants on random counts: every visited pair's placed and free mass sum to 1, and every two
// pairs of a class passed the test of ApproxEquivalence against each other.
func TestCUCRLInvariants(t *testing.T) {
	const S, A = 6, 3
	rng := rand.New(rand.NewPCG(3, 3))
	l := newCUCRL(t, DefaultCUCRL(), S, A)
	var m mdp.Sparse
	for round := 0; round < 50; round++ {
		i := rng.IntN(S * A)
		k := int64(1 + rng.IntN(400))
		l.Augment(i, []mdp.Succ{{State: int32(rng.IntN(S)), N: k}, {State: int32(rng.IntN(S)), N: k / 3}}, 0)
		width := l.build(&m, nil)
		e := l.pool
		for i := 0; i < S*A; i++ {
			if width[i] < 0 {
				t.Fatalf("pair %d: width %v", i, width[i])
			}
			c := e.class[i]
			if c < 0 {
				continue
			}
			sum := e.free[i]
			for _, p := range row(&m, i) {
				sum += p
			}
			if !near(sum, 1) {
				t.Fatalf("round %d, pair %d: placed + free = %v", round, i, sum)
			}
			for j := 0; j < S*A; j++ {
				if e.class[j] != c {
					continue
				}
				ni, nj := l.stats.Counts().N(i), l.stats.Counts().N(j)
				bound := e.clusterWidth(ni) + e.clusterWidth(nj)
				if d := l1(e.share(int32(i)), e.share(int32(j))); d > bound {
					t.Fatalf("round %d: pairs %d and %d in class %d at distance %v > %v", round, i, j, c, d, bound)
				}
			}
		}
	}
}

func TestCUCRLCountConservation(t *testing.T) {
	conservation(t, &UCRL2{P: DefaultUCRL2(), pool: &equivalence{CUCRLParams: DefaultCUCRL()}})
}

func TestCUCRLDeterministicForASeed(t *testing.T) {
	a, _ := NewCUCRL(DefaultCUCRL())
	b, _ := NewCUCRL(DefaultCUCRL())
	if x, y := actions(t, agent.NewSingle(a), 4), actions(t, agent.NewSingle(b), 4); !slices.Equal(x, y) {
		t.Error("two runs with the same seed acted differently")
	}
}

func TestCUCRLValidate(t *testing.T) {
	p := DefaultCUCRL()
	p.Epsilon = -1
	if _, err := NewCUCRL(p); err == nil {
		t.Error("epsilon = -1 accepted")
	}
	p = DefaultCUCRL()
	p.Delta = 2
	if _, err := NewCUCRL(p); err == nil {
		t.Error("delta = 2 accepted")
	}
	p = DefaultCUCRL()
	p.Alpha = 1
	if _, err := NewCUCRL(p); err == nil || err.Error() != "c-ucrl: alpha = 1, want 0 (no limit) or a finite number > 1" {
		t.Errorf("alpha = 1: error %v", err)
	}
	p = DefaultCUCRL()
	p.Width = "wide"
	if _, err := NewCUCRL(p); err == nil || err.Error() != `c-ucrl: width "wide", want "paper" or "inverse-sqrt"` {
		t.Errorf("width wide: error %v", err)
	}
	p = DefaultCUCRL()
	p.PlanningWidth = "narrow"
	if _, err := NewCUCRL(p); err == nil || err.Error() != `c-ucrl: planning_width "narrow", want "paper" or "ucrl2"` {
		t.Errorf("planning_width narrow: error %v", err)
	}
	p = DefaultCUCRL()
	p.WidthScale = 0
	if _, err := NewCUCRL(p); err == nil || err.Error() != "c-ucrl: ucrl2: width_scale = 0, want a finite number > 0" {
		t.Errorf("width_scale 0: error %v", err)
	}
	p = DefaultCUCRL()
	p.Recluster = "sometimes"
	if _, err := NewCUCRL(p); err == nil || err.Error() != `c-ucrl: recluster "sometimes", want "every-episode" or "doubling"` {
		t.Errorf("recluster sometimes: error %v", err)
	}
}

// BenchmarkCUCRLMaze4x4 is C-UCRL on whole 4×4 maze tasks, beside BenchmarkRMaxMaze4x4 and
// BenchmarkUCRL2Maze4x4: its clustering at every episode's start is the cost it adds to UCRL2.
func BenchmarkCUCRLMaze4x4(b *testing.B) {
	ag, err := NewCUCRL(DefaultCUCRL())
	if err != nil {
		b.Fatal(err)
	}
	benchTasks(b, agent.NewSingle(ag))
}

// afresh is ApproxEquivalence transcribed plainly from the paper's pseudo-code, with clusters as
// values and Near as one scan that tests plausibility in order of d: the ground truth for the
// learner's clustering. It returns each pair's class (−1: unclustered), given the pairs' profiles
// from e.sortProfiles.
func afresh(l *UCRL2, e *equivalence) []int32 {
	type cluster struct {
		name    int32
		members []int32
		pooled  []int64
		n       int64
	}
	share := func(c *cluster) []float64 {
		out := make([]float64, len(c.pooled))
		for k, v := range c.pooled {
			out[k] = float64(v) / float64(c.n)
		}
		return out
	}
	close := func(a []float64, na int64, b []float64, nb int64) (float64, bool) {
		d := l1(a, b) - (e.Epsilon + e.clusterWidth(na) + e.clusterWidth(nb))
		return d, d <= 0
	}
	var live []*cluster
	for i := range int32(l.S * l.A) {
		if n := l.stats.Counts().N(int(i)); n > 0 && (l.terminal == nil || !l.terminal[int(i)/l.A]) {
			live = append(live, &cluster{i, []int32{i}, slices.Clone(e.profile(i)), n})
		}
	}
	plausible := func(c, x *cluster) bool {
		for _, a := range c.members {
			for _, b := range x.members {
				if _, ok := close(e.share(a), l.stats.Counts().N(int(a)), e.share(b), l.stats.Counts().N(int(b))); !ok {
					return false
				}
			}
		}
		u := &cluster{pooled: addRanks(slices.Clone(c.pooled), x.pooled), n: c.n + x.n}
		for _, a := range append(slices.Clone(c.members), x.members...) {
			if _, ok := close(e.share(a), l.stats.Counts().N(int(a)), share(u), u.n); !ok {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		slices.SortStableFunc(live, func(a, b *cluster) int {
			if a.n != b.n {
				return int(b.n - a.n)
			}
			return int(a.name - b.name)
		})
		for _, c := range live {
			if c.n == 0 {
				break
			}
			var best *cluster
			bestD := 0.0
			for _, x := range live {
				if x == c || x.n == 0 {
					continue
				}
				d, ok := close(share(c), c.n, share(x), x.n)
				if ok && (best == nil || d < bestD || d == bestD && x.name < best.name) && plausible(c, x) {
					best, bestD = x, d
				}
			}
			if best == nil {
				continue
			}
			ratio := float64(c.n) / float64(len(c.members)) / (float64(best.n) / float64(len(best.members)))
			if e.Alpha != 0 && (ratio < 1/e.Alpha || ratio > e.Alpha) {
				continue
			}
			c.pooled, c.n = addRanks(c.pooled, best.pooled), c.n+best.n
			c.members = append(c.members, best.members...)
			best.n, best.members = 0, nil
			changed = true
		}
		live = slices.DeleteFunc(live, func(c *cluster) bool { return c.n == 0 })
	}
	class := make([]int32, l.S*l.A)
	for i := range class {
		class[i] = -1
	}
	for _, c := range live {
		for _, i := range c.members {
			class[i] = c.name
		}
	}
	return class
}

// The learner's clustering is the pseudo-code's (afresh), for both widths, with and without α
// and ε, as the counts of pairs drawn from a few permuted templates grow sample by sample.
func TestCUCRLClusteringIsThePseudoCode(t *testing.T) {
	const S, A = 7, 3
	templates := [][]float64{{0.7, 0.2, 0.1}, {0.5, 0.5}, {0.9, 0.1}, {1}}
	for _, width := range []ClusterWidth{PaperWidth, InverseSqrtWidth} {
		for _, alpha := range []float64{0, 4} {
			for _, eps := range []float64{0, 0.05} {
				p := DefaultCUCRL()
				p.Width, p.Alpha, p.Epsilon = width, alpha, eps
				l := newCUCRL(t, p, S, A)
				rng := rand.New(rand.NewPCG(7, uint64(len(width))))
				perm := make([][]int, S*A)
				kind := make([]int, S*A)
				for i := range perm {
					perm[i], kind[i] = rng.Perm(S), rng.IntN(len(templates))
				}
				var m mdp.Sparse
				merged := false
				for step := 0; step < 3000; step++ {
					i := rng.IntN(S * A)
					u, k := rng.Float64(), 0
					for k < len(templates[kind[i]])-1 && u > templates[kind[i]][k] {
						u -= templates[kind[i]][k]
						k++
					}
					l.Augment(i, []mdp.Succ{{State: int32(perm[i][k]), N: 1}}, 0)
					if step%10 != 0 {
						continue
					}
					l.build(&m, nil)
					want := afresh(l, l.pool)
					if !slices.Equal(l.pool.class, want) {
						t.Fatalf("width %s, α %v, ε %v, step %d: classes %v, asked afresh %v", width, alpha, eps, step, l.pool.class, want)
					}
					merged = merged || slices.ContainsFunc(l.pool.members, func(m []int32) bool { return len(m) > 2 })
				}
				if !merged {
					t.Errorf("width %s, α %v, ε %v: no class of more than two pairs; the test checks too little", width, alpha, eps)
				}
			}
		}
	}
}

// With recluster: doubling, an episode's plan clusters (as the paper's pseudo-code, afresh) only
// when t_k has doubled since the last clustering; in between it pools the kept partition from the
// current counts, a pair visited since then being a class of its own.
func TestCUCRLReclusterDoubling(t *testing.T) {
	const S, A = 7, 3
	templates := [][]float64{{0.7, 0.3}, {0.5, 0.5}, {1}}
	p := DefaultCUCRL()
	p.Recluster = ReclusterDoubling
	l := newCUCRL(t, p, S, A)
	e := l.pool
	rng := rand.New(rand.NewPCG(11, 1))
	perm, kind := make([][]int, S*A), make([]int, S*A)
	for i := range perm {
		perm[i], kind[i] = rng.Perm(S), rng.IntN(len(templates))
	}
	var kept []int32
	var keptAt float64
	clusterings, plans := 0, l.Stats().Plans()
	pooledClasses, newSingletons := 0, 0 // how often the pooling in between met either case
	for step := 0; step < 4000; step++ {
		s := rng.IntN(S)
		a := l.Act(s)
		if l.Stats().Plans() != plans { // an episode began at this step: check its plan
			plans = l.Stats().Plans()
			tk := float64(l.stats.Samples() + 1)
			if want := keptAt == 0 || tk >= 2*keptAt; e.clustered != want {
				t.Fatalf("t_k %v, last clustering at %v: clustered %v", tk, keptAt, e.clustered)
			}
			if e.clustered {
				clusterings++
				kept, keptAt = afresh(l, e), tk
				if !slices.Equal(e.class, kept) {
					t.Fatalf("t_k %v: classes %v, the pseudo-code's %v", tk, e.class, kept)
				}
			} else {
				nc, pooled := map[int32]int64{}, map[int32][]int64{}
				for i := range int32(S * A) {
					want := kept[i]
					if l.stats.Counts().N(int(i)) == 0 {
						want = -1
					} else if want < 0 {
						want = i
						newSingletons++
					}
					if e.class[i] != want {
						t.Fatalf("t_k %v: pair %d in class %d, want %d", tk, i, e.class[i], want)
					}
					if want >= 0 {
						nc[want] += l.stats.Counts().N(int(i))
						pooled[want] = addRanks(pooled[want], e.profile(i))
					}
				}
				for c, n := range nc {
					if n > l.stats.Counts().N(int(c)) {
						pooledClasses++ // a class of more than one pair
					}
					if e.nc[c] != n || !slices.Equal(e.pooled[c], pooled[c]) {
						t.Fatalf("t_k %v: class %d pools %d %v, want %d %v", tk, c, e.nc[c], e.pooled[c], n, pooled[c])
					}
				}
			}
		}
		i := s*A + a
		u, k := rng.Float64(), 0
		for k < len(templates[kind[i]])-1 && u > templates[kind[i]][k] {
			u -= templates[kind[i]][k]
			k++
		}
		l.Record(i, perm[i][k], 0)
	}
	if most := int(math.Log2(4000)) + 2; clusterings > most || clusterings < 5 {
		t.Errorf("%d clusterings in 4000 steps, want about log2(4000)", clusterings)
	}
	if pooledClasses == 0 || newSingletons == 0 {
		t.Errorf("between clusterings: %d classes of several pairs pooled, %d pairs new since the clustering; want both", pooledClasses, newSingletons)
	}
}

// Policy's plan on the side leaves the kept partition alone: a learner asked for its policy
// before every action, and between an episode's end and the Augment that follows it, keeps the
// partition of a learner never asked and acts as it does.
func TestCUCRLReclusterDoublingPolicyHasNoSideEffects(t *testing.T) {
	p := DefaultCUCRL()
	p.Recluster = ReclusterDoubling
	asked, quiet := newCUCRL(t, p, 5, 2), newCUCRL(t, p, 5, 2)
	rng := rand.New(rand.NewPCG(5, 5))
	dst := make([]float64, 2)
	for step := 0; step < 3000; step++ {
		s := rng.IntN(5)
		asked.Policy(s, dst)
		a, b := asked.Act(s), quiet.Act(s)
		if a != b {
			t.Fatalf("step %d: the learner asked for its policy took %d, the other %d", step, a, b)
		}
		if !slices.Equal(asked.pool.partition, quiet.pool.partition) || asked.pool.clusteredAt != quiet.pool.clusteredAt {
			t.Fatalf("step %d: kept partition %v at t %v, the other's %v at t %v", step,
				asked.pool.partition, asked.pool.clusteredAt, quiet.pool.partition, quiet.pool.clusteredAt)
		}
		next := (s + a + rng.IntN(2)) % 5
		asked.Record(s*2+a, next, 0)
		quiet.Record(s*2+a, next, 0)
		if asked.ended {
			asked.Policy(s, dst) // plans on the side with the counts before the Augment
			add := []mdp.Succ{{State: int32(rng.IntN(5)), N: int64(1 + rng.IntN(200))}}
			i := rng.IntN(10)
			asked.Augment(i, add, 0)
			quiet.Augment(i, add, 0)
		}
	}
}
