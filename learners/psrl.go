package learners

import (
	"fmt"
	"math"
	"math/rand/v2"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// PSRLSchedule is when PSRL draws a new model.
type PSRLSchedule string

const (
	// PerEpisode draws a model at the start of every runner episode, as in Osband, Russo & Van
	// Roy (2013), whose episodes are of known length.
	PerEpisode PSRLSchedule = "episode"
	// TSDE draws a model when the current epoch has run longer than the last one, or when some
	// pair's count n(s,a) has more than doubled since the epoch began — Thompson sampling with
	// dynamic episodes (Ouyang, Gagrani, Nayyar & Jain 2017), made for tasks without resets. Epoch
	// lengths grow by one, so a task of T steps draws about √(2T) models plus the doublings,
	// however short the runner's episodes.
	TSDE PSRLSchedule = "tsde"
	// Doubling draws a model when some pair's samples in the current epoch ν(s,a) reach
	// max(1, n_k(s,a)), its count when the epoch began: UCRL2's episode rule (Jaksch, Ortner &
	// Auer 2010), the schedule of StatisticalRL's PSRL. It draws O(S·A·log T) models.
	Doubling PSRLSchedule = "doubling"
)

// RewardPosterior is the family of PSRL's posterior of a pair's mean reward.
type RewardPosterior string

const (
	// NormalReward is the Normal posterior of a N(μ₀, σ₀²) prior under Normal rewards of known
	// noise σ (reward_mean, reward_sd, reward_noise).
	NormalReward RewardPosterior = "normal"
	// BetaReward is the Beta(1, 1) prior on the mean of rewards scaled to [0, 1] by a range
	// [lo, hi] — the task's (agent.Task.Rewards) unless reward_min and reward_max give one — with
	// fractional updates: a reward r adds its scaled value x = (r − lo)/(hi − lo) to the first
	// parameter and 1 − x to the second (the posterior of Bernoulli rewards, applied to rewards in
	// [0, 1]; Agrawal & Goyal 2012's Thompson sampling, as StatisticalRL's PSRL does). It narrows
	// like 1/n whatever the scale. A reward outside the range is clamped (the pair's scaled sum to
	// [0, n]) and counted (agent.Stats.RewardClamps, reward_clamps in metrics.csv).
	BetaReward RewardPosterior = "beta"
	// SharedNoiseReward is NormalReward with the noise σ² unknown and one for all of a task's
	// pairs, learned from their own rewards (sharedNoise; not in the paper, docs/decisions.md
	// decision 53): reward_noise is the prior's guess of σ, worth one sample.
	SharedNoiseReward RewardPosterior = "normal-shared-noise"
)

// Normal reports whether p's reward posterior is Normal (normal or normal-shared-noise; "" is
// normal).
func (p RewardPosterior) Normal() bool { return p != BetaReward }

// RewardBound is one end of the Beta posterior's reward range: a number given by the config, or
// the task's own smallest or largest reward (the zero value, written "task"), which the runner
// states when the task begins (agent.Task.Rewards).
type RewardBound struct {
	Value float64
	Given bool // false: the task's
}

// TaskBound is the bound "task": the task's own.
const TaskBound = "task"

// Bound is the bound v, given.
func Bound(v float64) RewardBound { return RewardBound{Value: v, Given: true} }

func (b RewardBound) String() string {
	if !b.Given {
		return TaskBound
	}
	return fmt.Sprint(b.Value)
}

// MarshalYAML writes the number, or task.
func (b RewardBound) MarshalYAML() (any, error) {
	if !b.Given {
		return TaskBound, nil
	}
	return b.Value, nil
}

// UnmarshalYAML reads a number, or task.
func (b *RewardBound) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Value == TaskBound {
		*b = RewardBound{}
		return nil
	}
	var v float64
	if n.Kind != yaml.ScalarNode || n.Decode(&v) != nil {
		return fmt.Errorf("line %d: %q, want a number or %s (the task's own)", n.Line, n.Value, TaskBound)
	}
	*b = Bound(v)
	return nil
}

// PriorSupport is which next states PSRL's Dirichlet prior puts its α₀ on.
type PriorSupport string

const (
	// AllStates is the Dirichlet(α₀, …, α₀) prior over all S next states (Osband et al.).
	AllStates PriorSupport = "all"
	// ObservedStates puts α₀ only on the next states the pair has been seen to reach, the usual
	// practical prior when S is large and each pair reaches few states: the posterior is
	// Dirichlet(α₀ + n(s,a,s′)) over the observed s′ alone. A pair without a sample keeps the
	// prior over all S states.
	ObservedStates PriorSupport = "observed"
)

// PSRLSampling is how PSRL draws and solves its model.
type PSRLSampling string

