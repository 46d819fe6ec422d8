package learners

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/mdp"
)

// Gamma(a, 1) has mean a and variance a; the sample moments of 200 000 draws lie within five
// standard errors.
func TestGammaVariateMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 200_000
	for _, a := range []float64{0.05, 0.3, 1, 2.5, 40} {
		sum, sq, sumLog := 0.0, 0.0, 0.0
		for k := 0; k < n; k++ {
			x := gammaVariate(rng, a)
			sum += x
			sq += x * x
			sumLog += logGammaVariate(rng, a)
		}
		mean := sum / n
		variance := sq/n - mean*mean
		if se := math.Sqrt(a / n); math.Abs(mean-a) > 5*se {
			t.Errorf("a = %v: mean %v, want %v ± %v", a, mean, a, 5*se)
		}
		// Var of the sample variance ≈ (μ₄ − σ⁴)/n with μ₄ = 3a² + 6a for Gamma(a, 1).
		if se := math.Sqrt((3*a*a + 6*a - a*a) / n); math.Abs(variance-a) > 5*se {
			t.Errorf("a = %v: variance %v, want %v ± %v", a, variance, a, 5*se)
		}
		// E[log G] = ψ(a), the digamma function: ψ(1) = −γ_E, ψ(40) ≈ log 40 − 1/80 − 1/(12·1600).
		if a == 1 || a == 40 {
			want := -0.5772156649015329
			if a == 40 {
				want = math.Log(40) - 1.0/80 - 1.0/(12*1600)
			}
			if got := sumLog / n; math.Abs(got-want) > 0.01 {
				t.Errorf("a = %v: mean log variate %v, want ψ(a) = %v", a, got, want)
			}
		}
	}
}

// The posterior with pseudo-counts, worked by hand: α₀ and the counts n(s,a,s′) (own and
// augmented) give the Dirichlet mean (α₀ + n(s′))/(S·α₀ + n); μ₀, σ₀, σ and the reward sum give
// the Normal posterior of the mean reward. The means of 40 000 sampled models agree within five
// standard errors.
// sampledRow writes the next-state distribution of pair i in l's sampled model into row (S
// entries): aggregate sampling's rest spread evenly over the states the row does not list.
func sampledRow(l *PSRL, i int, row []float64) {
	if l.P.Sampling == Dense {
		copy(row, l.p[i*l.S:i*l.S+l.S])
		return
	}
	m := &l.agg
	k := int(m.start[i+1] - m.start[i])
	for s := range row {
		row[s] = 0
		if k < l.S {
			row[s] = m.rest[i] / float64(l.S-k)
		}
	}
	for _, e := range m.succ[m.start[i]:m.start[i+1]] {
		row[e.s] = e.p
	}
}

// sampledTransitions is entry i of l's sampled model (a pair, or with merged_samples a pair's
// sample) as a row of an MDP, renormalised for the rounding of the draw.
func sampledTransitions(l *PSRL, i int) []mdp.Transition {
	row := make([]float64, l.S)
	sampledRow(l, i, row)
	total := 0.0
	for _, x := range row {
		total += x
	}
	out := make([]mdp.Transition, 0, l.S)
	for s, x := range row {
		out = append(out, mdp.Transition{Next: s, Prob: x / total, Reward: sampledReward(l, i)})
	}
	return out
}

// sampledReward is pair i's reward in l's sampled model.
func sampledReward(l *PSRL, i int) float64 {
	if l.P.Sampling == Dense {
		return l.r[i]
	}
	return l.agg.r[i]
}

// sample draws a model as l's sampling does, without solving it.
func sample(l *PSRL) {
	if l.P.Sampling == Dense {
		l.sample()
	} else {
		l.sampleAggregate()
	}
}

