package learners

import "github.com/temple-rl/temple/internal/buf"

// Redrawing only the changed pairs (redraw: changed, RedrawChanged). A pair's posterior moves
// only with its own statistics, so at a draw the pairs whose statistics did not change since
// their last sample keep it, and the others are sampled anew in index order, each exactly as a
// full draw samples it (samplePair). The model is then solved as aggregate sampling solves every
// draw (solveAggregate), warm-started from the last sample's values, which now differ from the
// new solution only where the pairs sampled anew lead. Prioritized sweeping from those pairs
// (incremental planning's sweeper) was tried in place of that solve and was slower: a pair
// sampled anew moves values over the whole maze, by more than the tolerance, and the pairs
// without samples read Σ v, which every update moves (docs/performance.md).

// redrawState is the state of redraw: changed in one task.
type redrawState struct {
	on    bool
	stale []bool         // pairs whose statistics changed since their last sample
	spare aggregateModel // the next draw's model while it is built
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

// beginRedraw starts a task of redraw: changed; the first draw is full.
func (l *PSRL) beginRedraw() {
	r := &l.changed
	r.on, r.full = true, true
	r.stale = buf.Zeroed(r.stale, l.S*l.A)
	r.fullStart, r.fullLast = 0, 0
}

// redraw draws a model by redraw: changed and solves it. A full draw — the first of the task, or
// the first after more samples than between the last two full draws — samples every pair; the
// others sample the changed pairs alone.
func (l *PSRL) redraw() {
	r, n := &l.changed, l.stats.Samples()
	if r.full || n-r.fullStart > r.fullLast {
		r.full = false
		r.fullStart, r.fullLast = n, n-r.fullStart
		l.sampleAggregate()
		clear(r.stale)
	} else {
		l.resampleStale()
	}
	l.solveAggregate()
}

// resampleStale samples the changed pairs anew, in index order, and keeps the others' samples.
func (l *PSRL) resampleStale() {
	r, old, m := &l.changed, &l.agg, &l.changed.spare
	prior := 1 / (l.P.RewardSD * l.P.RewardSD)
	noise := l.noisePrecision()
	m.reset()
	for i := range l.S * l.A {
		if r.stale[i] {
			r.stale[i] = false
			l.samplePair(m, i, prior, noise)
			continue
		}
		m.r = append(m.r, old.r[i])
		m.rest = append(m.rest, old.rest[i])
		m.succ = append(m.succ, old.succ[old.start[i]:old.start[i+1]]...)
		m.start = append(m.start, int32(len(m.succ)))
	}
	l.agg, r.spare = r.spare, l.agg
}