const (
	// Aggregate draws, per pair, a Gamma variate for each next state it has been seen to reach and
	// one for the mass of all the others together — the Dirichlet posterior's exact marginal over
	// that partition (its aggregation property) — and spreads that mass evenly over the unseen
	// states (its expectation given the aggregate) instead of drawing how it splits. The sampled
	// model is sparse: a pair's row is its observed successors plus one number, so a draw costs
	// O(S·A + samples' support) variates instead of S·A·S, and it is solved by Gauss–Seidel value
	// iteration warm-started from the last sample's values, to plan_tolerance, at the cost of a
	// sparse sweep (the mean value of the unseen states comes from the sum of all values).
	Aggregate PSRLSampling = "aggregate"
	// Dense draws the whole Dirichlet, S variates per pair, and solves the dense sampled model
	// exactly by policy iteration: the sampler before aggregate, whose results it keeps.
	Dense PSRLSampling = "dense"
)

// PSRLRedraw is which pairs a draw of aggregate sampling samples anew.
type PSRLRedraw string

const (
	// RedrawAll samples every pair at every draw: the posterior sampling of Osband et al.
	RedrawAll PSRLRedraw = "all"
	// RedrawChanged samples anew, at a draw, only the pairs whose statistics changed since their
	// last sample, and keeps the others' samples, except at a full draw, which samples every pair:
	// the first draw after more samples than between the last two full draws (so, as TSDE's
	// epochs, about √(2T) full draws in T steps). Each pair's sample is still a draw from its
	// posterior, which has not moved since, but the model is no longer independent of the last
	// one: a pair kept from being visited by an unlucky sample keeps it until the next full draw.
	// The model is solved as every draw of aggregate sampling is. Not in the paper; it changes
	// results (docs/decisions.md, decision 35, has what it does to learning).
	RedrawChanged PSRLRedraw = "changed"
)

// PSRLType is PSRL's agent type: the name a config gives it (type: psrl) and its errors begin with.
const PSRLType = "psrl"

