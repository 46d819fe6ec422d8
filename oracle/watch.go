package oracle

import (
	"github.com/temple-rl/temple/agent"
)

// Measure measures one cell on one task against the task's solution (an episode.Watcher); its
// records are the cell's own.
type Measure struct {
	*Solution
	policy *policyEvaluation
	rec    Record
}

// Watch returns a fresh Measure of one cell on the task of solution sol.
func (sol *Solution) Watch() *Measure { return &Measure{Solution: sol} }

// TrackPolicy makes the oracle count Kakade's ε-mistakes of the learner behind info.
func (o *Measure) TrackPolicy(info agent.PolicyInfo, gamma float64) {
	o.policy = newPolicyEvaluation(o.m, info, gamma, max(Tolerance, policyTolerance*o.eps), o.m.S <= DenseStates)
	o.rec.PolicyMistakes = new(int64)
}

// Acting counts step t in s as a policy mistake when V^{π_t}(s) < V*(s) − ε, evaluating
// π_t first if the learner's policy changed since the last evaluation (an episode.ActWatcher,
// after TrackPolicy; it does nothing before).
func (o *Measure) Acting(s int) {
	pe := o.policy
	if pe == nil {
		return
	}
	if v := pe.info.PolicyVersion(); !pe.fresh || v != pe.version {
		pe.evaluate()
		pe.version, pe.fresh = v, true
	}
	// vStar is indexed by the task's state s, not by a local region's (o.local): policy mistakes
	// are counted on stored models only, which the runner keeps whole (experiment's plan turns
	// tasks computed on demand off when oracle.policy_mistakes is on).
	if pe.v[s] < o.vStar[s]-o.eps-2*pe.tol {
		*o.rec.PolicyMistakes++
	}
}

// policyTolerance is the accuracy of V^π as a fraction of ε (Tolerance when ε = 0): a step
// is a policy mistake when V^π(s) < V*(s) − ε − 2·tolerance.
const policyTolerance = 1e-4

// Episode records the optimum of an episode that starts in s.
func (o *Measure) Episode(s int) {
	k := o.local(s)
	o.rec.OptimalReward += o.horizon.Values(o.horizon.T)[k]
	o.rec.OptimalDiscountedStart += o.vStar[k]
}

// Stepped measures the transition (s, a, r, next) taken with h steps to go in phase ph.
func (o *Measure) Stepped(s, a int, r float64, next, h int, ph agent.Phase) {
	k := o.local(s)
	if o.mistake[k*o.A+a] {
		o.rec.Mistakes++
	}
	o.rec.Regret[ph] += o.horizon.Value(h, k) - r - o.horizon.Value(h-1, o.local(next))
	o.rec.StepsByPhase[ph]++
}

// Finish returns the task's record, the discounted start value averaged over its episodes.
func (o *Measure) Finish(episodes int) *Record {
	rec := o.rec
	rec.OptimalDiscountedStart /= float64(episodes)
	return &rec
}
