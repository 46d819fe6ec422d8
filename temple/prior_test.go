package temple

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/template"
)

// priorAgent is TemplatePrior (m_s 10, c 50, ν 0.1) over PSRL with the sparse prior, a draw per
// episode and the base's default reward model N(0, 1), noise 1, whose library holds the given templates (reward sum 0), each given
// once, beginning a task of 10 states and 1 action.
func priorAgent(t *testing.T, tmpls ...[]template.Count) *TemplatePrior {
	t.Helper()
	tp, err := NewTemplatePrior(DefaultPriorParams(), PSRLModel{RewardMean: 0, RewardSD: 1, RewardNoise: 1}, episodePSRL(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tmpls {
		tp.mix.given[tp.mix.lib.Add(c, 0).ID] = 1
	}
	if err := tp.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	return tp
}

// posterior is pair 0's posterior over the components (the library's, then new), computed from
// all its own samples (past exactWeights, the learner computes it only now and then).
func posterior(tp *TemplatePrior) []float64 {
	tp.reweigh(0)
	return tp.mix.weights(0)
}

// feed gives pair 0 own samples to the next states in order, with reward 0, in one episode.
func feed(tp *TemplatePrior, next ...int) {
	for _, s := range next {
		tp.Observe(0, 0, 0, s)
	}
	tp.EndEpisode()
}

// TestPriorRulesOutATemplateWithOneSample: with a deterministic and a two-way template, each
// given once (prior 0.45 each, new 0.1), one sample to state 1 cannot tell them apart — the
// deterministic template's likelihood is Γ(50)/Γ(51)·Γ(51)/Γ(50) = 1, the two-way one's
// Γ(50)/Γ(51)·2·Γ(26)/Γ(25) = 1, and both place the state with probability 1/S. A sample to a
// second state rules the deterministic template out (posterior exactly 0), and the odds of the
// two-way template against new are, by hand,
//
//	[Γ(50)/Γ(52)·2·(Γ(26)/Γ(25))²/(S(S−1))] / [Γ(1)/Γ(3)·(Γ(1.1)/Γ(0.1))²] · (0.45/0.1) · √(3/1.04)
//	= 50·10/(51·9) · 4.5 · 1.6984 = 8.3256,
//
// the last factor the rewards' (0 under N(0, 1/50) against N(0, 1), noise 1, two samples).
// Drawn, the pair is never placed with the deterministic template again: its counts are its own 2
// or those plus the two-way template's 25 + 25.
func TestPriorRulesOutATemplateWithOneSample(t *testing.T) {
	tp := priorAgent(t, deterministic, twoWay)
	feed(tp, 1)
	if p := posterior(tp); math.Abs(p[0]-p[1]) > 1e-12 || math.Abs(p[0]-0.45/(0.9+0.1*newAfterOne())) > 1e-9 {
		t.Errorf("after one sample: posterior %v, want the two templates equal", p)
	}
	feed(tp, 2)
	p := posterior(tp)
	if p[0] != 0 || math.Abs(p[1]/p[2]-8.3256) > 1e-4 {
		t.Fatalf("after samples to 1 and 2: posterior %v, odds two-way:new %v; want 0 and 8.3256", p, p[1]/p[2])
	}
	st := tp.Base().Stats()
	for range 50 {
		tp.EndEpisode()
		if n := st.Counts().N(0); n != 2 && n != 52 {
			t.Fatalf("pair 0 drawn with n = %d, want 2 (new) or 52 (two-way)", n)
		}
	}
}

// newAfterOne is the new component's likelihood of one sample relative to a template's, by hand:
// transitions Γ(1)/Γ(2)·Γ(1.1)/Γ(0.1) = 0.1 against 1/S = 0.1 placed, rewards √(1.02/2).
func newAfterOne() float64 { return math.Sqrt(1.02 / 2) }

// TestPriorPutsMassOnTheRightTemplate: a pair that moves to state 1 five times. By hand, in logs:
// deterministic ln 0.45 − ln 10 − ½ln(1.1); two-way ln 0.45 − ln 10 + ln(2·Γ(50)Γ(30)/(Γ(55)Γ(25)))
// − ½ln(1.1); new ln 0.1 + ln(Γ(5.1)/(Γ(0.1)·5!)) − ½ln 6: posterior 0.9104, 0.0684, 0.0212.
func TestPriorPutsMassOnTheRightTemplate(t *testing.T) {
	tp := priorAgent(t, deterministic, twoWay)
	feed(tp, 1, 1, 1, 1, 1)
	want := []float64{0.9104302, 0.0683749, 0.0211949}
	for k, p := range posterior(tp) {
		if math.Abs(p-want[k]) > 1e-6 {
			t.Errorf("posterior %v, want %v", posterior(tp), want)
			break
		}
	}
}

// TestPriorOverturnsAWrongPrior: the library holds only the two-way template (prior 0.9); the
// pair moves to state 1 nine times in ten. The evidence overturns the prior: by hand the new
// component's posterior is 0.357 after 18 : 2 samples (the prior still holds) and 0.938 after
// 45 : 5.
func TestPriorOverturnsAWrongPrior(t *testing.T) {
	tp := priorAgent(t, twoWay)
	tenth := func(k int) {
		for j := range k {
			next := 1
			if j%10 == 9 {
				next = 2
			}
			feed(tp, next)
		}
	}
	tenth(20)
	if p := posterior(tp)[1]; math.Abs(p-0.3571125) > 1e-6 {
		t.Errorf("after 18 : 2, P(new) = %v, want 0.3571125", p)
	}
	tenth(30)
	if p := posterior(tp)[1]; math.Abs(p-0.9384245) > 1e-6 {
		t.Errorf("after 45 : 5, P(new) = %v, want 0.9384245", p)
	}
}

// TestPriorLearnsTheLibrary: with an empty library every pair has the new component alone; a pair
// with m_s = 10 own samples to one state gives the library a deterministic template at the end of
// the task, and in the next task its prior weight is 1 − ν = 0.9. One sample then gives it, by
// hand, 0.9·(1/S)·√(1/1.02) against the new component's 0.1·0.1·√(1/2): posterior 0.9264.
func TestPriorLearnsTheLibrary(t *testing.T) {
	tp := priorAgent(t)
	feed(tp, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3)
	if len(tp.mix.weights(0)) != 1 {
		t.Fatalf("%d components with an empty library, want the new one alone", len(tp.mix.weights(0)))
	}
	tp.EndTask()
	if tp.mix.lib.Len() != 1 || tp.mix.lib.Templates()[0].N() != 10 {
		t.Fatalf("library of %d templates, want one holding the 10 samples", tp.mix.lib.Len())
	}
	if err := tp.BeginTask(agent.Task{Index: 1, S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	feed(tp, 7)
	want := 0.9 * 0.1 * math.Sqrt(1/1.02) / (0.9*0.1*math.Sqrt(1/1.02) + 0.1*0.1*math.Sqrt(0.5))
	if p := posterior(tp)[0]; math.Abs(p-want) > 1e-9 {
		t.Errorf("P(deterministic) after one sample %v, want %v", p, want)
	}
}

// TestPriorParamsValidate names the key out of range.
func TestPriorParamsValidate(t *testing.T) {
	for _, c := range []struct {
		set  func(*PriorParams)
		want string
	}{
		{func(p *PriorParams) { p.Ms = 0 }, "m_s = 0"},
		{func(p *PriorParams) { p.Tau = math.NaN() }, "tau = NaN"},
		{func(p *PriorParams) { p.Strength = 0 }, "strength = 0"},
		{func(p *PriorParams) { p.NewShare = 1 }, "new_share = 1"},
		{func(p *PriorParams) { p.TemplateRewards = "some" }, `template_rewards "some", want "transfer" or "own"`},
	} {
		p := DefaultPriorParams()
		c.set(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate = %v, want it to contain %q", err, c.want)
		}
	}
}

// episodePSRL is PSRL with the sparse prior and a draw per episode, template-prior's base.
func episodePSRL(t testing.TB) *learners.PSRL {
	t.Helper()
	p := learners.DefaultPSRL()
	p.PriorSupport, p.Schedule = learners.ObservedStates, learners.PerEpisode
	p.RewardMin, p.RewardMax = learners.Bound(0), learners.Bound(1) // the range these tests were worked on
	l, err := learners.NewPSRL(p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// drawsOnOwnSamples is template-prior on schedule r, with a deterministic template in its library,
// as its pair 0 moves to state 1 again and again: the own samples after which it drew a model,
// up to the last, and whether the end of an episode then drew one; it returns the learner too.
func drawsOnOwnSamples(t *testing.T, r PSRLModel, last int) (*TemplatePrior, []int, bool) {
	t.Helper()
	tp, err := NewTemplatePrior(DefaultPriorParams(), r, episodePSRL(t))
	if err != nil {
		t.Fatal(err)
	}
	tp.mix.given[tp.mix.lib.Add(deterministic, 0).ID] = 1
	if err := tp.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	var drawn []int
	for k := 1; k <= last; k++ {
		v := tp.PolicyVersion()
		tp.Observe(0, 0, 0, 1)
		if tp.PolicyVersion() != v {
			drawn = append(drawn, k)
		}
	}
	v := tp.PolicyVersion()
	tp.EndEpisode()
	return tp, drawn, tp.PolicyVersion() != v
}

// TestPriorTSDECountsOwnSamples: with TSDE, template-prior ends an epoch as learners.TSDE does,
// on own samples alone. A pair moving to state 1 every time, with a deterministic template in the
// library: the first sample doubles its count from 0 (a draw), the 3rd makes the epoch (2
// samples) longer than the last (1), the 6th makes it 3 > 2 — draws after samples 1, 3 and 6,
// although the pair's statistics hold 50 placed counts more than its own from the first draw on.
func TestPriorTSDECountsOwnSamples(t *testing.T) {
	_, drawn, atEnd := drawsOnOwnSamples(t, PSRLModel{RewardMean: 0, RewardSD: 1, RewardNoise: 1, Schedule: DrawTSDE}, 7)
	if want := []int{1, 3, 6}; !slices.Equal(drawn, want) {
		t.Errorf("draws after own samples %v, want %v", drawn, want)
	}
	if atEnd {
		t.Errorf("the end of an episode drew a model under TSDE")
	}
}

// With Beta rewards on [0, 1] the rewards' marginal likelihoods are, by hand: two rewards of 1
// under the new component's Beta(1, 1), B(3, 1)/B(1, 1) = 1/3; under a template of reward 1 and
// strength 50, Beta(51, 1), B(53, 1)/B(51, 1) = 51/53; one reward of 0.5 under Beta(1, 1),
// Γ(1.5)²/Γ(3) = π/8. Rewards of −1 on [−1, 1] are 0 scaled: B(1, 3)/B(1, 1) = 1/3 for two.
func TestPriorBetaRewardsByHand(t *testing.T) {
	tp, err := NewTemplatePrior(DefaultPriorParams(), PSRLModel{Beta: true, RewardMin: 0, RewardMax: 1}, episodePSRL(t))
	if err != nil {
		t.Fatal(err)
	}
	g := template.Point{P: []float64{1}, R: 1}
	for _, c := range []struct {
		name    string
		n       int64
		sum, sq float64
		g       *template.Point
		want    float64
	}{
		{"new, rewards 1 and 1", 2, 2, 2, nil, 1.0 / 3},
		{"template of reward 1, rewards 1 and 1", 2, 2, 2, &g, 51.0 / 53},
		{"new, reward 0.5", 1, 0.5, 0.25, nil, math.Pi / 8},
		{"no rewards", 0, 0, 0, &g, 1},
	} {
		if got := math.Exp(tp.mix.rewardML(c.n, c.sum, c.sq, c.g, tp.r)); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: marginal likelihood %v, want %v", c.name, got, c.want)
		}
	}
	tp.r.RewardMin, tp.r.RewardMax = -1, 1
	if got := math.Exp(tp.mix.rewardML(2, -2, 2, nil, tp.r)); math.Abs(got-1.0/3) > 1e-12 {
		t.Errorf("rewards −1 and −1 on [−1, 1]: %v, want 1/3", got)
	}
	if _, err := NewTemplatePrior(DefaultPriorParams(), PSRLModel{Beta: true, RewardMin: 1, RewardMax: 1}, episodePSRL(t)); err == nil ||
		!strings.Contains(err.Error(), "reward_max > reward_min") {
		t.Errorf("an empty reward range: %v", err)
	}
}

// With TaskRange the Beta range is each task's, by hand: on a task stating [−1, 1], rewards −1
// and −1 scale to 0, B(1, 3)/B(1, 1) = 1/3 under the new component, as on [−1, 1] given; on the
// next task stating [−2, 0] the same rewards scale to 0.5 each, B(2, 2)/B(1, 1) = 1/6; on a task
// stating none, template-prior and latent-psrl refuse it (their PSRL base says what to give). A
// task whose every reward is −1 (a range of one point) scales them to 0.
func TestPriorBetaOnTheTasksRange(t *testing.T) {
	base := func() *learners.PSRL { // the base on the task's range too, as the registry builds it
		p := learners.DefaultPSRL()
		p.Schedule = learners.PerEpisode
		l, err := learners.NewPSRL(p)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	r := PSRLModel{Beta: true, TaskRange: true}
	tp, err := NewTemplatePrior(DefaultPriorParams(), r, base())
	if err != nil {
		t.Fatal(err)
	}
	stating := func(lo, hi float64) agent.Task {
		return agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1)), Rewards: &agent.RewardRange{Min: lo, Max: hi}}
	}
	for _, c := range []struct {
		lo, hi, want float64
	}{{-1, 1, 1.0 / 3}, {-2, 0, 1.0 / 6}, {-1, -1, 1.0 / 3}} {
		if err := tp.BeginTask(stating(c.lo, c.hi)); err != nil {
			t.Fatal(err)
		}
		if got := math.Exp(tp.mix.rewardML(2, -2, 2, nil, tp.r)); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("rewards −1 and −1 on a task stating [%v, %v]: %v, want %v", c.lo, c.hi, got, c.want)
		}
		tp.EndTask()
	}
	lp, err := NewLatentPrior(DefaultLatentParams(), r, base())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ag   agent.Agent
	}{{"template-prior", tp}, {"latent-psrl", lp}} {
		if err := c.ag.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err == nil ||
			!strings.Contains(err.Error(), "states no reward range") {
			t.Errorf("%s on a task stating no reward range: error %v, want one saying so", c.name, err)
		}
	}
}

// Under the doubling rule, a pair moving to state 1 every time draws when its own samples in the
// epoch reach max(1, its count when the epoch began): after own samples 1, 2, 4 and 8 — placed
// pseudo-counts (50 from the first draw on) end no epoch — and never at an episode's end.
func TestPriorDoublingCountsOwnSamples(t *testing.T) {
	tp, drawn, atEnd := drawsOnOwnSamples(t, PSRLModel{Beta: true, RewardMax: 1, Schedule: DrawDoubling}, 10)
	if want := []int{1, 2, 4, 8}; !slices.Equal(drawn, want) {
		t.Errorf("draws after own samples %v, want %v", drawn, want)
	}
	if tp.placedPairs() != 1 {
		t.Errorf("%d pairs placed, want the one pair with the deterministic template", tp.placedPairs())
	}
	if atEnd {
		t.Errorf("the end of an episode drew a model under the doubling rule")
	}
}

// The placement diagnostics, by hand: a library of a deterministic and a two-way template; pair 0
// placed with the deterministic one after 10 own samples to one state, its truth (right, m_s = 10
// samples); pair 1 placed partially with the two-way one after one sample, its truth
// deterministic (wrong, partial, few samples); pair 2 placed with the deterministic one after 12
// samples to one state, its truth two-way (wrong, enough samples). Placed 3, partial 1/3, wrong
// 2/3; with at least m_s own samples 2, of them wrong 1/2.
func TestPriorPlacementDiagnostics(t *testing.T) {
	tp := priorAgent(t, []template.Count{{Rank: 0, N: 10}}, []template.Count{{Rank: 0, N: 5}, {Rank: 1, N: 5}})
	det, two := tp.mix.comps[0].g, tp.mix.comps[1].g
	if ranks(det) != 1 || ranks(two) != 2 {
		t.Fatalf("components of %d and %d ranks, want 1 and 2", ranks(det), ranks(two))
	}
	truth := template.Truth{S: 10, A: 1, Templates: []template.Point{det, two}, PairTemplate: []int{0, 0, 1, -1, -1, -1, -1, -1, -1, -1}}
	tp.truth = &truth
	for _, c := range []struct {
		pair, samples int
		comp          int32
	}{{0, 10, 0}, {1, 1, 1}, {2, 12, 0}} {
		tp.own.Add(c.pair, 5, int64(c.samples), 0)
		tp.placed[c.pair], tp.choice[c.pair] = true, c.comp
	}
	got := map[string]float64{}
	for _, m := range tp.TaskMetrics() {
		got[m.Name] = m.Value
	}
	for name, want := range map[string]float64{"placed_pairs": 3, "partial_placements": 1.0 / 3, "wrong_placements": 2.0 / 3,
		"placed_pairs_ms": 2, "wrong_placements_ms": 0.5} {
		if math.Abs(got[name]-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got[name], want)
		}
	}
}