// PSRLParams are PSRL's parameters; the yaml tags are the config keys.
type PSRLParams struct {
	// Prior is α₀ > 0, the parameter of the Dirichlet(α₀, …, α₀) prior over each pair's next
	// state (1: uniform over the simplex).
	Prior float64 `yaml:"prior" doc:"α₀ of the Dirichlet(α₀, …, α₀) prior over each pair's next state (1: uniform)" range:"> 0"`
	// RewardMean μ₀ and RewardSD σ₀ are the Normal prior of each pair's mean reward; RewardNoise
	// σ is the reward noise's standard deviation, taken as known (a Normal likelihood;
	// reward_posterior normal), or the prior's guess of it (normal-shared-noise). They must be on
	// the scale of the task's rewards: with N(0, 1), in our run, PSRL kept to Strehl & Littman's
	// RiverSwim's near reward of 5 for all 2000 episodes and never found the 10 000 at the far end
	// (TestPSRLBeatsUCRL2OnRiverSwim uses σ₀ = 10 000, σ = 5 000).
	RewardMean  float64 `yaml:"reward_mean" doc:"μ₀, the mean of the Normal prior of a pair's mean reward"`
	RewardSD    float64 `yaml:"reward_sd" doc:"σ₀, the standard deviation of the Normal prior of a pair's mean reward: on the scale of the task's rewards" range:"> 0"`
	RewardNoise float64 `yaml:"reward_noise" doc:"σ, the standard deviation of the reward noise: taken as known (reward_posterior normal), or the prior's guess of it, worth one sample (normal-shared-noise)" range:"> 0"`
	// M is the known threshold of Known and agent.Phase, a diagnostic only: PSRL acts on its samples,
	// never on it.
	M int64 `yaml:"m" doc:"a pair counts as known after m samples (phases and TempLe's retry only)" range:">= 1"`
	// Schedule is per runner episode, TSDE or the doubling rule. Per episode, a task of one long
	// episode (RiverSwim run for 100 000 steps) keeps its first model throughout.
	Schedule PSRLSchedule `yaml:"schedule" doc:"when to draw a new model: at every runner episode's end (one model for all of a single-episode task), TSDE's epochs (when the epoch outgrows the last or a count doubles; whatever the episodes), or UCRL2's doubling rule (when a pair's samples in the epoch reach its count before it)" range:"episode | tsde | doubling"`
	// RewardPosterior is normal or normal-shared-noise (RewardMean, RewardSD, RewardNoise) or beta
	// (RewardMin, RewardMax).
	RewardPosterior RewardPosterior `yaml:"reward_posterior" doc:"posterior of a pair's mean reward: normal (reward_mean, reward_sd, reward_noise), normal-shared-noise (the same, the noise unknown and one for all pairs, learned from their rewards; not in the paper) or beta on rewards scaled to [0, 1] by reward_min and reward_max" range:"normal | normal-shared-noise | beta"`
	// RewardMin and RewardMax are the range of the rewards for the Beta posterior: both given, or
	// both the task's (the default). The posterior keeps only a pair's reward sum, so rewards
	// outside the range are not clipped one by one: the scaled sum is clamped to [0, n(s,a)], and
	// every own reward outside the range is counted (reward_clamps).
	RewardMin RewardBound `yaml:"reward_min" doc:"smallest reward, for reward_posterior beta: a number, or task, the task's smallest reward (a simulator's environment must state its range, else give both bounds); a reward outside the range is clamped and counted in reward_clamps" range:"a number | task"`
	RewardMax RewardBound `yaml:"reward_max" doc:"largest reward, for reward_posterior beta: a number above reward_min, or task with reward_min task (the task's largest reward)" range:"> reward_min | task"`
	// PriorSupport is all (the published prior) or observed (sparse, not in the paper; "" is all).
	PriorSupport PriorSupport `yaml:"prior_support" doc:"next states the Dirichlet prior α₀ covers: all S, or only those the pair has reached (a pair without samples keeps all)" range:"all | observed"`
	// Sampling is aggregate (sparse draws and solves, the default) or dense (the whole Dirichlet
	// and an exact solve: the sampler before aggregate).
	Sampling PSRLSampling `yaml:"sampling" doc:"how a model is drawn and solved: the unseen next states' mass drawn as one and spread evenly, solved by value iteration to plan_tolerance (aggregate), or every next state drawn and the model solved exactly (dense, the sampler before aggregate)" range:"aggregate | dense"`
	// PlanTolerance bounds ‖V − Ṽ*‖∞ of the solve of each sampled model (aggregate sampling; dense
	// solves exactly).
	PlanTolerance float64 `yaml:"plan_tolerance" doc:"bound on ‖V − V*‖∞ of each sampled model's solve (aggregate sampling; dense solves exactly)" range:"> 0"`
	// Redraw is all (every pair at every draw, the default) or changed (only the pairs whose
	// statistics changed since their last sample, with a full draw on TSDE's epochs; aggregate
	// sampling only; not in the paper). "" is all.
	Redraw PSRLRedraw `yaml:"redraw" doc:"not in the paper: which pairs a draw samples anew: all, or only those whose counts changed since their last sample (changed; the others keep theirs, every pair is drawn anew at the first draw after more samples than between the last two such full draws; aggregate sampling only)" range:"all | changed"`
	// MergedSamples is K (psrl_merged.go): a draw samples each pair K times and plans the merged
	// model, in which each action takes the best of its pair's K samples (the merged MDP of BOSS,
	// Asmuth et al. 2009). 0 (the default) or 1: one sample, PSRL.
	MergedSamples int `yaml:"merged_samples,omitempty" doc:"not in the paper: K, the samples a draw takes of each pair; the model planned gives each action the best of its K samples (BOSS's merged MDP, Asmuth et al. 2009: optimism within posterior sampling); 0 (the default) or 1: one sample, PSRL; aggregate sampling and redraw all only" range:"0 to 64"`
}

// DefaultPSRL are α₀ = 1 on the next states a pair has reached, the Beta posterior
// (StatisticalRL's PSRL's) on the task's reward range, m = 500 (as RMax's) and the doubling rule,
// which draws models within long episodes; the Normal prior's parameters, used with
// reward_posterior normal, are N(0, 1) with unit noise. docs/decisions.md gives the measurements
// behind these defaults (decision 26; before them: a model per episode, the Normal posterior and
// the prior over all states; decision 41: the range was [0, 1] before issue 55). Models are drawn
// by aggregate sampling and solved to a plan tolerance of 1e-4 (as the other learners').
func DefaultPSRL() PSRLParams {
	return PSRLParams{Prior: 1, RewardMean: 0, RewardSD: 1, RewardNoise: 1, M: 500, Schedule: Doubling,
		RewardPosterior: BetaReward, PriorSupport: ObservedStates,
		Sampling: Aggregate, PlanTolerance: 1e-4, Redraw: RedrawAll}
}

// Inert are the keys p's reward posterior leaves unused: the Normal prior's under the Beta
// posterior, the Beta range under the Normal one. temple tune does not search them.
func (p PSRLParams) Inert() []string {
	if p.RewardPosterior == BetaReward {
		return []string{"reward_mean", "reward_sd", "reward_noise"}
	}
	return []string{"reward_min", "reward_max"}
}

