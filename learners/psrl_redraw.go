package learners

import (
	"math"

	"github.com/temple-rl/temple/internal/buf"
)

// Redrawing only the changed pairs (redraw: changed, RedrawChanged). A pair's posterior moves
// only with its own statistics, so at a draw the pairs whose statistics did not change since
// their last sample keep it, and the others are sampled anew in index order, each exactly as a
// full draw samples it (samplePair). The plan is then brought up to date by the prioritized
// sweeping of incremental planning (sweeper, PlanIncremental): the pairs sampled anew are backed
// up, and states whose residual |max_a q(s,a) − v(s)| exceeds ε = plan_tolerance·(1−γ) are
// updated, largest first, until none does; then ‖v − Ṽ*‖∞ ≤ plan_tolerance for the sampled model
// Ṽ*. The sweeper follows the successors a pair was sampled with; a pair with mass on the states
// it has not reached (rest > 0) also reads Σ v, which every update moves, so the sweeper's
// rounds run with Σ v fixed, and after each round those pairs are backed up again with the new
// sum and the sweeping goes on until a round leaves Σ v unchanged: every q is then the exact
// backup of v and no residual exceeds ε.

// redrawState is the state of redraw: changed in one task.
type redrawState struct {
	on    bool
	stale []bool // pairs whose statistics changed since their last sample
	sweep sweeper
	spare aggregateModel // the next draw's model while it is built
	// rest lists the pairs that read the mean value of the states they have not reached, and
	// total is the Σ v their backups in q were computed with.
	rest       []int32
	total      float64
	restWeight float64 // the largest γ·rest/(S − k) of those pairs: how much Σ v moves their q
	// full draws: whether the next draw is one (the first of a task), the samples recorded at
	// the last, and the samples between the last two.
	full                bool
	fullStart, fullLast int64
}

// mark records that pair i's statistics changed.
func (r *redrawState) mark(i int) {
	if r.on {
		r.stale[i] = true
	}
}

// relink makes the sweeper enter all of pair i's successors again (its counts were replaced, so
// the ones it entered may no longer come first).
func (r *redrawState) relink(i int) {
	if r.on {
		r.sweep.linked.Set(i, 0)
	}
}

// beginRedraw starts a task of redraw: changed; the first draw is full.
func (l *PSRL) beginRedraw() {
	r := &l.changed
	r.on, r.full = true, true
	r.stale = buf.Zeroed(r.stale, l.S*l.A)
	r.fullStart, r.fullLast = 0, 0
	r.sweep.reset(l, l.stats.Counts(), l.q, l.v, l.gamma, l.S, l.A, l.P.PlanTolerance*(1-l.gamma)/2, false)
}

// redraw draws a model by redraw: changed and plans it. A full draw — the first of the task, or
// the first after more samples than between the last two full draws — samples every pair and
// solves the model by solveAggregate, warm-started, before the sweeping that brings every
// residual within ε; the others sample the changed pairs alone.
func (l *PSRL) redraw() {
	r, n := &l.changed, l.stats.Samples()
	if r.full || n-r.fullStart > r.fullLast {
		r.full = false
		r.fullStart, r.fullLast = n, n-r.fullStart
		l.sampleAggregate()
		clear(r.stale)
		l.solveAggregate()
		for i := range l.S * l.A {
			r.sweep.changed = append(r.sweep.changed, int32(i))
		}
	} else {
		l.resampleStale()
	}
	r.rest, r.restWeight = r.rest[:0], 0
	for i, x := range l.agg.rest {
		if x > 0 {
			r.rest = append(r.rest, int32(i))
			k := l.agg.start[i+1] - l.agg.start[i]
			r.restWeight = max(r.restWeight, l.gamma*x/float64(l.S-int(k)))
		}
	}
	l.replan()
}

// resampleStale samples the changed pairs anew, in index order, and keeps the others' samples.
func (l *PSRL) resampleStale() {
	r, old, m := &l.changed, &l.agg, &l.changed.spare
	prior := 1 / (l.P.RewardSD * l.P.RewardSD)
	noise := 1 / (l.P.RewardNoise * l.P.RewardNoise)
	m.reset()
	for i := range l.S * l.A {
		if r.stale[i] {
			r.stale[i] = false
			l.samplePair(m, i, prior, noise)
			r.sweep.changed = append(r.sweep.changed, int32(i))
			continue
		}
		m.r = append(m.r, old.r[i])
		m.rest = append(m.rest, old.rest[i])
		m.succ = append(m.succ, old.succ[old.start[i]:old.start[i+1]]...)
		m.start = append(m.start, int32(len(m.succ)))
	}
	l.agg, r.spare = r.spare, l.agg
}

