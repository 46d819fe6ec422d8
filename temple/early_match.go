package temple

import (
	"github.com/temple-rl/temple/internal/lazy"
	"github.com/temple-rl/temple/template"
)

// Early matching (Params.EarlyMatch; not in the paper, off in the paper presets) matches a pair
// provisionally after EarlyMatch own samples, fewer than m_s: the closest library template within
// τ̂ augments the pair at once (again at 2·EarlyMatch, 4·EarlyMatch, … below m_s while nothing
// matches). The pair keeps counting its own samples, and at m_s Algorithm 1's identification
// decides: the same template on the same states confirms the match; anything else withdraws the
// augmentation.

// earlyMatching is the state of early matching in a task.
type earlyMatching struct {
	// tmpl[i] is the ID of pair i's provisional template until m_s decides, −1 otherwise;
	// sigma[i] is the σ it was placed by.
	tmpl  lazy.Table[int32]
	sigma lazy.Table[template.Sigma]
	// matches and withdrawn count the provisional matches of the task and those withdrawn at m_s.
	matches, withdrawn int
}

// begin starts a task of n pairs with no provisional match.
func (e *earlyMatching) begin(n int) {
	e.tmpl.Reset(n, -1)
	e.sigma.Reset(n, template.Sigma{})
	e.matches, e.withdrawn = 0, 0
}

// provisional reports whether pair i holds a provisional match.
func (o *OTempLe) provisional(i int) bool { return o.p.EarlyMatch > 0 && o.early.tmpl.At(i) >= 0 }

// earlyAttempt reports whether pair i, neither identified nor augmented, tries a provisional
// match at this own sample: at EarlyMatch, 2·EarlyMatch, 4·EarlyMatch, … below m_s.
func (o *OTempLe) earlyAttempt(i int) bool {
	n, e := o.own.At(i), o.p.EarlyMatch
	if e == 0 || n >= o.p.Ms || n%e != 0 || o.augmented[i] {
		return false
	}
	k := n / e
	return k&(k-1) == 0
}

// matchEarly augments pair i with the closest library template within τ̂ of its own samples so
// far, provisionally: its own samples stay with the pair until m_s decides (identify).
func (o *OTempLe) matchEarly(i int) {
	sigma, ranked := template.Ranking(o.pending.Successors(i), o.S)
	t, _ := o.lib.Match(pointOf(ranked, o.pending.R(i)))
	if t == nil {
		return
	}
	o.early.tmpl.Set(i, int32(t.ID))
	o.early.sigma.Set(i, sigma)
	o.augment(i, t.Augmentation(sigma), t.Reward)
	o.early.matches++
	o.diag.markWrong(i, t)
}

// settleEarly decides pair i's provisional match at its m_s-th own sample, whose closest
// template within τ̂ is t (nil: none) and ranking σ: it keeps the match when t is the
// provisional template placed on the same states; otherwise it withdraws the augmentation,
// leaving the pair its own samples.
func (o *OTempLe) settleEarly(i int, t *template.Template, sigma template.Sigma) {
	id := o.early.tmpl.At(i)
	o.early.tmpl.Set(i, -1)
	if t != nil && int32(t.ID) == id && sigma.Agrees(o.early.sigma.At(i), int(t.Visits[len(t.Visits)-1].Rank)+1) {
		o.mayRefute(i)
		return
	}
	o.replace(i, o.pending.Successors(i), o.pending.R(i))
	o.augmented[i] = false
	o.diag.unmarkWrong(i)
	o.early.withdrawn++
}