// Validate names the first parameter out of range.
func (p PSRLParams) Validate() error {
	switch {
	case !(p.Prior > 0) || math.IsInf(p.Prior, 0):
		return fmt.Errorf("psrl: prior = %v, want a finite number > 0", p.Prior)
	case math.IsNaN(p.RewardMean) || math.IsInf(p.RewardMean, 0):
		return fmt.Errorf("psrl: reward_mean = %v, want a finite number", p.RewardMean)
	case !(p.RewardSD > 0) || math.IsInf(p.RewardSD, 0):
		return fmt.Errorf("psrl: reward_sd = %v, want a finite number > 0", p.RewardSD)
	case !(p.RewardNoise > 0) || math.IsInf(p.RewardNoise, 0):
		return fmt.Errorf("psrl: reward_noise = %v, want a finite number > 0", p.RewardNoise)
	case p.M < 1:
		return fmt.Errorf("psrl: m = %d, want at least 1", p.M)
	case p.Schedule != PerEpisode && p.Schedule != TSDE && p.Schedule != Doubling:
		return fmt.Errorf("psrl: schedule %q, want %q, %q or %q", p.Schedule, PerEpisode, TSDE, Doubling)
	case p.RewardPosterior != "" && p.RewardPosterior != NormalReward && p.RewardPosterior != SharedNoiseReward && p.RewardPosterior != BetaReward:
		return fmt.Errorf("psrl: reward_posterior %q, want %q, %q or %q", p.RewardPosterior, NormalReward, SharedNoiseReward, BetaReward)
	case p.RewardMin.Given != p.RewardMax.Given:
		return fmt.Errorf("psrl: reward_min = %v and reward_max = %v: give both bounds of the reward range, or neither (%s: the task's)", p.RewardMin, p.RewardMax, TaskBound)
	case p.RewardMin.Given && (math.IsNaN(p.RewardMin.Value) || math.IsInf(p.RewardMin.Value, 0)):
		return fmt.Errorf("psrl: reward_min = %v, want a finite number", p.RewardMin)
	case p.RewardMax.Given && (!(p.RewardMax.Value > p.RewardMin.Value) || math.IsInf(p.RewardMax.Value, 0)):
		return fmt.Errorf("psrl: reward_max = %v, want a finite number > reward_min (%v)", p.RewardMax, p.RewardMin)
	case p.PriorSupport != "" && p.PriorSupport != AllStates && p.PriorSupport != ObservedStates:
		return fmt.Errorf("psrl: prior_support %q, want %q or %q", p.PriorSupport, AllStates, ObservedStates)
	case p.Sampling != Aggregate && p.Sampling != Dense:
		return fmt.Errorf("psrl: sampling %q, want %q or %q", p.Sampling, Aggregate, Dense)
	case !(p.PlanTolerance > 0) || math.IsInf(p.PlanTolerance, 0):
		return fmt.Errorf("psrl: plan_tolerance = %v, want a finite number > 0", p.PlanTolerance)
	case p.Redraw != "" && p.Redraw != RedrawAll && p.Redraw != RedrawChanged:
		return fmt.Errorf("psrl: redraw %q, want %q or %q", p.Redraw, RedrawAll, RedrawChanged)
	case p.Redraw == RedrawChanged && p.Sampling != Aggregate:
		return fmt.Errorf("psrl: redraw %q needs sampling %q, got sampling %q", p.Redraw, Aggregate, p.Sampling)
	case p.MergedSamples < 0 || p.MergedSamples > maxMergedSamples:
		return fmt.Errorf("psrl: merged_samples = %d, want 0 to %d (0 or 1: one sample, PSRL)", p.MergedSamples, maxMergedSamples)
	case p.merged() > 1 && (p.Sampling != Aggregate || p.Redraw == RedrawChanged):
		return fmt.Errorf("psrl: merged_samples %d needs sampling %q and redraw %q, got sampling %q and redraw %q", p.MergedSamples, Aggregate, RedrawAll, p.Sampling, p.Redraw)
	}
	return nil
}

// PSRLSearch is what temple tune searches of PSRL, and of the learners that have its keys
// (template-prior, latent-psrl, hybrid-prior).
var PSRLSearch = agenttypes.Dims(agenttypes.LogReal("prior", 0.01, 10), agenttypes.InRewardUnits(agenttypes.LogReal("reward_sd", 0.01, 10)),
	agenttypes.InRewardUnits(agenttypes.LogReal("reward_noise", 0.001, 1)), agenttypes.Choice("reward_posterior", string(BetaReward), string(NormalReward), string(SharedNoiseReward)))

// RewardScale is the half-width of the reward range reward_min to reward_max when a config gives
// both (RiverSwim's [0, 10 000]: 5 000), else 1: σ₀ and σ, in units of reward, are searched in its
// units (agenttypes.InRewardUnits), and so is hybrid-prior's σ_id.
func (p *PSRLParams) RewardScale() float64 {
	if p.RewardMin.Given && p.RewardMax.Given && p.RewardMax.Value > p.RewardMin.Value {
		return (p.RewardMax.Value - p.RewardMin.Value) / 2
	}
	return 1
}