// The draws' means are the posterior's, pseudo-counts included; with aggregate sampling an unseen
// state's mass is its share of the rest, whose mean is the Dirichlet's too.
func TestPSRLPosteriorMeanWithPseudoCounts(t *testing.T) {
	for _, c := range []struct {
		prior    float64
		sampling PSRLSampling
	}{{0.5, Dense}, {1, Dense}, {2.5, Dense}, {0.5, Aggregate}, {1, Aggregate}, {2.5, Aggregate}} {
		prior := c.prior
		p := DefaultPSRL()
		p.Prior, p.RewardMean, p.RewardSD, p.RewardNoise, p.Sampling = prior, 1, 2, 0.5, c.sampling
		p.RewardPosterior, p.PriorSupport = NormalReward, AllStates
		l := &PSRL{P: p}
		l.Begin(task(3, 1, 7))
		l.Record(0, 0, 0.5)
		l.Record(0, 2, 0.25)
		l.Augment(0, []mdp.Succ{{State: 0, N: 1}, {State: 2, N: 4}}, 2.75) // pseudo-counts
		// n = (2, 0, 5), N = 7, R = 3.5.
		total := 3*prior + 7
		wantP := []float64{(prior + 2) / total, prior / total, (prior + 5) / total}
		precision := 1/4.0 + 7/0.25
		wantR := (1.0/4 + 3.5/0.25) / precision
		const draws = 40_000
		meanP, row := make([]float64, 3), make([]float64, 3)
		meanR := 0.0
		for k := 0; k < draws; k++ {
			sample(l)
			sampledRow(l, 0, row)
			for s := range meanP {
				meanP[s] += row[s] / draws
			}
			meanR += sampledReward(l, 0) / draws
		}
		for s, m := range wantP {
			se := math.Sqrt(m * (1 - m) / (total + 1) / draws) // Var of a Dirichlet component
			if math.Abs(meanP[s]-m) > 5*se {
				t.Errorf("%s, α₀ = %v: mean p̃(%d) = %v, want %v ± %v", c.sampling, prior, s, meanP[s], m, 5*se)
			}
		}
		if se := math.Sqrt(1 / precision / draws); math.Abs(meanR-wantR) > 5*se {
			t.Errorf("%s, α₀ = %v: mean r̃ = %v, want %v ± %v", c.sampling, prior, meanR, wantR, 5*se)
		}
	}
}

// The sampled model is solved: policy iteration's values (dense) equal value iteration's on the
// same model, terminal states at 0, and aggregate sampling's sparse value iteration (to a
// tolerance of 1e-11, or until the policy is certain) takes its greedy actions.
func TestPSRLSolvesTheSampledModel(t *testing.T) {
	for _, sampling := range []PSRLSampling{Dense, Aggregate} {
		t.Run(string(sampling), func(t *testing.T) { testPSRLSolvesTheSampledModel(t, sampling) })
	}
}

func testPSRLSolvesTheSampledModel(t *testing.T, sampling PSRLSampling) {
	p := DefaultPSRL()
	p.Sampling, p.PlanTolerance = sampling, 1e-11
	l := &PSRL{P: p}
	const S, A = 5, 3
	tk := task(S, A, 3)
	tk.Terminal = []bool{false, false, false, true, false}
	l.Begin(tk)
	rng := rand.New(rand.NewPCG(3, 3))
	for round := 0; round < 20; round++ {
		for k := 0; k < 30; k++ {
			i := rng.IntN(S * A)
			if i/A != 3 {
				l.Record(i, rng.IntN(S), rng.Float64())
			}
		}
		l.EndEpisode()
		rows := make([][]mdp.Transition, S*A)
		for i := range rows {
			if i/A != 3 {
				rows[i] = sampledTransitions(l, i)
			}
		}
		m, err := mdp.NewEpisodic(S, A, rows, []float64{1, 0, 0, 0, 0}, tk.Terminal)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := mdp.ValueIteration(m, tk.Gamma, 1e-10)
		if err != nil {
			t.Fatal(err)
		}
		if sampling == Aggregate { // solved until the greedy actions are certain
			for s := 0; s < S; s++ {
				if s != 3 && mdp.ArgMax(l.q[s*A:s*A+A]) != sol.Policy[s] {
					t.Fatalf("round %d: greedy action %d in state %d, value iteration's %d", round, mdp.ArgMax(l.q[s*A:s*A+A]), s, sol.Policy[s])
				}
			}
			continue
		}
		for i := range sol.Q {
			if math.Abs(l.q[i]-sol.Q[i]) > 1e-8 {
				t.Fatalf("round %d: Q[%d] = %v, value iteration %v", round, i, l.q[i], sol.Q[i])
			}
		}
	}
}

