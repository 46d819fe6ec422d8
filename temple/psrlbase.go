package temple

import (
	"fmt"
	"math"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

// DrawSchedule is when a learner that draws its PSRL base's models itself (TemplatePrior,
// LatentPrior) draws a model; each is PSRL's schedule of that name (learners.PSRLSchedule),
// counting own samples only: pseudo-counts placed beside them end no epoch.
type DrawSchedule int

const (
	// DrawPerEpisode draws at the end of every runner episode.
	DrawPerEpisode DrawSchedule = iota
	// DrawTSDE draws when the epoch has run longer than the last one or a pair's own count has
	// more than doubled since it began (Ouyang et al. 2017, as learners.TSDE).
	DrawTSDE
	// DrawDoubling draws when a pair's own samples in the epoch reach max(1, its own count when
	// the epoch began): UCRL2's doubling rule, as learners.Doubling.
	DrawDoubling
)

// drawClock keeps a DrawSchedule's epochs: own samples when the epoch began, the last epoch's
// length, and each pair's own count when it began.
type drawClock struct {
	schedule            DrawSchedule
	epochStart, lastLen int64
	nk                  []int64
}

// reset begins a task of n pairs.
func (d *drawClock) reset(n int) {
	d.epochStart, d.lastLen = 0, 1 // T_0 = 1, as learners.PSRL
	d.nk = buf.Zeroed(d.nk, n)
}

// ends reports whether the epoch ends after own sample total of the task, pair i's n-th, and if
// so begins counting the next epoch's length.
func (d *drawClock) ends(total int64, i int, n int64) bool {
	switch {
	case d.schedule == DrawTSDE && (total-d.epochStart > d.lastLen || n > 2*d.nk[i]):
		d.lastLen = total - d.epochStart
		return true
	case d.schedule == DrawDoubling && n-d.nk[i] >= max(1, d.nk[i]):
		return true
	}
	return false
}

// atEpisodeEnd reports whether the schedule draws at the end of every runner episode.
func (d *drawClock) atEpisodeEnd() bool { return d.schedule == DrawPerEpisode }

// PSRLModel is what TemplatePrior and LatentPrior take of their PSRL base: the model of a pair's
// rewards, which their components' likelihoods share, and when to draw a model. The base itself
// must draw at every call of its EndEpisode (PSRL's schedule episode): the learner draws its
// components and then calls it, on Schedule.
type PSRLModel struct {
	// Normal rewards (Beta false): the mean reward ~ N(RewardMean, RewardSD²) under the "new
	// template" component, each reward ~ N(mean, RewardNoise²).
	RewardMean, RewardSD, RewardNoise float64
	// LearnedNoise (in HybridPrior's weights, identify_variance learned): Normal rewards whose
	// noise is unknown, Normal–Gamma a priori (normalGamma); RewardNoise is its prior scale.
	LearnedNoise bool
	// SharedNoise (learners.SharedNoiseReward): the base draws with the noise learned, one for all
	// of a task's pairs, and the components' likelihoods take it as known at the family's value
	// (familyNoise); RewardNoise is the prior's guess.
	SharedNoise bool
	// Beta rewards (learners.BetaReward): rewards scaled to [0, 1] by RewardMin and RewardMax — or,
	// with TaskRange, by the range each task states (agent.Task.Rewards), as PSRL's own defaults —,
	// the scaled sum x of n rewards clamped to [0, n], the mean θ ~ Beta(1, 1) under "new", and the
	// likelihood θ^x·(1 − θ)^(n−x), the Bernoulli's at fractional x, as PSRL's posterior counts it.
	Beta                 bool
	RewardMin, RewardMax float64
	TaskRange            bool
	Schedule             DrawSchedule
}

// ownMean is the posterior mean of a pair's mean reward given n own rewards of sum sum, under r's
// prior: the Normal posterior's mean (normalPosterior), or the Beta posterior's a/(a + b)
// (betaPosterior) mapped back to the reward range. (Under normal-shared-noise σ is the family's
// noise, as the components' likelihoods take it.)
func (r PSRLModel) ownMean(n int64, sum float64) float64 {
	if r.Beta {
		a, b := r.betaPosterior(n, sum)
		return r.RewardMin + (r.RewardMax-r.RewardMin)*a/(a+b)
	}
	mean, _ := r.normalPosterior(n, sum)
	return mean
}

// forTask is r on task t: with TaskRange, its Beta range is the task's; with SharedNoise, its
// noise the family's, given the earlier tasks' rewards (family).
func (r PSRLModel) forTask(typ string, t agent.Task, family familyNoise) (PSRLModel, error) {
	if r.SharedNoise {
		r.RewardNoise = family.sd(r.RewardNoise)
	}
	if !r.Beta || !r.TaskRange {
		return r, nil
	}
	if t.Rewards == nil {
		return r, fmt.Errorf("%s: Beta rewards on the task's reward range, but task %d states none: give reward_min and reward_max", typ, t.Index)
	}
	if err := t.Rewards.Check(); err != nil {
		return r, fmt.Errorf("%s: task %d: %w", typ, t.Index, err)
	}
	r.RewardMin, r.RewardMax = t.Rewards.Min, t.Rewards.Max
	return r, nil
}

// familyNoise is what the learners over PSRL take for the reward noise σ under
// learners.SharedNoiseReward, where their base learns σ² within each task: the spread of the own
// rewards of the tasks they have finished about their pairs' means, pooled, SS over d = Σ(n − 1)₊
// degrees of freedom. A task's components take σ as known (so that their likelihoods, and a
// weight computed on a pair's samples up to its last reweighing, are the same whenever they are
// computed) at the scale of σ²'s posterior given them, √((ν₀·σ_g² + SS)/(ν₀ + d)), ν₀ = 1 and
// σ_g the config's reward_noise, as the base's prior (learners.SharedNoiseReward). It is
// empirical Bayes: one noise for the family, estimated from the earlier tasks, whose components
// — models and templates — are what the likelihoods compare this task's rewards with.
type familyNoise struct {
	ss  float64
	dof int64
}

// ownRewards is what the learners over PSRL keep of a task's own rewards beside overBase's
// counts: each pair's sum of squares, for their reward likelihoods, and the family's reward noise
// pooled from the finished tasks (familyNoise, used under learners.SharedNoiseReward).
type ownRewards struct {
	ownSq []float64 // per pair, the sum of its own rewards' squares
	noise familyNoise
}

// beginRewards begins a task of n pairs.
func (o *ownRewards) beginRewards(n int) { o.ownSq = buf.Zeroed(o.ownSq, n) }

// endRewards pools the finished task's own rewards (own: its counts) into the family's noise
// when r learns it.
func (o *ownRewards) endRewards(own *mdp.Counts, r PSRLModel) {
	if r.SharedNoise {
		o.noise.add(own, o.ownSq)
	}
}

// add pools the own rewards of a finished task: per pair, its count, sum and sum of squares sq.
func (f *familyNoise) add(own *mdp.Counts, sq []float64) {
	for i, q := range sq {
		n, sum := own.N(i), own.R(i)
		if n < 2 {
			continue
		}
		f.ss += max(q-sum*sum/float64(n), 0) // rounding can leave a constant pair's a little below 0
		f.dof += n - 1
	}
}

// sd is σ given the prior's guess.
func (f familyNoise) sd(guess float64) float64 {
	const nu0 = 1
	return math.Sqrt((nu0*guess*guess + f.ss) / (nu0 + float64(f.dof)))
}

// validate names the first of r's settings that the learner typ cannot use.
func (r PSRLModel) validate(typ string) error {
	switch {
	case r.Beta && !r.TaskRange && !(r.RewardMax > r.RewardMin):
		return fmt.Errorf("%s: reward range [%v, %v], want reward_max > reward_min", typ, r.RewardMin, r.RewardMax)
	case !r.Beta && !(r.RewardSD > 0 && r.RewardNoise > 0):
		return fmt.Errorf("%s: reward prior sd %v and noise %v, want both > 0", typ, r.RewardSD, r.RewardNoise)
	case r.Schedule < DrawPerEpisode || r.Schedule > DrawDoubling:
		return fmt.Errorf("%s: draw schedule %d, want DrawPerEpisode, DrawTSDE or DrawDoubling", typ, r.Schedule)
	}
	return nil
}

// scaled is a sum of n rewards scaled to [0, 1] each by RewardMin and RewardMax, clamped to
// [0, n], as PSRL's Beta posterior counts it; 0 on a task whose every reward is RewardMin.
func (r PSRLModel) scaled(n int64, sum float64) float64 {
	if r.RewardMax == r.RewardMin {
		return 0
	}
	return min(max((sum-float64(n)*r.RewardMin)/(r.RewardMax-r.RewardMin), 0), float64(n))
}

// The marginal likelihood of a pair's n rewards (their sum and sum of squares) when the pair's
// mean reward has the posterior of r's prior given nm earlier rewards of sum sm — Beta(1 + x_m,
// 1 + nm − x_m) at the scaled sum x_m, or the Normal posterior of N(RewardMean, RewardSD²) given
// nm rewards of noise RewardNoise — is, in logs, rewardData(n, …) − rewardNorm(nm, sm): the
// normaliser depends on the earlier rewards alone, so a learner that adds rewards one by one
// computes it once.
func (r PSRLModel) rewardData(n int64, sum, sq float64, nm int64, sm float64) float64 {
	if r.Beta {
		a, b := r.betaPosterior(nm, sm)
		x := r.scaled(n, sum)
		return lgamma(a+x) + lgamma(b+float64(n)-x) - lgamma(a+b+float64(n))
	}
	mean, v := r.normalPosterior(nm, sm)
	return normalML(n, sum, sq, mean, v, r.RewardNoise*r.RewardNoise)
}

// normalPosterior is the mean and variance of N(RewardMean, RewardSD²) updated with nm rewards of
// sum sm and noise RewardNoise.
func (r PSRLModel) normalPosterior(nm int64, sm float64) (mean, v float64) {
	v0, noise2 := r.RewardSD*r.RewardSD, r.RewardNoise*r.RewardNoise
	v = 1 / (1/v0 + float64(nm)/noise2)
	return v * (r.RewardMean/v0 + sm/noise2), v
}

// normalGamma is the Normal–Gamma prior of a pair's rewards under LearnedNoise: the noise's
// precision 1/σ² ~ Gamma(1, σ_id²) (shape 1, rate σ_id² = RewardNoise²: σ_id is its scale) and
// the mean μ | σ² ~ N(m, σ²/κ₀). Under the new component (g nil) m is RewardMean and
// κ₀ = σ_id²/RewardSD², so that at noise σ_id the mean's prior is N(RewardMean, RewardSD²) as
// under known noise; under template g, m is g's reward and κ₀ its strength c, as the known-noise
// prior N(g.R, σ_id²/c).
func (r PSRLModel) normalGamma(g *template.Point, c float64) normalGamma {
	noise2 := r.RewardNoise * r.RewardNoise
	if g == nil {
		return normalGamma{mean: r.RewardMean, k0: noise2 / (r.RewardSD * r.RewardSD), a0: 1, b0: noise2}
	}
	return normalGamma{mean: g.R, k0: c, a0: 1, b0: noise2}
}

// rewardNorm is the normaliser of rewardData: ln B(a, b) of the Beta posterior, 0 for the Normal.
func (r PSRLModel) rewardNorm(nm int64, sm float64) float64 {
	if !r.Beta {
		return 0
	}
	a, b := r.betaPosterior(nm, sm)
	return lgamma(a) + lgamma(b) - lgamma(a+b)
}

// betaPosterior is Beta(1, 1) updated with nm rewards of sum sm, scaled.
func (r PSRLModel) betaPosterior(nm int64, sm float64) (a, b float64) {
	xm := r.scaled(nm, sm)
	return 1 + xm, 1 + float64(nm) - xm
}

// drawnBase is a PSRL whose models a template or latent-model learner draws: schedule episode,
// so that it draws at the calls of EndEpisode the learner makes.
func drawnBase(p learners.PSRLParams) learners.PSRLParams {
	p.Schedule = learners.PerEpisode
	return p
}

// psrlModel is what the learners over PSRL take of its keys: the reward model and the schedule
// they draw on.
func psrlModel(p learners.PSRLParams) PSRLModel {
	schedule := map[learners.PSRLSchedule]DrawSchedule{
		learners.PerEpisode: DrawPerEpisode, learners.TSDE: DrawTSDE, learners.Doubling: DrawDoubling,
	}[p.Schedule]
	return PSRLModel{RewardMean: p.RewardMean, RewardSD: p.RewardSD, RewardNoise: p.RewardNoise,
		Beta: p.RewardPosterior == learners.BetaReward, SharedNoise: p.RewardPosterior == learners.SharedNoiseReward, RewardMin: p.RewardMin.Value, RewardMax: p.RewardMax.Value,
		TaskRange: !p.RewardMin.Given, Schedule: schedule}
}