// PSRL registers as a base learner and the single-task agent psrl. Its PairBytes are measured as
// RMax's; what grows beyond them is its memory method's.
func init() {
	agenttypes.Register(agenttypes.Type{Name: PSRLType, Display: "PSRL", Summary: "posterior sampling for RL (Osband, Russo & Van Roy 2013)",
		Defaults: func() agenttypes.Params { p := DefaultPSRL(); return &p }, PairBytes: 160, Search: PSRLSearch,
		Scales:     agenttypes.Dims(agenttypes.Choice("schedule", "episode", "tsde", "doubling"), agenttypes.Choice("prior_support", "all", "observed")),
		SingleTask: true, Base: true, Rank: 50})
}

// NewBase builds PSRL as a base learner, and New as the single-task agent psrl.
func (p *PSRLParams) NewBase() (agent.Base, error) { return NewPSRL(*p) }
func (p *PSRLParams) New(agenttypes.Context) (agent.Agent, error) {
	return agenttypes.Single(p.NewBase())
}

// MemoryBytes counts PSRL's dense sampled model: S next-state probabilities per pair and the S×S
// matrix of its exact policy evaluation; with merged_samples K, each further sample of a pair at
// most S successors of 16 bytes (aggregate) and its reward, rest and start.
func (p *PSRLParams) MemoryBytes(typeBytes, S, A, _ int64) int64 {
	further := int64(p.merged() - 1)
	return (typeBytes+8*S)*S*A + 8*S*S + further*(16*S+24)*S*A
}

// PSRL is posterior sampling for reinforcement learning (Osband, Russo & Van Roy, "(More)
// efficient reinforcement learning via posterior sampling", NIPS 2013) on one task, as a base
// learner. Each pair (s,a) has independent posteriors:
//
//   - next state: Dirichlet(α₀ + n(s,a,s′) for every s′), the conjugate posterior of a
//     Dirichlet(α₀, …, α₀) prior;
//   - mean reward: Beta(1 + x, 1 + n(s,a) − x) for rewards scaled to [0, 1] by the range — the
//     task's, or the one given —, x their scaled sum (the default), or Normal with precision 1/σ₀² + n(s,a)/σ² and
//     mean (μ₀/σ₀² + R(s,a)/σ²)/precision, the conjugate posterior of a N(μ₀, σ₀²) prior when
//     the rewards are Normal with known standard deviation σ (R(s,a) is the reward sum); or
//     that Normal given a σ² drawn first, one for all pairs, from its posterior given the
//     pairs' own rewards (normal-shared-noise, sharedNoise; not in the paper).
//
// On its schedule (the doubling rule, TSDE, or every runner episode) PSRL draws one model from
// the posterior, solves it exactly for the discount γ (terminal states at value 0) and follows it
// greedily, ties broken at random. Every random number comes from the task's Rand. Osband et al. plan each sample for the
// τ steps of their episodes; our learners are not told the runner's episode length, so the sample
// is solved for the discounted objective the runner scores.
//
// Cost (sampling: dense): the Dirichlet is over all S next states, so a draw is S Gamma variates
// per pair and the sampled model is dense, S·A·S numbers. This is exact; the aggregation property
// of the Dirichlet gives the total mass of the unseen states from one variate, but not how it
// splits among them — aggregate sampling (the default, see Aggregate) spreads it evenly. With
// α₀ = 1 the unseen states' variates are exponential (one ziggurat draw each); with α₀ < 1 the row is drawn in log space so that tiny variates do not
// underflow, at a few logarithms per state. A dense model is solved by policy iteration (Howard),
// started from the last sample's policy: an evaluation is one O(S³) linear solve, and successive
// samples' policies differ in few states, so it takes a few iterations where value iteration to
// a tolerance of 1e-4 at γ = 0.95 took hundreds of O(S²A) sweeps. Per-episode sampling still
// costs a dense draw and solve every runner episode; TSDE draws far fewer models (see
// BenchmarkPSRLMaze4x4). For the mazes and the classic MDPs this is small; for Taxi (S = 500,
// A = 6) a draw is 1.5 M variates and an evaluation about 4·10⁷ operations, so use TSDE there.
//
// The statistics are every sample (Record keeps them all) plus counts that Augment and Replace
// add: they enter n(s,a), n(s,a,s′) and R(s,a) as pseudo-counts of the posterior — that is how
// templates help PSRL — and take effect at the next draw. The known set (agent.Stats),
// n(s,a) ≥ m, is a diagnostic threshold for phases and TempLe's retry, not part of the algorithm.
type PSRL struct {
	P     PSRLParams
	S, A  int
	gamma float64
	rng   *rand.Rand
	// terminal states: planned at value 0
	terminal []bool

	stats agent.Stats // the diagnostic known set: n(s,a) ≥ m

	// lo and hi are the Beta posterior's reward range in this task: the one given, or the task's.
	lo, hi float64

	// the sampled model of dense sampling: p[i·S+s′] = p̃(s′|s,a) and r[i] = r̃(s,a), i = s·A+a
	p, r    []float64
	agg     aggregateModel // the sampled model of aggregate sampling
	pol     []int          // the plan's policy, the start of the next policy iteration
	mat     []float64      // scratch: I − γ·P_π, S×S
	q, v    []float64
	version uint64 // changes with every draw

	// TSDE's epoch: the samples recorded when it began, the length of the previous epoch T_{k−1},
	// and the counts n_{t_k}(s,a) when it began.
	epochStart, lastLen int64
	nk                  []int64

	changed redrawState // redraw: changed
	noise   sharedNoise // reward_posterior normal-shared-noise: the posterior of σ²
}