// replan brings the plan up to date after the pairs in the sweeper's changed list were sampled
// anew: their backups are computed and states are updated, largest residual first, until the
// greedy actions are certain or the plan is within plan_tolerance, as solveAggregate stops. The
// pairs with mass on the states they have not reached (rest) read Σ v through total, which is
// held fixed while the sweeping runs and caught up when the queue empties; lag bounds how far
// their backups are from those of the current Σ v. States left in the queue stay there for the
// next plan.
func (l *PSRL) replan() {
	r, w := &l.changed, &l.changed.sweep
	if sum := l.valueSum(); sum != r.total {
		r.total = sum
		l.refreshRest()
	}
	for _, i := range w.changed {
		if l.throughSuccessors(int(i)) {
			w.link(int(i))
		}
		l.q[i] = l.backup(int(i))
		w.checkResidual(int(i) / l.A)
	}
	w.changed = w.changed[:0]
	sum, level := r.total, buckets   // Σ v, and the top bucket when certainty was last checked
	prev, prevGap := math.NaN(), 0.0 // the last total the queue emptied with, and Σ v − total then
	for range maxPlanSweeps * l.S {
		if w.top < level {
			level = w.top
			// No residual exceeds 2^(top+1)·ε (nor ε once the queue is empty: top is then 0).
			if l.certain(math.Ldexp(w.eps, w.top+1), r.lag(sum)) {
				return
			}
		}
		s := w.pop()
		if s < 0 {
			if r.lag(sum) <= w.eps {
				return // every residual within 2ε: ‖v − Ṽ*‖∞ ≤ plan_tolerance
			}
			sum, level = l.valueSum(), buckets
			r.total, prev, prevGap = l.nextTotal(sum, prev, prevGap), r.total, sum-r.total
			l.refreshRest()
			continue
		}
		old := l.v[s]
		l.v[s] = maxOf(l.q[s*l.A : s*l.A+l.A])
		sum += l.v[s] - old
		w.backupPredecessors(s)
	}
}

// nextTotal is the total for the rest pairs' next round, when a round with total = r.total ended
// with Σ v = sum, and the round before it with total = prev ended with Σ v − prev = prevGap.
// Σ v after a round is close to an affine function of total (each pair of rest reads it with a
// fixed weight), whose fixed point the secant through the two rounds gives; Σ v itself (the
// fixed-point iteration, which converges slowly when many values read Σ v) is the first round's
// and the fallback when the secant is undefined or leaves the interval between total and sum's
// side beyond it by more than the gap.
func (l *PSRL) nextTotal(sum, prev, prevGap float64) float64 {
	t, gap := l.changed.total, sum-l.changed.total
	if math.IsNaN(prev) || gap == prevGap {
		return sum
	}
	next := t - gap*(t-prev)/(gap-prevGap)
	if math.IsNaN(next) || math.IsInf(next, 0) || math.Abs(next-t) > 100*math.Abs(gap) {
		return sum
	}
	return next
}

// refreshRest backs up again the pairs that read Σ v, with total, and files their states.
func (l *PSRL) refreshRest() {
	for _, i := range l.changed.rest {
		l.q[i] = l.backup(int(i))
		l.changed.sweep.checkResidual(int(i) / l.A)
	}
}

// lag bounds |q(s,a) − (T v)(s,a)| of the pairs that read Σ v, when Σ v is sum and their q were
// computed with total.
func (r *redrawState) lag(sum float64) float64 { return r.restWeight * math.Abs(sum-r.total) }

// certain reports whether the greedy actions of q are optimal in the sampled model when no
// residual |max_a q − v| exceeds rho and the backups lag by at most lag: the true residuals are
// then at most rho + lag, so ‖v − Ṽ*‖∞ ≤ (rho + lag)/(1−γ) and every q is within
// e = lag + γ(rho + lag)/(1−γ) of Q̃*; a best action that leads by more than 2e is optimal.
func (l *PSRL) certain(rho, lag float64) bool {
	e := lag + l.gamma*(rho+lag)/(1-l.gamma)
	for s := 0; s < l.S; s++ {
		if l.terminal != nil && l.terminal[s] {
			continue
		}
		best, second := math.Inf(-1), math.Inf(-1)
		for _, x := range l.q[s*l.A : s*l.A+l.A] {
			if x > best {
				best, second = x, best
			} else if x > second {
				second = x
			}
		}
		if !(best-second > 2*e) {
			return false
		}
	}
	return true
}

// replanTerminal plans again after s became terminal: its pairs back up to 0.
func (l *PSRL) replanTerminal(s int) {
	for i := s * l.A; i < s*l.A+l.A; i++ {
		l.changed.sweep.changed = append(l.changed.sweep.changed, int32(i))
	}
	l.replan()
}

// backup is pair i's backup on the sampled model with the sum of values the rest pairs' backups
// were last computed with (sweptModel); a terminal state's pairs back up to 0.
func (l *PSRL) backup(i int) float64 {
	if l.terminal != nil && l.terminal[i/l.A] {
		return 0
	}
	return l.agg.backup(i, l.v, l.changed.total, l.gamma, l.S)
}

// throughSuccessors: a pair of a state that is not terminal reads the values of the successors
// it was sampled with (sweptModel).
func (l *PSRL) throughSuccessors(i int) bool {
	return (l.terminal == nil || !l.terminal[i/l.A]) && l.agg.start[i+1] > l.agg.start[i]
}

// loopsOn: no pair reads v(s) but through its successors or Σ v (sweptModel).
func (l *PSRL) loopsOn(int) bool { return false }
