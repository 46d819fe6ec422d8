package learners

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
)

// The shared noise's posterior by hand: pair 0 paid 1 and 3 (SS 2, one degree of freedom), pair 1
// paid 5 once (none), pair 2 paid 0, 0 and 3 (SS 6, two): SS 8, d 3. With the guess σ_g = 2 and
// ν₀ = 1, σ² ~ Scale-inv-χ²(4, 3), so the precision 1/σ² ~ Gamma(2, rate 6): mean 1/3,
// variance 1/18. The mean of 200 000 draws is within four standard errors of 1/3.
func TestSharedNoisePosteriorByHand(t *testing.T) {
	var s sharedNoise
	s.reset(3, true)
	for _, x := range []struct {
		i int
		r float64
	}{{0, 1}, {0, 3}, {1, 5}, {2, 0}, {2, 0}, {2, 3}} {
		s.record(x.i, x.r)
	}
	if math.Abs(s.ss-8) > 1e-12 || s.dof != 3 {
		t.Fatalf("SS %v over %d degrees of freedom, want 8 over 3", s.ss, s.dof)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const draws = 200000
	sum := 0.0
	for range draws {
		sum += 1 / s.draw(rng, 2)
	}
	if mean, se := sum/draws, math.Sqrt(1.0/18/draws); math.Abs(mean-1.0/3) > 4*se {
		t.Errorf("mean precision %v over %d draws, want 1/3 ± %v", mean, draws, 4*se)
	}
}

// On a task whose every pair pays a constant, PSRL with the shared noise learns that the noise is
// small: after 100 samples of each of four pairs its draws' noise is far below the guess σ_g = 1
// (the Normal posterior of known noise keeps σ = 1), so a pair's sampled mean reward is within
// 0.05 of what it paid.
func TestPSRLSharedNoiseLearnsExactRewards(t *testing.T) {
	p := DefaultPSRL()
	p.RewardPosterior, p.Schedule = SharedNoiseReward, PerEpisode
	l, err := NewPSRL(p)
	if err != nil {
		t.Fatal(err)
	}
	l.Begin(agent.Task{S: 2, A: 2, Gamma: 0.9, Rand: rand.New(rand.NewPCG(3, 4))})
	for j := range 400 {
		i := j % 4
		l.Record(i, i%2, 0.25*float64(i))
	}
	for range 20 {
		if sigma := math.Sqrt(1 / l.noisePrecision()); sigma > 0.2 {
			t.Fatalf("a draw's noise σ = %v after 400 exact rewards, want far below the guess 1", sigma)
		}
	}
	l.EndEpisode()
	for i := range 4 {
		if got := l.agg.r[i]; math.Abs(got-0.25*float64(i)) > 0.05 {
			t.Errorf("pair %d's sampled mean reward %v, want within 0.05 of %v", i, got, 0.25*float64(i))
		}
	}
}