// With template_rewards own, by hand: the pair's own posterior mean — under N(0, 1), noise 1,
// rewards 1, 1 and 1: 3/(1 + 3) = 0.75; under Beta on [0, 1], rewards 1 and 1: (1 + 2)/(2 + 2);
// on [−1, 1], one reward −1: −1 + 2·(1 + 0)/(2 + 1) — is what each placed pseudo-count carries
// (with transfer, the template's reward, 0), and every component's reward marginal is the new
// component's, so that the weights compare next states alone.
func TestPriorOwnRewardsByHand(t *testing.T) {
	for _, c := range []struct {
		name string
		r    PSRLModel
		n    int64
		sum  float64
		want float64
	}{
		{"normal", PSRLModel{RewardMean: 0, RewardSD: 1, RewardNoise: 1}, 3, 3, 0.75},
		{"normal, narrow prior", PSRLModel{RewardMean: 0.5, RewardSD: 0.1, RewardNoise: 1}, 1, 1, (0.5*100 + 1) / 101},
		{"beta", PSRLModel{Beta: true, RewardMin: 0, RewardMax: 1}, 2, 2, 0.75},
		{"beta on [-1, 1]", PSRLModel{Beta: true, RewardMin: -1, RewardMax: 1}, 1, -1, -1.0 / 3},
		{"no samples", PSRLModel{RewardMean: 0.2, RewardSD: 1, RewardNoise: 1}, 0, 0, 0.2},
	} {
		if got := c.r.ownMean(c.n, c.sum); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: own mean %v, want %v", c.name, got, c.want)
		}
	}
	for _, rewards := range []TemplateRewards{TransferRewards, OwnRewards} {
		tp := priorAgent(t, []template.Count{{Rank: 0, N: 5}})
		tp.mix.p.TemplateRewards, tp.p.TemplateRewards = rewards, rewards
		for range 3 {
			tp.Observe(0, 0, 1, 1)
		}
		g := tp.mix.comps[0].g
		if !tp.place(0, g, tp.mix.placedReward(g, &tp.own, 0, tp.r), tp.p.Strength, tp.p.Partial) {
			t.Fatalf("%s: the deterministic template was not placed on a pair that has seen one state", rewards)
		}
		want := 3.0 // own rewards; the template's reward is 0
		if rewards == OwnRewards {
			want += 50 * 0.75
		}
		if got := tp.st.Counts().R(0); math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: the pair's reward sum with the template placed %v, want %v", rewards, got, want)
		}
		same := tp.mix.rewardML(3, 3, 3, &g, tp.r) == tp.mix.rewardML(3, 3, 3, nil, tp.r)
		if same != (rewards == OwnRewards) {
			t.Errorf("%s: the template's reward marginal equals the new component's: %v", rewards, same)
		}
	}
}
