package learners

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/internal/buf"
)

// sharedNoise is the posterior of the reward noise σ² under reward_posterior normal-shared-noise:
// one σ² for all of a task's pairs (each pair's rewards ~ N(μ(s,a), σ²)), a scaled
// inverse-χ²(ν₀, σ_g²) prior with ν₀ = 1 and σ_g the config's reward_noise, updated by the
// pairs' own rewards about their own means:
//
//	σ² | D ~ Scale-inv-χ²(ν₀ + d, (ν₀·σ_g² + SS)/(ν₀ + d)),  SS = Σ_(s,a) Σ_j (r_j − r̄(s,a))²,  d = Σ_(s,a) (n(s,a) − 1)₊
//
// This is σ²'s exact marginal posterior when the pair means have flat priors; under PSRL's
// N(μ₀, σ₀²) prior on the means it is an approximation (it leaves out what the means' prior says
// of σ², a term that vanishes as the pairs' counts grow). A draw takes σ² from it and then every
// pair's mean from its Normal posterior given σ² (sampleReward), a collapsed draw of the joint
// posterior under that approximation (with redraw: changed, the pairs not drawn anew keep means
// drawn under an earlier σ²). Only the pair's own samples (Record) count: the pseudo-counts of
// Augment and Replace carry a reward sum and no spread. Not in the paper, our
// choice: on terrain, whose rewards are exact, PSRL's Normal posterior did well only when tuning
// happened to draw a reward_noise below about 0.03 (docs/decisions.md, decision 53).
type sharedNoise struct {
	on   bool      // reward_posterior normal-shared-noise, read once a task (Record is per step)
	n    []int64   // per pair, its own samples
	mean []float64 // per pair, its own rewards' mean r̄(s,a)
	ss   float64   // SS, by Welford's update
	dof  int64     // d
}

// reset begins a task of n pairs, with the shared noise on or off (then nothing is kept).
func (s *sharedNoise) reset(n int, on bool) {
	s.on, s.ss, s.dof = on, 0, 0
	if on {
		s.n = buf.Zeroed(s.n, n)
		s.mean = buf.Zeroed(s.mean, n)
	}
}

// record adds pair i's own reward r.
func (s *sharedNoise) record(i int, r float64) {
	s.n[i]++
	d := r - s.mean[i]
	s.mean[i] += d / float64(s.n[i])
	s.ss += d * (r - s.mean[i])
	if s.n[i] > 1 {
		s.dof++
	}
}

// draw returns a σ² from the posterior, given the prior's guess σ_g: (ν₀·σ_g² + SS)/X for
// X ~ χ²(ν₀ + d), drawn as 2·Gamma((ν₀ + d)/2).
func (s *sharedNoise) draw(rng *rand.Rand, guess float64) float64 {
	const nu0 = 1
	return (nu0*guess*guess + s.ss) / (2 * gammaVariate(rng, (nu0+float64(s.dof))/2))
}

// noisePrecision is 1/σ² of this draw's Normal reward posterior: the config's reward_noise, or
// under normal-shared-noise one σ² drawn from its posterior (one Gamma variate per draw, taken
// before any pair's; the other reward posteriors draw none).
func (l *PSRL) noisePrecision() float64 {
	if l.noise.on {
		return 1 / l.noise.draw(l.rng, l.P.RewardNoise)
	}
	return 1 / (l.P.RewardNoise * l.P.RewardNoise)
}
