package temple

import (
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// Refutation (Params.Refute; not in the paper, off in the paper presets) withdraws a template
// match that a step refutes: when a pair augmented from its matched template moves to a state its
// estimate gives probability zero, the augmented model is certainly wrong — whatever τ̂, the true
// probability of that outcome is not zero. The pair is then left exactly its own samples of the
// task (every step it took, this one included), is treated as unidentified, and is not augmented
// again in this task; its own samples give that template nothing more. Only template matches are
// refuted, not FM-TempLe's augmentation from an identified model.

// refutation is the state of refutation in a task.
type refutation struct {
	// fromTemplate[i]: pair i's estimate holds the visits of its matched template.
	fromTemplate []bool
	// steps holds every step of each pair in this task, own samples or not.
	steps mdp.Counts
	// refuted counts the matches a step refuted in the task.
	refuted int
}

// begin starts a task of S states and A actions with nothing matched.
func (r *refutation) begin(S, A int) {
	r.fromTemplate = buf.Zeroed(r.fromTemplate, S*A)
	r.steps.Reset(S, A)
	r.refuted = 0
}

// mayRefute marks pair i's estimate as holding its matched template's visits, which a later step
// may refute (with Refute; nothing otherwise).
func (o *OTempLe) mayRefute(i int) {
	if o.p.Refute {
		o.refutes.fromTemplate[i] = true
	}
}

// refuted records pair i's step to next with reward r, and withdraws the pair's template match
// when the step refutes it, reporting whether it did.
func (o *OTempLe) refuted(i, next int, r float64) bool {
	o.refutes.steps.Add(i, next, 1, r)
	if !o.refutes.fromTemplate[i] || reaches(o.st.Counts().Successors(i), next) {
		return false
	}
	o.replace(i, o.refutes.steps.Successors(i), o.refutes.steps.R(i))
	o.refutes.fromTemplate[i] = false
	o.ident.Set(i, -1)
	o.pending.ClearPair(i)
	o.own.Set(i, o.refutes.steps.N(i))
	o.diag.unmarkWrong(i)
	o.refutes.refuted++
	return true
}

// reaches reports whether next is among the successors.
func reaches(succ []mdp.Succ, next int) bool {
	for _, x := range succ {
		if int(x.State) == next {
			return true
		}
	}
	return false
}