// A model per runner episode; with TSDE, a new model when the epoch outruns the last one
// (T_0 = 1) or n(s,a) more than doubles. Worked by hand for three samples of pair 0 then pair 1:
// draws after samples 1 (n₀ = 1 > 0), 3 (epoch 2 > 1), 4 (n₁ = 1 > 0), 6 (2 > 1), 9 (3 > 2).
func TestPSRLSchedules(t *testing.T) {
	p := DefaultPSRL()
	p.Schedule = PerEpisode
	l := &PSRL{P: p}
	l.Begin(task(1, 2, 1))
	for e := 1; e <= 5; e++ {
		l.Record(0, 0, 0)
		l.EndEpisode()
		if l.Stats().Plans() != 1+e {
			t.Fatalf("after %d episodes: %d models, want %d", e, l.Stats().Plans(), 1+e)
		}
	}
	p.Schedule = TSDE
	l = &PSRL{P: p}
	l.Begin(task(1, 2, 1))
	var draws []int
	for k := 1; k <= 12; k++ {
		i := 0
		if k > 3 {
			i = 1
		}
		before := l.Stats().Plans()
		l.Record(i, 0, 0)
		l.EndEpisode()
		if l.Stats().Plans() > before {
			draws = append(draws, k)
		}
	}
	if want := []int{1, 3, 4, 6, 9}; !slices.Equal(draws, want) {
		t.Errorf("TSDE drew after samples %v, want %v", draws, want)
	}
}

