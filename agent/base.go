package agent

import "github.com/temple-rl/temple/mdp"

// Base is the base-learner seam: the part of a model-based single-task learner that TempLe's
// agents build on. The paper uses RMax and says "it can be replaced by other model-based methods
// such as E3 and MBIE"; O-TempLe and FM-TempLe are written against this interface, so any
// implementation can sit underneath them.
//
// A base keeps its statistics of every pair i = s·A + a in an mdp.Counts: the pair's own samples
// plus counts added from elsewhere (Augment: a template's visits through σ⁻¹, or an identified
// model's counts), and derives from them everything it acts on — RMax's known pairs, a
// confidence width that shrinks with n(s,a), or a posterior whose pseudo-counts they are.
// Known(i) is the base's trust rule; bases without one say in their doc what it means for them.
type Base interface {
	// Begin starts a task with nothing learned.
	Begin(t Task)
	// Act chooses an action in state s.
	Act(s int) int
	// Record offers pair i's own sample (next state, reward) and reports whether the base kept it:
	// RMax and E3 keep the samples of pairs not yet known and ignore the rest, the others keep
	// every sample. Only kept samples are the pair's own samples for TempLe.
	Record(i, next int, r float64) bool
	// EndEpisode is called after every episode (PSRL draws a new model on its schedule).
	EndEpisode()
	// Augment adds counts that are not pair i's own samples, with their reward sum.
	Augment(i int, add []mdp.Succ, reward float64)
	// Replace sets pair i's statistics to the given counts and reward sum, dropping all it held.
	Replace(i int, succ []mdp.Succ, reward float64)
	// Known reports whether pair i is trusted by the base's rule.
	Known(i int) bool
	// KnownThreshold is m, the samples that make a pair known; TempLe's m_s must not exceed it.
	KnownThreshold() int64
	// Counts are the statistics; callers change them only through Record, Augment and Replace.
	Counts() *mdp.Counts
	// KnownPairs counts the known pairs.
	KnownPairs() int
	// Samples is the number of own samples kept in this task.
	Samples() int64
	// SamplesUntilAllKnown is the number of own samples kept before every pair was first known in
	// this task, −1 if that has not happened.
	SamplesUntilAllKnown() int64
	// Plans is how many times the base planned in this task.
	Plans() int
	// Phase is Exploring while some action of s is not known, KnownModel otherwise (StepInfo).
	Phase(s int) Phase
	// ObserveTerminal marks s terminal from now on (TerminalObserver).
	ObserveTerminal(s int)
	// PolicyVersion and Policy give the base's current policy (PolicyInfo).
	PolicyVersion() uint64
	Policy(s int, dst []float64)
}

// Single is the single-task agent of a base learner: it forgets everything at every task.
type Single struct{ B Base }

func (a Single) BeginTask(t Task) error                  { a.B.Begin(t); return nil }
func (a Single) Act(s int) int                           { return a.B.Act(s) }
func (a Single) Observe(s, act int, r float64, next int) { a.B.Record(s*a.B.Counts().A+act, next, r) }
func (a Single) EndEpisode()                             { a.B.EndEpisode() }
func (a Single) EndTask()                                {}
func (a Single) ObserveTerminal(s int)                   { a.B.ObserveTerminal(s) }

// TaskMetrics reports the known pairs at the end of the task, the own samples kept, the samples
// until every pair was known, and the number of plans.
func (a Single) TaskMetrics() []Metric { return BaseMetrics(a.B) }

// uniformGreedy writes into dst the uniform distribution over the maximisers of q: the policy of
// a learner that breaks greedy ties at random.
func uniformGreedy(q, dst []float64) {
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

// BaseMetrics are the per-task diagnostics every base learner reports.
func BaseMetrics(b Base) []Metric {
	return []Metric{
		{"known_pairs", float64(b.KnownPairs())},
		{"samples_recorded", float64(b.Samples())},
		{"samples_until_all_known", float64(b.SamplesUntilAllKnown())},
		{"plans", float64(b.Plans())},
	}
}

// Phase and the policy are the base's (StepInfo, PolicyInfo).
func (a Single) Phase(s int) Phase           { return a.B.Phase(s) }
func (a Single) PolicyVersion() uint64       { return a.B.PolicyVersion() }
func (a Single) Policy(s int, dst []float64) { a.B.Policy(s, dst) }