var _ agent.Base = (*PSRL)(nil)

// NewPSRL validates p and returns PSRL as a base learner (agent.Base).
func NewPSRL(p PSRLParams) (*PSRL, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &PSRL{P: p}, nil
}

// CheckTask refuses a task PSRL cannot learn (agent.TaskChecker): with the Beta posterior and no
// range given, one that states no reward range, or states one that is not a range.
func (l *PSRL) CheckTask(t agent.Task) error {
	if l.P.RewardPosterior != BetaReward || l.P.RewardMin.Given {
		return nil
	}
	if t.Rewards == nil {
		return fmt.Errorf("psrl: reward_posterior beta with reward_min and reward_max %s, but task %d states no reward range "+
			"(a simulator whose environment states none, or a task driven from outside): give reward_min and reward_max", TaskBound, t.Index)
	}
	if err := t.Rewards.Check(); err != nil {
		return fmt.Errorf("psrl: task %d: %w", t.Index, err)
	}
	return nil
}

// Begin starts a task with the prior and draws the first model from it. With the Beta posterior
// on the task's reward range, the task must state one (CheckTask; agent.BeginBase checks it): Begin
// panics on a task that does not.
func (l *PSRL) Begin(t agent.Task) {
	l.S, l.A, l.gamma, l.rng, l.terminal = t.S, t.A, t.Gamma, t.Rand, t.Terminal
	n := t.S * t.A
	l.stats.Reset(t.S, t.A, l.P.M)
	if l.P.RewardPosterior == BetaReward {
		if err := l.CheckTask(t); err != nil {
			panic(err) // a caller that did not check the task (agent.BeginBase): a programming error
		}
		l.lo, l.hi = l.P.RewardMin.Value, l.P.RewardMax.Value
		if !l.P.RewardMin.Given {
			l.lo, l.hi = t.Rewards.Min, t.Rewards.Max
		}
		l.stats.SetRewardRange(l.lo, l.hi)
	}
	if l.P.Sampling == Dense {
		l.p = buf.Zeroed(l.p, n*t.S)
		l.r = buf.Zeroed(l.r, n)
		l.pol = buf.Zeroed(l.pol, t.S)
		l.mat = buf.Zeroed(l.mat, t.S*t.S)
	}
	l.q = buf.Zeroed(l.q, n)
	l.v = buf.Zeroed(l.v, t.S)
	l.nk = buf.Zeroed(l.nk, n)
	l.epochStart, l.lastLen = 0, 1 // T_0 = 1, our choice
	l.noise.reset(n, l.P.RewardPosterior == SharedNoiseReward)
	if l.P.Redraw == RedrawChanged {
		l.beginRedraw()
	}
	l.draw()
}

// draw samples a model from the posterior, plans it, and begins a TSDE epoch.
func (l *PSRL) draw() {
	switch {
	case l.P.Sampling == Dense:
		l.sample()
		l.solve()
	case l.P.Redraw == RedrawChanged:
		l.redraw()
	default:
		l.sampleAggregate()
		l.solveAggregate()
	}
	l.stats.Planned()
	l.version++
	l.epochStart = l.stats.Samples()
	for i := range l.nk {
		l.nk[i] = l.stats.Counts().N(i)
	}
}

// sample draws a model from the posterior into p and r: per pair in index order, its mean reward
// and then its next-state distribution over all S states. Terminal states' pairs stay all zero.
func (l *PSRL) sample() {
	p := l.P
	prior := 1 / (p.RewardSD * p.RewardSD)
	noise := l.noisePrecision()
	for i := 0; i < l.S*l.A; i++ {
		if l.terminal != nil && l.terminal[i/l.A] {
			continue // an episode ends here: Q = 0
		}
		l.r[i] = l.sampleReward(i, prior, noise)
		row := l.p[i*l.S : i*l.S+l.S]
		if p.PriorSupport == ObservedStates && l.stats.Counts().N(i) > 0 {
			l.sampleObserved(i, row)
			continue
		}
		for s := range row {
			row[s] = p.Prior
		}
		for _, x := range l.stats.Counts().Successors(i) {
			row[x.State] += float64(x.N)
		}
		dirichlet(l.rng, row, p.Prior < 1)
	}
}

