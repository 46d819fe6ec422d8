package agent

import (
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// Stats are a base learner's statistics of one task, kept the same way by every base: the counts
// of every pair i = s·A + a (its own samples plus counts added from elsewhere), the known set —
// pair i is known while n(s,a) ≥ m — the own samples kept, and the plans made. A base acts on
// the counts by its own algorithm; the known set is RMax's and E3's trust rule, MBIE-EB's cap on
// a pair's samples, and a diagnostic threshold of UCRL2 and PSRL (for phases and TempLe's retry).
//
// The base that owns a Stats changes it (Reset, Record, Augment, Replace, Planned); everyone else
// only reads it, through Base.Stats. The changing methods are exported because the bases live in
// other packages (learners, baseline); they are not made unreachable from a caller of Base.Stats
// on purpose: a read-only view would be an interface (or a copy of Counts) that O-TempLe reads on
// every step, where a *Stats is read through inlined calls. A template learner changes a base's
// counts only through the base (Base.Augment, Replacer.Replace), so that the base can re-plan.
type Stats struct {
	counts       mdp.Counts
	m            int64
	known        []bool
	knownActions []int // per state, how many of its actions are known
	knownPairs   int
	samples      int64 // own samples kept in this task
	allKnownAt   int64 // samples kept when every pair was first known, −1 before
	plans        int
	// The range [lo, hi] the base's reward model takes rewards to lie in, when it has one
	// (SetRewardRange; ranged), and the own rewards recorded outside it, which the model clamps.
	ranged bool
	lo, hi float64
	clamps int64
}

// Reset starts a task of S states and A actions with no counts, nothing known and known threshold
// m (math.MaxInt64: no pair is ever known).
func (st *Stats) Reset(S, A int, m int64) {
	st.counts.Reset(S, A)
	st.m = m
	st.known = buf.Zeroed(st.known, S*A)
	st.knownActions = buf.Zeroed(st.knownActions, S)
	st.knownPairs, st.samples, st.allKnownAt, st.plans = 0, 0, -1, 0
	st.ranged, st.clamps = false, 0
}

// SetRewardRange declares, for this task, the range [lo, hi] the base's reward model takes rewards
// to lie in (PSRL's Beta posterior): every own reward recorded outside it from now on is counted
// as clamped (RewardClamps), so that a clamp is never silent.
func (st *Stats) SetRewardRange(lo, hi float64) { st.ranged, st.lo, st.hi = true, lo, hi }

// RewardClamps is the number of own rewards recorded in this task outside the declared reward
// range (SetRewardRange).
func (st *Stats) RewardClamps() int64 { return st.clamps }

// Record adds one own sample of pair i (next state, reward) and reports whether the pair became
// known.
func (st *Stats) Record(i, next int, r float64) (flipped bool) {
	st.counts.Add(i, next, 1, r)
	st.samples++
	if st.ranged && !(r >= st.lo && r <= st.hi) {
		st.clamps++
	}
	// refresh, written out: it is too large for the compiler to inline, and this is every step's.
	now := st.counts.N(i) >= st.m
	if now == st.known[i] {
		return false
	}
	st.flip(i, now)
	return true
}

// Augment adds counts that are not pair i's own samples, with their reward sum, and reports
// whether the pair became known.
func (st *Stats) Augment(i int, add []mdp.Succ, reward float64) (flipped bool) {
	for _, x := range add {
		st.counts.Add(i, int(x.State), x.N, 0)
	}
	st.counts.AddReward(i, reward)
	return st.refresh(i)
}

// Replace sets pair i's counts to succ with reward sum reward, dropping all it held, and reports
// whether the pair became known or unknown.
func (st *Stats) Replace(i int, succ []mdp.Succ, reward float64) (flipped bool) {
	st.counts.ClearPair(i)
	return st.Augment(i, succ, reward)
}

// Planned counts one plan.
func (st *Stats) Planned() { st.plans++ }

// refresh brings pair i's known flag up to date with its count and reports whether it changed.
func (st *Stats) refresh(i int) bool {
	now := st.counts.N(i) >= st.m
	if now == st.known[i] {
		return false
	}
	st.flip(i, now)
	return true
}

// flip makes pair i known (now) or unknown, with its state's count and the known pairs.
func (st *Stats) flip(i int, now bool) {
	st.known[i] = now
	s := i / st.counts.A
	if now {
		st.knownActions[s]++
		st.knownPairs++
		if st.allKnownAt < 0 && st.knownPairs == len(st.known) {
			st.allKnownAt = st.samples
		}
	} else {
		st.knownActions[s]--
		st.knownPairs--
	}
}

// Counts are the counts; only the base that owns them changes them.
func (st *Stats) Counts() *mdp.Counts { return &st.counts }

// Pair is the index s·A + a of pair (s, a).
func (st *Stats) Pair(s, a int) int { return s*st.counts.A + a }

// Known reports whether pair i is known: n(s,a) ≥ m.
func (st *Stats) Known(i int) bool { return st.known[i] }

// StateKnown reports whether every action of s is known.
func (st *Stats) StateKnown(s int) bool { return st.knownActions[s] == st.counts.A }

// KnownPairs counts the known pairs.
func (st *Stats) KnownPairs() int { return st.knownPairs }

// Samples is the number of own samples kept in this task.
func (st *Stats) Samples() int64 { return st.samples }

// SamplesUntilAllKnown is the number of own samples kept before every pair was first known in
// this task, −1 if that has not happened.
func (st *Stats) SamplesUntilAllKnown() int64 { return st.allKnownAt }

// Plans is how many times the base planned in this task.
func (st *Stats) Plans() int { return st.plans }

// Phase is Exploring while some action of s is not known, KnownModel otherwise (StepInfo): a
// single-task learner has no templates to misidentify.
func (st *Stats) Phase(s int) Phase {
	if st.knownActions[s] < st.counts.A {
		return Exploring
	}
	return KnownModel
}

// Metrics are the per-task diagnostics every base learner reports: the known pairs at the end of
// the task, the own samples kept, the samples until every pair was known, the plans, and, for a
// base whose reward model declares a range, the rewards outside it (RewardMetrics).
func (st *Stats) Metrics() []Metric {
	return append([]Metric{
		{"known_pairs", float64(st.knownPairs)},
		{"samples_recorded", float64(st.samples)},
		{"samples_until_all_known", float64(st.allKnownAt)},
		{"plans", float64(st.plans)},
	}, st.RewardMetrics()...)
}

// RewardMetrics are, for a base whose reward model declares a range (SetRewardRange), the own
// rewards recorded outside it (reward_clamps); none for the others.
func (st *Stats) RewardMetrics() []Metric {
	if !st.ranged {
		return nil
	}
	return []Metric{{"reward_clamps", float64(st.clamps)}}
}
