package temple

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// latentBase is PSRL with its defaults (α₀ = 1 on observed states, Beta rewards on [0, 1]) and
// the given schedule.
func latentBase(t testing.TB, schedule learners.PSRLSchedule) *learners.PSRL {
	t.Helper()
	p := learners.DefaultPSRL()
	p.Schedule = schedule
	b, err := learners.NewPSRL(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// latentAgent is LatentPSRL (α = 1, per episode) over PSRL on a task of 3 states and 1 action,
// whose library holds, for each entry of next, a model whose pair 0 went 8 times to that state
// with reward 0, explained tasks[k] past tasks.
func latentAgent(t *testing.T, next []int, tasks []int64) *LatentPSRL {
	t.Helper()
	lp, err := NewLatentPSRL(DefaultLatentParams(), LatentPrior{Alpha: 1, RewardMin: 0, RewardMax: 1},
		latentBase(t, learners.PerEpisode))
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range next {
		c := mdp.NewCounts(3, 1)
		c.Add(0, s, 8, 0)
		lp.comps = append(lp.comps, latentComponent{counts: c, tasks: tasks[k]})
	}
	if err := lp.BeginTask(agent.Task{S: 3, A: 1, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	return lp
}

// TestLatentPutsMassOnTheRightModel: models A (pair 0 → state 1, 8 times) and B (→ state 2, 8
// times), each of one past task, α = 1 (prior 1/3 each). Two samples 0 → 1 with reward 0 have,
// by hand, with α₀ = 1 over S = 3 states and Beta(1 + 0, 1 + 8) rewards,
//
//	A:   (1+8)/(3+8) · (1+8+1)/(3+8+1) · 9/10 · 10/11 = 15/22 · 9/11 = 135/242
//	B:   1/11 · 2/12 · 9/11 = 9/726
//	new: 1/3 · 2/4 · 1/2 · 2/3 = 1/18  (Beta(1, 1) rewards)
//
// and the posterior is these normalised. The draws then give pair 0 its 2 own samples plus A's 8
// (10), B's (also 10, other state) or nothing (2).
func TestLatentPutsMassOnTheRightModel(t *testing.T) {
	lp := latentAgent(t, []int{1, 2}, []int64{1, 1})
	w := lp.Weights()
	for k, x := range w {
		if math.Abs(x-1.0/3) > 1e-12 {
			t.Fatalf("prior weight %d = %v, want 1/3", k, x)
		}
	}
	lp.Observe(0, 0, 0, 1)
	lp.Observe(0, 0, 0, 1)
	a, b, nw := 135.0/242, 9.0/726, 1.0/18
	want := []float64{a / (a + b + nw), b / (a + b + nw), nw / (a + b + nw)}
	w = lp.Weights()
	for k := range want {
		if math.Abs(w[k]-want[k]) > 1e-12 {
			t.Fatalf("posterior %v, want %v", w, want)
		}
	}
	st := lp.Base().Stats()
	drawnA := 0
	for range 200 {
		lp.EndEpisode()
		switch n1, n2 := succOf(st, 0, 1), succOf(st, 0, 2); {
		case n1 == 10 && n2 == 0:
			drawnA++
		case !(n1 == 2 && n2 == 8) && !(n1 == 2 && n2 == 0):
			t.Fatalf("pair 0 drawn with counts %d to 1 and %d to 2: neither A, B nor its own", n1, n2)
		}
	}
	if drawnA < 160 { // A's weight is 0.8914: 178 of 200 expected, sd 4.4
		t.Errorf("A drawn %d times of 200, want about %.0f", drawnA, 200*want[0])
	}
}

// TestLatentOverturnsAWrongPrior: the library holds only B (pair 0 → 2), explaining 100 past
// tasks, so the prior puts 100/101 on it. The task's pair goes to state 1 every time; after n
// samples with reward 0 the likelihoods are, by hand,
//
//	B:   Π_{j<n} (1+j)/(11+j) · (9+j)/(10+j) = n!·10!/(n+10)! · 9/(9+n)
//	new: Π_{j<n} (1+j)/(3+j) · (1+j)/(2+j)   = 2/((n+1)(n+2)) · 1/(n+1)
//
// so the odds new:B are 1/100 of their ratio: 0.0953 after 3 samples, 5.37 after 10, and after
// 20 they are 2/(21·22·21) / (20!·10!/30!·9/29) / 100 = 199.57 — the new model dominates.
func TestLatentOverturnsAWrongPrior(t *testing.T) {
	lp := latentAgent(t, []int{2}, []int64{100})
	if w := lp.Weights(); math.Abs(w[0]-100.0/101) > 1e-12 {
		t.Fatalf("prior %v, want 100/101 on B", w)
	}
	odds := func(n int) float64 {
		lf := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
		b := math.Exp(lf(n)+lf(10)-lf(n+10)) * 9 / float64(9+n)
		nw := 2 / float64((n+1)*(n+2)) / float64(n+1)
		return nw / b / 100
	}
	for n := 1; n <= 20; n++ {
		lp.Observe(0, 0, 0, 1)
		w := lp.Weights()
		if got := w[1] / w[0]; math.Abs(got/odds(n)-1) > 1e-9 {
			t.Fatalf("after %d samples: odds new:B %v, want %v", n, got, odds(n))
		}
	}
	if w := lp.Weights(); w[1] < 0.99 || math.Abs(odds(3)-0.09533) > 1e-5 || math.Abs(odds(20)-199.57) > 0.01 {
		t.Fatalf("after 20 samples: posterior %v (odds %v), want the new model above 0.99 (odds 199.57)", w, odds(20))
	}
	// The task's samples found a new model at its end: the library then holds two.
	lp.EndTask()
	if lp.Components() != 2 {
		t.Errorf("library of %d models after the task, want 2 (B and the new one)", lp.Components())
	}
}

// TestLatentWithEmptyLibraryIsPSRL: with no past model, LatentPSRL over PSRL acts exactly as
// PSRL alone with the same seed, on each schedule, step for step on a random 5-state MDP.
func TestLatentWithEmptyLibraryIsPSRL(t *testing.T) {
	const S, A = 5, 2
	envRand := rand.New(rand.NewPCG(7, 7))
	next := make([][]float64, S*A)
	for i := range next {
		next[i] = make([]float64, S)
		for s := range next[i] {
			next[i][s] = envRand.Float64()
		}
	}
	step := func(rng *rand.Rand, i int) int {
		u, total := rng.Float64(), 0.0
		for _, x := range next[i] {
			total += x
		}
		for s, x := range next[i] {
			u -= x / total
			if u < 0 {
				return s
			}
		}
		return S - 1
	}
	for sched, ls := range map[learners.PSRLSchedule]LatentSchedule{learners.PerEpisode: LatentPerEpisode,
		learners.TSDE: LatentTSDE, learners.Doubling: LatentDoubling} {
		plain := agent.NewSingle(latentBase(t, sched))
		lp, err := NewLatentPSRL(DefaultLatentParams(), LatentPrior{Alpha: 1, RewardMin: 0, RewardMax: 1, Schedule: ls},
			latentBase(t, learners.PerEpisode))
		if err != nil {
			t.Fatal(err)
		}
		agents := []agent.Agent{plain, lp}
		var actions [2][]int
		for k, ag := range agents {
			env := rand.New(rand.NewPCG(3, 3))
			if err := ag.BeginTask(agent.Task{S: S, A: A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 2))}); err != nil {
				t.Fatal(err)
			}
			s := 0
			for n := range 2000 {
				a := ag.Act(s)
				actions[k] = append(actions[k], a)
				s2 := step(env, s*A+a)
				ag.Observe(s, a, float64(s2%2), s2)
				s = s2
				if n%50 == 49 {
					ag.EndEpisode()
				}
			}
		}
		for n := range actions[0] {
			if actions[0][n] != actions[1][n] {
				t.Fatalf("schedule %s: step %d, PSRL took %d and LatentPSRL %d", sched, n, actions[0][n], actions[1][n])
			}
		}
	}
}

// TestLatentWeightsInvariants: the weights sum to 1 and are finite with no samples, with a
// component holding no counts of a pair, and with fractional rewards.
func TestLatentWeightsInvariants(t *testing.T) {
	lp := latentAgent(t, []int{1, 2}, []int64{3, 1})
	lp.comps = append(lp.comps, latentComponent{counts: mdp.NewCounts(3, 1), tasks: 1}) // no counts at all
	check := func(when string) {
		t.Helper()
		total := 0.0
		for _, x := range lp.Weights() {
			if math.IsNaN(x) || x < 0 || x > 1 {
				t.Fatalf("%s: weight %v", when, x)
			}
			total += x
		}
		if math.Abs(total-1) > 1e-12 {
			t.Fatalf("%s: weights sum to %v", when, total)
		}
	}
	lp.logw = append(lp.logw[:2], math.Log(1.0/6), math.Log(1.0/6)) // the CRP prior of 3, 1, 1 and α = 1
	check("no samples")
	rng := rand.New(rand.NewPCG(5, 5))
	for n := range 300 {
		lp.Observe(0, 0, rng.Float64(), rng.IntN(3))
		if n%7 == 0 {
			lp.EndEpisode()
		}
		check("after samples")
	}
}

func TestLatentParamsValidate(t *testing.T) {
	for _, c := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		err := LatentParams{Concentration: c}.Validate()
		if err == nil || !strings.Contains(err.Error(), "concentration") {
			t.Errorf("concentration %v: error %v, want one naming concentration", c, err)
		}
	}
	if err := DefaultLatentParams().Validate(); err != nil {
		t.Error(err)
	}
}

// TestBetaFraction: a fractional reward's Beta marginal, against B(a + x, b + 1 − x)/B(a, b) by
// its definition, and at the ends x → 0, 1 it tends to b/(a + b) and a/(a + b).
func TestBetaFraction(t *testing.T) {
	lbeta := func(a, b float64) float64 { return lgamma(a) + lgamma(b) - lgamma(a+b) }
	for _, c := range [][3]float64{{1, 1, 0.5}, {3, 9, 0.25}, {120.5, 7, 0.9}} {
		a, b, x := c[0], c[1], c[2]
		if got, want := betaFraction(a, b, x), lbeta(a+x, b+1-x)-lbeta(a, b); math.Abs(got-want) > 1e-12 {
			t.Errorf("betaFraction(%v, %v, %v) = %v, want %v", a, b, x, got, want)
		}
	}
	if got := math.Exp(betaFraction(3, 9, 1e-12)); math.Abs(got-0.75) > 1e-9 {
		t.Errorf("at x → 0: %v, want b/(a+b) = 0.75", got)
	}
}