// sampleReward draws pair i's mean reward from its posterior: Normal with precision
// 1/σ₀² + n/σ² (prior and noise are those two terms' factors), or lo + (hi − lo)·θ for
// θ ~ Beta(1 + x, 1 + n − x), x the reward sum scaled to [0, 1] by the task's range [lo, hi] and
// clamped to [0, n], drawn as G₁/(G₁ + G₂) from Gamma(1 + x) and Gamma(1 + n − x) variates. On a
// task whose every reward is lo (lo = hi) the mean is lo, drawn without a variate.
func (l *PSRL) sampleReward(i int, prior, noise float64) float64 {
	p, n, sum := l.P, float64(l.stats.Counts().N(i)), l.stats.Counts().R(i)
	if p.RewardPosterior == BetaReward {
		width := l.hi - l.lo
		if width == 0 {
			return l.lo
		}
		x := math.Min(n, math.Max(0, (sum-n*l.lo)/width))
		g1 := gammaVariate(l.rng, 1+x)
		g2 := gammaVariate(l.rng, 1+n-x)
		return l.lo + width*g1/(g1+g2)
	}
	precision := prior + n*noise
	mean := (p.RewardMean*prior + sum*noise) / precision
	return mean + l.rng.NormFloat64()/math.Sqrt(precision)
}

// sampleObserved draws pair i's next-state distribution from Dirichlet(α₀ + n(s,a,s′)) over the
// states it has reached (prior_support: observed); every other state gets probability 0. Each
// parameter is at least 1, so no draw underflows.
func (l *PSRL) sampleObserved(i int, row []float64) {
	clear(row)
	total := 0.0
	for _, x := range l.stats.Counts().Successors(i) {
		if x.N > 0 {
			row[x.State] = gammaVariate(l.rng, l.P.Prior+float64(x.N))
			total += row[x.State]
		}
	}
	for _, x := range l.stats.Counts().Successors(i) {
		row[x.State] /= total
	}
}

// solve finds the sampled model's optimal values by policy iteration from the last policy:
// evaluate π exactly, (I − γ·P_π)·V = r_π, then switch each state to a greedy action when that is
// better by more than rounding, until no state switches. q holds Q of the final V.
func (l *PSRL) solve() {
	S, A, g := l.S, l.A, l.gamma
	for {
		for s := 0; s < S; s++ {
			row := l.mat[s*S : s*S+S]
			clear(row)
			row[s] = 1
			l.v[s] = 0
			if l.terminal != nil && l.terminal[s] {
				continue
			}
			i := s*A + l.pol[s]
			for j, x := range l.p[i*S : i*S+S] {
				row[j] -= g * x
			}
			l.v[s] = l.r[i]
		}
		solveDominant(l.mat, l.v, S)
		switched := false
		for s := 0; s < S; s++ {
			q := l.q[s*A : s*A+A]
			for a := range q {
				i := s*A + a
				x := 0.0
				for j, pj := range l.p[i*S : i*S+S] {
					x += pj * l.v[j]
				}
				q[a] = l.r[i] + g*x
			}
			if l.terminal != nil && l.terminal[s] {
				clear(q)
				continue
			}
			best, cur := mdp.ArgMax(q), l.pol[s]
			if q[best] > q[cur]+1e-12*(1+math.Abs(q[cur])) {
				l.pol[s] = best
				switched = true
			}
		}
		if !switched {
			return
		}
	}
}

// solveDominant solves m·x = b in place (x overwrites b) for the n×n row-major matrix m, which
// must be strictly diagonally dominant by rows (I − γ·P is, for γ < 1): Gaussian elimination
// without pivoting is then stable. m is overwritten.
func solveDominant(m, b []float64, n int) {
	for k := 0; k < n; k++ {
		pivot := m[k*n+k]
		for r := k + 1; r < n; r++ {
			f := m[r*n+k] / pivot
			if f == 0 {
				continue
			}
			for c := k + 1; c < n; c++ {
				m[r*n+c] -= f * m[k*n+c]
			}
			b[r] -= f * b[k]
		}
	}
	for k := n - 1; k >= 0; k-- {
		x := b[k]
		for c := k + 1; c < n; c++ {
			x -= m[k*n+c] * b[c]
		}
		b[k] = x / m[k*n+k]
	}
}

// dirichlet replaces the parameters α in row by a draw from Dirichlet(α): independent
// Gamma(α_j, 1) variates, normalised. With logSpace the variates are drawn as logarithms, so that
// parameters below 1 (whose variates can underflow) still give a distribution.
func dirichlet(rng *rand.Rand, row []float64, logSpace bool) {
	total := 0.0
	if !logSpace {
		for j, a := range row {
			row[j] = gammaVariate(rng, a)
			total += row[j]
		}
	} else {
		top := math.Inf(-1)
		for j, a := range row {
			row[j] = logGammaVariate(rng, a)
			top = math.Max(top, row[j])
		}
		for j, x := range row {
			row[j] = math.Exp(x - top)
			total += row[j]
		}
	}
	inv := 1 / total
	for j := range row {
		row[j] *= inv
	}
}

