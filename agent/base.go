package agent

import "github.com/temple-rl/temple/mdp"

// Base is the base-learner seam: the part of a model-based single-task learner that TempLe's
// agents build on. The paper uses RMax and says "it can be replaced by other model-based methods
// such as E3 and MBIE"; O-TempLe and FM-TempLe are written against this interface, so any
// implementation can sit underneath them. A base is made by its constructor (NewRMax, NewMBIEEB,
// NewE3, NewUCRL2, NewCUCRL, NewPSRL: validated parameters in, the base out); NewSingle makes it
// the single-task agent.
//
// A base keeps its statistics in a Stats: every pair's own samples plus counts added from
// elsewhere (Augment: a template's visits through σ⁻¹, or an identified model's counts), and the
// known set, n(s,a) ≥ m. From them it derives everything it acts on — RMax's known pairs, a
// confidence width that shrinks with n(s,a), or a posterior whose pseudo-counts they are.
type Base interface {
	// Begin starts a task with nothing learned.
	Begin(t Task)
	// Act chooses an action in state s.
	Act(s int) int
	// Record offers pair i's own sample (next state, reward) and reports whether the base kept it:
	// RMax, MBIE-EB (with its cap) and E3 keep the samples of pairs not yet known and ignore the
	// rest, UCRL2 and PSRL keep every sample. Only kept samples are the pair's own samples for
	// TempLe.
	Record(i, next int, r float64) bool
	// Augment adds counts that are not pair i's own samples, with their reward sum.
	Augment(i int, add []mdp.Succ, reward float64)
	// EndEpisode is called after every episode (PSRL draws a new model on its schedule).
	EndEpisode()
	// ObserveTerminal marks s terminal from now on.
	TerminalObserver
	// PolicyVersion and Policy give the base's current policy.
	PolicyInfo
	// KnownThreshold is m, the count that makes a pair known (math.MaxInt64: never); TempLe's m_s
	// must not exceed it. It is known before the first task.
	KnownThreshold() int64
	// Stats are the base's statistics of the current task, to read: they change only through
	// Record, Augment and Replace.
	Stats() *Stats
}

// Single is the single-task agent of a base learner: it forgets everything at every task.
type Single struct {
	b     Base
	stats *Stats
}

// NewSingle is the single-task agent of base b.
func NewSingle(b Base) *Single { return &Single{b: b, stats: b.Stats()} }

// Base is the agent's base learner.
func (a *Single) Base() Base { return a.b }

func (a *Single) BeginTask(t Task) error                  { return BeginBase(a.b, t) }
func (a *Single) Act(s int) int                           { return a.b.Act(s) }
func (a *Single) Observe(s, act int, r float64, next int) { a.b.Record(a.stats.Pair(s, act), next, r) }
func (a *Single) EndEpisode()                             { a.b.EndEpisode() }
func (a *Single) EndTask()                                {}
func (a *Single) ObserveTerminal(s int)                   { a.b.ObserveTerminal(s) }

// TaskMetrics reports the known pairs at the end of the task, the own samples kept, the samples
// until every pair was known, and the number of plans.
func (a *Single) TaskMetrics() []Metric { return a.stats.Metrics() }

// Phase is the base's (StepInfo); the policy is the base's (PolicyInfo).
func (a *Single) Phase(s int) Phase           { return a.stats.Phase(s) }
func (a *Single) PolicyVersion() uint64       { return a.b.PolicyVersion() }
func (a *Single) Policy(s int, dst []float64) { a.b.Policy(s, dst) }

// UniformGreedy writes into dst the uniform distribution over the maximisers of q: the policy of
// a learner that breaks greedy ties at random.
func UniformGreedy(q, dst []float64) {
	clear(dst)
	best, ties := mdp.Max(q), 0.0
	for _, x := range q {
		if x == best {
			ties++
		}
	}
	for a, x := range q {
		if x == best {
			dst[a] = 1 / ties
		}
	}
}

// Replacer is a base whose pair counts can be set outright: Replace sets pair i's counts to the
// given ones and reward sum, dropping all it held. Only options that are not in the paper withdraw
// counts once added (O-TempLe's early_match, refute and opt_delta, checked when the agent is
// made); every base of the learners package is one.
type Replacer interface {
	Replace(i int, succ []mdp.Succ, reward float64)
}

// Valued is a base whose current plan's state values can be read: O-TempLe's optimism over
// library templates (temple.Params.OptDelta) ranks a pair's candidate templates by their backup
// against these values. The seam's counts (Augment, Replace) say what a pair's model is; this
// says what its successors are worth, which no count can.
type Valued interface {
	// Values are V(s) of the last plan, one per state, without planning anew (zeros before the
	// first plan); the caller only reads them.
	Values() []float64
}