func TestPSRLValidate(t *testing.T) {
	if err := DefaultPSRL().Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		change func(*PSRLParams)
		want   string
	}{
		{func(p *PSRLParams) { p.Prior = 0 }, "psrl: prior = 0, want a finite number > 0"},
		{func(p *PSRLParams) { p.Prior = math.Inf(1) }, "psrl: prior = +Inf"},
		{func(p *PSRLParams) { p.RewardMean = math.NaN() }, "psrl: reward_mean = NaN"},
		{func(p *PSRLParams) { p.RewardSD = -1 }, "psrl: reward_sd = -1"},
		{func(p *PSRLParams) { p.RewardNoise = 0 }, "psrl: reward_noise = 0"},
		{func(p *PSRLParams) { p.M = -3 }, "psrl: m = -3"},
		{func(p *PSRLParams) { p.Schedule = "weekly" }, `psrl: schedule "weekly", want "episode", "tsde" or "doubling"`},
		{func(p *PSRLParams) { p.RewardPosterior = "gamma" }, `psrl: reward_posterior "gamma", want "normal", "normal-shared-noise" or "beta"`},
		{func(p *PSRLParams) { p.RewardMin, p.RewardMax = Bound(math.Inf(-1)), Bound(1) }, "psrl: reward_min = -Inf"},
		{func(p *PSRLParams) { p.RewardMin, p.RewardMax = Bound(2), Bound(2) }, "psrl: reward_max = 2, want a finite number > reward_min (2)"},
		{func(p *PSRLParams) { p.RewardMin = Bound(-1) }, "psrl: reward_min = -1 and reward_max = task: give both bounds of the reward range, or neither (task: the task's)"},
		{func(p *PSRLParams) { p.RewardMax = Bound(1) }, "psrl: reward_min = task and reward_max = 1: give both"},
	}
	for _, c := range cases {
		p := DefaultPSRL()
		c.change(&p)
		_, err := NewPSRL(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

func TestPSRLCountConservation(t *testing.T) {
	conservation(t, &PSRL{P: DefaultPSRL()})
	p := DefaultPSRL()
	p.Schedule = TSDE
	conservation(t, &PSRL{P: p})
}

func TestPSRLDeterministicForASeed(t *testing.T) {
	for _, prior := range []float64{0.3, 1} {
		p := DefaultPSRL()
		p.Prior = prior
		p.RewardMin, p.RewardMax = Bound(0), Bound(1) // the line's rewards: actions' task states no range
		a, _ := NewPSRL(p)
		b, _ := NewPSRL(p)
		if x, y := actions(t, agent.NewSingle(a), 4), actions(t, agent.NewSingle(b), 4); !slices.Equal(x, y) {
			t.Errorf("α₀ = %v: two runs with the same seed acted differently", prior)
		}
	}
}

// riverSwimRun runs ag on Strehl & Littman's RiverSwim for episodes × steps, each episode from
// the start distribution, and returns the total reward, the mean discounted return of the last
// 200 episodes, and V^π(μ) of the learner's final policy π (its most likely action per state),
// evaluated exactly.
func riverSwimRun(t *testing.T, ag *agent.Single, episodes, steps int, gamma float64) (total, last, final float64) {
	t.Helper()
	m, err := classic.RiverSwim()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	if err := ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: gamma, Rand: rand.New(rand.NewPCG(3, 3)), Rewards: agent.RewardsOf(m)}); err != nil {
		t.Fatal(err)
	}
	for e := 0; e < episodes; e++ {
		s := m.SampleStart(rng)
		ret, discount := 0.0, 1.0
		for k := 0; k < steps; k++ {
			a := ag.Act(s)
			next, r := m.Step(s, a, rng)
			ag.Observe(s, a, r, next)
			ret += discount * r
			discount *= gamma
			total += r
			s = next
		}
		if e >= episodes-200 {
			last += ret / 200
		}
		ag.EndEpisode()
	}
	pi := make([]int, m.S)
	dst := make([]float64, m.A)
	for s := range pi {
		ag.Policy(s, dst)
		pi[s] = mdp.ArgMax(dst)
	}
	v, err := mdp.PolicyEvaluation(m, pi, gamma, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	for s, mu := range m.StartDistribution() {
		final += mu * v[s]
	}
	return total, last, final
}

// The comparison of Osband, Russo & Van Roy (2013) on RiverSwim, here Strehl & Littman's (rewards
// 5 and 10 000): PSRL explores to the far end — its final policy is worth at least 0.9 of the
// optimal value V*(μ), both evaluated exactly — and collects more reward than UCRL2, whose L1
// confidence sets over S next states stay wide for hundreds of samples per pair. 2000 episodes of
// 100 steps (the riverswim preset's), γ = 0.95. The mean discounted return of the last 200
// episodes is logged beside it: it is noisy (the far end pays 10 000 with probability 0.3), and
// a 100-step episode can only approach V*(μ) (γ¹⁰⁰ ≈ 0.006). PSRL's reward prior is on the scale of
// the rewards (σ₀ = 10 000, noise σ = 5 000, the largest standard deviation of a reward in
// [0, 10 000]); with the default N(0, 1) it never pays the far end any attention.
func TestPSRLBeatsUCRL2OnRiverSwim(t *testing.T) {
	const episodes, steps, gamma = 2000, 100, 0.95
	m, _ := classic.RiverSwim()
	sol, err := mdp.ValueIteration(m, gamma, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	opt := 0.0
	for s, mu := range m.StartDistribution() {
		opt += mu * sol.V[s]
	}
	u := DefaultUCRL2()
	u.RMax = 10000
	ucrl2, _ := NewUCRL2(u)
	uTotal, uLast, uFinal := riverSwimRun(t, agent.NewSingle(ucrl2), episodes, steps, gamma)
	for _, schedule := range []PSRLSchedule{PerEpisode, TSDE, Doubling} {
		p := DefaultPSRL()
		p.RewardPosterior, p.PriorSupport = NormalReward, AllStates
		p.RewardSD, p.RewardNoise, p.Schedule = 10000, 5000, schedule
		psrl, _ := NewPSRL(p)
		total, last, final := riverSwimRun(t, agent.NewSingle(psrl), episodes, steps, gamma)
		t.Logf("PSRL (%s): total reward %.4g, final policy %.3f of V*(μ) = %.1f, last 200 episodes' return %.3f of it",
			schedule, total, final/opt, opt, last/opt)
		if final < 0.9*opt {
			t.Errorf("PSRL (%s): final policy worth %.3f of the optimal value, want at least 0.9", schedule, final/opt)
		}
		if total <= uTotal {
			t.Errorf("PSRL (%s) collected %.4g, UCRL2 %.4g: want PSRL ahead", schedule, total, uTotal)
		}
	}
	t.Logf("UCRL2: total reward %.4g, final policy %.3f of V*(μ), last 200 episodes' return %.3f of it", uTotal, uFinal/opt, uLast/opt)
}

// Policy is the sampled model's greedy policy, the distribution Act draws from, and changes only
// with a draw.
func TestPSRLPolicy(t *testing.T) {
	p := DefaultPSRL()
	p.Schedule = TSDE
	l := &PSRL{P: p}
	l.Begin(task(3, 2, 1))
	dst := make([]float64, 2)
	for step := 0; step < 300; step++ {
		s := step % 3
		plans, version := l.Stats().Plans(), l.PolicyVersion()
		l.Policy(s, dst)
		if a := l.Act(s); dst[a] == 0 {
			t.Fatalf("step %d: Act took %d, which Policy gave probability 0 (%v)", step, a, dst)
		}
		if l.Stats().Plans() != plans || l.PolicyVersion() != version {
			t.Fatal("Policy or Act drew a model")
		}
		l.Record(s*2+step%2, (s+1)%3, 0.1*float64(s))
		if (l.Stats().Plans() != plans) != (l.PolicyVersion() != version) {
			t.Fatalf("step %d: %d draws but policy version %d → %d", step, l.Stats().Plans()-plans, version, l.PolicyVersion())
		}
	}
}

// The sparse prior (prior_support: observed), by hand on 4 states: a pair that reached states 0
// (2 times) and 2 (5 times) draws from Dirichlet(α₀ + 2, α₀ + 5) over {0, 2} alone, mean
// ((α₀ + 2)/(2α₀ + 7), (α₀ + 5)/(2α₀ + 7)) and nothing on states 1 and 3; a pair without a sample
// keeps the prior over all 4 states.
func TestPSRLObservedPriorSupport(t *testing.T) {
	for _, sampling := range []PSRLSampling{Dense, Aggregate} {
		t.Run(string(sampling), func(t *testing.T) { testPSRLObservedPriorSupport(t, sampling) })
	}
}

func testPSRLObservedPriorSupport(t *testing.T, sampling PSRLSampling) {
	const prior = 0.5
	p := DefaultPSRL()
	p.Prior, p.PriorSupport, p.Sampling = prior, ObservedStates, sampling
	l := &PSRL{P: p}
	l.Begin(task(4, 2, 3))
	l.Augment(0, []mdp.Succ{{State: 0, N: 2}, {State: 2, N: 5}}, 0)
	want := []float64{(prior + 2) / (2*prior + 7), 0, (prior + 5) / (2*prior + 7), 0}
	const draws = 20_000
	mean, row := make([]float64, 4), make([]float64, 4)
	unvisited := 0
	for k := 0; k < draws; k++ {
		sample(l)
		sampledRow(l, 0, row)
		for s := range mean {
			mean[s] += row[s] / draws
		}
		if sampledRow(l, 1, row); row[1] > 0 && row[3] > 0 { // pair 1 has no sample: all four states possible
			unvisited++
		}
	}
	for s, m := range want {
		se := math.Sqrt(m * (1 - m) / (2*prior + 8) / draws)
		if math.Abs(mean[s]-m) > 5*se || (m == 0 && mean[s] != 0) {
			t.Errorf("mean p̃(%d) = %v, want %v", s, mean[s], m)
		}
	}
	if unvisited != draws {
		t.Errorf("the unvisited pair put mass on states 1 and 3 in %d of %d draws, want all", unvisited, draws)
	}
	p.PriorSupport = "sparse"
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "prior_support") {
		t.Errorf("prior_support sparse: error %v, want one naming prior_support", err)
	}
}

// The Beta reward posterior, by hand: rewards 1, 0.25 and 0.5 on the range [0, 1] give
// Beta(1 + 1.75, 1 + 3 − 1.75) = Beta(2.75, 2.25), mean 0.55; the same rewards declared on
// [−1, 3] scale to 0.5, 0.3125 and 0.375, Beta(2.1875, 2.8125), and a sample r̃ = −1 + 4·θ has
// mean −1 + 4·2.1875/5 = 0.75. Rewards above the range clamp the scaled sum at n: two rewards of
// 5 on [0, 1] give Beta(3, 1), mean 0.75. The means of 40 000 draws agree within five standard
// errors of the Beta's variance ab/((a+b)²(a+b+1)), scaled by the range.
func TestPSRLBetaRewardPosterior(t *testing.T) {
	cases := []struct {
		lo, hi  float64
		rewards []float64
		a, b    float64
	}{
		{0, 1, []float64{1, 0.25, 0.5}, 2.75, 2.25},
		{-1, 3, []float64{1, 0.25, 0.5}, 2.1875, 2.8125},
		{0, 1, []float64{5, 5}, 3, 1},
	}
	for _, c := range cases {
		p := DefaultPSRL()
		p.RewardPosterior, p.RewardMin, p.RewardMax = BetaReward, Bound(c.lo), Bound(c.hi)
		l := &PSRL{P: p}
		l.Begin(task(2, 1, 5))
		for _, r := range c.rewards {
			l.Record(0, 1, r)
		}
		const draws = 40_000
		mean := 0.0
		for k := 0; k < draws; k++ {
			sample(l)
			if sampledReward(l, 0) < c.lo || sampledReward(l, 0) > c.hi {
				t.Fatalf("[%v, %v]: r̃ = %v outside the range", c.lo, c.hi, sampledReward(l, 0))
			}
			mean += sampledReward(l, 0) / draws
		}
		ab := c.a + c.b
		want := c.lo + (c.hi-c.lo)*c.a/ab
		sd := (c.hi - c.lo) * math.Sqrt(c.a*c.b/(ab*ab*(ab+1)))
		if se := sd / math.Sqrt(draws); math.Abs(mean-want) > 5*se {
			t.Errorf("[%v, %v], rewards %v: mean r̃ = %v, want %v ± %v", c.lo, c.hi, c.rewards, mean, want, 5*se)
		}
	}
}

// The doubling rule, by hand, for three samples of pair 0 then nine of pair 1 (n_k starts at 0): a
// draw when the epoch's samples of the pair reach max(1, n_k) — after samples 1 (pair 0: 1 ≥ 1),
// 2 (1 ≥ 1), 4 (pair 1: 1 ≥ 1), 5 (1 ≥ 1), 7 (2 ≥ 2) and 11 (4 ≥ 4). Runner episodes draw nothing.
func TestPSRLDoublingSchedule(t *testing.T) {
	p := DefaultPSRL()
	p.Schedule = Doubling
	l := &PSRL{P: p}
	l.Begin(task(1, 2, 1))
	var draws []int
	for k := 1; k <= 12; k++ {
		i := 0
		if k > 3 {
			i = 1
		}
		before := l.Stats().Plans()
		l.Record(i, 0, 0)
		l.EndEpisode()
		if l.Stats().Plans() > before {
			draws = append(draws, k)
		}
	}
	if want := []int{1, 2, 4, 5, 7, 11}; !slices.Equal(draws, want) {
		t.Errorf("doubling drew after samples %v, want %v", draws, want)
	}
}

// On its defaults PSRL draws new models within one long episode (the doubling rule): 10 000 steps
// of a single runner episode on a 3-state chain draw more than one model, where a model per
// episode would keep the first.
func TestPSRLDefaultsResampleWithinAnEpisode(t *testing.T) {
	l := &PSRL{P: DefaultPSRL()}
	l.Begin(task(3, 2, 1))
	s := 0
	for k := 0; k < 10_000; k++ {
		a := l.Act(s)
		next := (s + a) % 3
		l.Record(s*2+a, next, 0.5)
		s = next
	}
	if l.Stats().Plans() < 10 {
		t.Errorf("%d models in one episode of 10 000 steps, want the doubling rule's dozens", l.Stats().Plans())
	}
}

// withRewards is task(S, A, seed) stating the reward range [lo, hi].
func withRewards(S, A int, seed uint64, lo, hi float64) agent.Task {
	t := task(S, A, seed)
	t.Rewards = &agent.RewardRange{Min: lo, Max: hi}
	return t
}

// On its defaults the Beta posterior takes the task's reward range, by hand: on a task stating
// [−1.2, 0.8] (the paper's mazes with lava), rewards −0.2, 0.8 and −1.2 scale to 0.5, 1 and 0,
// x = 1.5 of n = 3, Beta(2.5, 2.5), and a sample r̃ = −1.2 + 2·θ has mean −0.2. It is the
// posterior of that range given in the config, draw for draw.
func TestPSRLBetaTakesTheTasksRange(t *testing.T) {
	given := DefaultPSRL()
	given.RewardMin, given.RewardMax = Bound(-1.2), Bound(0.8)
	fromTask, fromConfig := &PSRL{P: DefaultPSRL()}, &PSRL{P: given}
	fromTask.Begin(withRewards(2, 1, 5, -1.2, 0.8))
	fromConfig.Begin(withRewards(2, 1, 5, 0, 1)) // a given range wins over the task's
	for _, l := range []*PSRL{fromTask, fromConfig} {
		for _, r := range []float64{-0.2, 0.8, -1.2} {
			l.Record(0, 1, r)
		}
	}
	const draws = 40_000
	mean := 0.0
	for k := 0; k < draws; k++ {
		sample(fromTask)
		sample(fromConfig)
		if sampledReward(fromTask, 0) != sampledReward(fromConfig, 0) {
			t.Fatalf("draw %d: r̃ = %v on the task's range, %v on the same range given", k, sampledReward(fromTask, 0), sampledReward(fromConfig, 0))
		}
		mean += sampledReward(fromTask, 0) / draws
	}
	a, b := 2.5, 2.5
	want := -1.2 + 2*a/(a+b)
	se := 2 * math.Sqrt(a*b/((a+b)*(a+b)*(a+b+1))) / math.Sqrt(draws)
	if math.Abs(mean-want) > 5*se {
		t.Errorf("mean r̃ = %v, want %v ± %v", mean, want, 5*se)
	}
	if c := fromTask.Stats().RewardClamps(); c != 0 {
		t.Errorf("%d rewards counted as clamped on the task's own range, want 0", c)
	}
}

// A reward outside the Beta posterior's range is counted, never silent: on the range [0, 1] given
// in the config, rewards 0.5, −0.2, 1 and 1.3 are two clamps, reported as reward_clamps; the
// Normal posterior has no range and reports none.
func TestPSRLCountsClampedRewards(t *testing.T) {
	p := DefaultPSRL()
	p.RewardMin, p.RewardMax = Bound(0), Bound(1)
	normal := DefaultPSRL()
	normal.RewardPosterior = NormalReward
	for _, c := range []struct {
		p      PSRLParams
		clamps float64 // −1: no reward_clamps metric
	}{{p, 2}, {normal, -1}} {
		l := &PSRL{P: c.p}
		l.Begin(withRewards(2, 1, 5, -1.2, 1.3))
		for _, r := range []float64{0.5, -0.2, 1, 1.3} {
			l.Record(0, 1, r)
		}
		got := -1.0
		for _, m := range agent.NewSingle(l).TaskMetrics() {
			if m.Name == "reward_clamps" {
				got = m.Value
			}
		}
		if got != c.clamps {
			t.Errorf("reward_posterior %s: reward_clamps %v, want %v (−1: none)", c.p.RewardPosterior, got, c.clamps)
		}
	}
	l := &PSRL{P: p}
	l.Begin(withRewards(2, 1, 5, 0, 1))
	l.Record(0, 1, 7)
	l.Begin(withRewards(2, 1, 5, 0, 1))
	if c := l.Stats().RewardClamps(); c != 0 {
		t.Errorf("a new task starts with %d clamps, want 0", c)
	}
}

// With the Beta posterior on the task's range, a task that states none is refused when it
// begins, with a message that says what to give; a range given in the config, or the Normal
// posterior, needs none. On a task whose every reward is −1 (a range of one point) the sampled
// mean is −1 exactly.
func TestPSRLNeedsARangeForTheBetaPosterior(t *testing.T) {
	bare := task(2, 1, 5)
	bare.Rewards = nil // no range stated
	l, _ := NewPSRL(DefaultPSRL())
	err := agent.NewSingle(l).BeginTask(bare)
	want := "psrl: reward_posterior beta with reward_min and reward_max task, but task 0 states no reward range"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "give reward_min and reward_max") {
		t.Errorf("error %v, want one containing %q", err, want)
	}
	if err := agent.NewSingle(l).BeginTask(withRewards(2, 1, 5, 1, -1)); err == nil || !strings.Contains(err.Error(), "want min <= max") {
		t.Errorf("a range [1, −1]: error %v, want one saying min <= max", err)
	}
	given := DefaultPSRL()
	given.RewardMin, given.RewardMax = Bound(0), Bound(1)
	normal := DefaultPSRL()
	normal.RewardPosterior = NormalReward
	for _, p := range []PSRLParams{given, normal} {
		l, _ := NewPSRL(p)
		if err := agent.NewSingle(l).BeginTask(bare); err != nil {
			t.Errorf("reward_posterior %s, range %v to %v: %v", p.RewardPosterior, p.RewardMin, p.RewardMax, err)
		}
	}
	point := &PSRL{P: DefaultPSRL()}
	point.Begin(withRewards(3, 2, 5, -1, -1))
	point.Record(0, 1, -1)
	sample(point)
	for i := range 6 {
		if r := sampledReward(point, i); r != -1 {
			t.Errorf("pair %d: r̃ = %v on a task whose every reward is −1, want −1", i, r)
		}
	}
}