// gammaVariate draws from Gamma(a, 1), a ≥ 1 or a = 1 exactly (exponential), by Marsaglia & Tsang
// (2000): d = a − 1/3, c = 1/√(9d), accept d·v with v = (1 + c·x)³ for a standard normal x.
func gammaVariate(rng *rand.Rand, a float64) float64 {
	if a == 1 {
		return rng.ExpFloat64()
	}
	if a < 1 { // Gamma(a) = Gamma(a+1)·U^{1/a}
		return gammaVariate(rng, a+1) * math.Pow(1-rng.Float64(), 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := 1 - rng.Float64() // in (0, 1]
		if u < 1-0.0331*(x*x)*(x*x) || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// logGammaVariate draws log G for G ~ Gamma(a, 1), finite even where G underflows (a < 1).
func logGammaVariate(rng *rand.Rand, a float64) float64 {
	if a >= 1 {
		return math.Log(gammaVariate(rng, a))
	}
	return math.Log(gammaVariate(rng, a+1)) + math.Log(1-rng.Float64())/a
}

// Act follows the sampled model's plan greedily, ties broken at random.
func (l *PSRL) Act(s int) int { return agent.Greedy(l.q[s*l.A:s*l.A+l.A], l.rng) }

// Record keeps the sample of pair i (PSRL learns from all); with TSDE it draws a new model when
// the epoch has outrun the last one or n(s,a) has more than doubled since the epoch began, with
// the doubling rule when the epoch's samples of i, n(s,a) − n_k(s,a), reach max(1, n_k(s,a)).
func (l *PSRL) Record(i, next int, r float64) bool {
	l.stats.Record(i, next, r)
	l.changed.mark(i)
	if l.noise.on {
		l.noise.record(i, r)
	}
	n, ni := l.stats.Samples(), l.stats.Counts().N(i)
	switch {
	case l.P.Schedule == TSDE && (n-l.epochStart > l.lastLen || ni > 2*l.nk[i]):
		l.lastLen = n - l.epochStart // T_{k−1} of the next epoch
		l.draw()
	case l.P.Schedule == Doubling && ni-l.nk[i] >= max(1, l.nk[i]):
		l.draw()
	}
	return true
}

// EndEpisode draws a new model when the schedule is per episode.
func (l *PSRL) EndEpisode() {
	if l.P.Schedule == PerEpisode {
		l.draw()
	}
}

// Augment adds pseudo-counts to pair i's posterior (not its own samples), effective at the next
// draw.
func (l *PSRL) Augment(i int, add []mdp.Succ, reward float64) {
	l.stats.Augment(i, add, reward)
	l.changed.mark(i)
}

// Replace sets pair i's statistics to the given counts and reward sum, effective at the next draw.
func (l *PSRL) Replace(i int, succ []mdp.Succ, reward float64) {
	l.stats.Replace(i, succ, reward)
	l.changed.mark(i)
}

// Stats are the learner's statistics of the task; its known set is the diagnostic n(s,a) ≥ m.
func (l *PSRL) Stats() *agent.Stats { return &l.stats }

// KnownThreshold is m, the diagnostic threshold of the known set.
func (l *PSRL) KnownThreshold() int64 { return l.P.KnownThreshold() }

// KnownThreshold is m: a pair counts as known after m samples (phases and TempLe's retry).
func (p PSRLParams) KnownThreshold() int64 { return p.M }

// ObserveTerminal marks s terminal: the sampled model's pairs of s lose their transitions and
// reward (Q = 0, as a declared terminal state's are drawn) and the sampled model is solved again,
// drawing no random numbers (agent.TerminalObserver).
func (l *PSRL) ObserveTerminal(s int) {
	if l.terminal != nil && l.terminal[s] {
		return
	}
	l.terminal = agent.WithTerminal(l.terminal, l.S, s)
	if l.P.Sampling == Aggregate {
		l.solveAggregate() // its backups value a terminal state's pairs at 0
		l.version++
		return
	}
	for i := s * l.A; i < s*l.A+l.A; i++ {
		clear(l.p[i*l.S : i*l.S+l.S])
		l.r[i] = 0
	}
	l.solve()
	l.version++
}

// PolicyVersion changes with every draw.
func (l *PSRL) PolicyVersion() uint64 { return l.version }

// Policy writes the distribution of Act's action in s: uniform over the actions of greatest
// value in the sampled model.
func (l *PSRL) Policy(s int, dst []float64) { agent.UniformGreedy(l.q[s*l.A:s*l.A+l.A], dst) }
