package agenttypes

import (
	"github.com/temple-rl/temple/internal/lazy"
	"github.com/temple-rl/temple/learners"
)

// largeBytes is an agent's memory on a task of more than lazy.FlatMax pairs, where its learner
// keeps its per-pair statistics in lazy tables (internal/lazy), which allocate a block of
// lazy.BlockEntries entries wherever they are written: StateBytes per state and PairBytes per
// pair of flat tables, BlockBytes per entry of each written block, and WrittenBytes per written
// pair for the successor lists it grows. The figures are counted from the learners' fields.
type largeBytes struct{ StateBytes, PairBytes, BlockBytes, WrittenBytes int64 }

// rmaxLarge is RMax's learner (learners.RMax) on a large task, planning incrementally (full plans
// build a model of every pair, and keep flat figures): per state its known-action count, value,
// predecessor or inflow list, residual bucket and terminal flag; per pair its Q and known flag;
// in blocks its counts (n, R, successor list); and a few successors of 16 bytes per written
// pair. Incremental planning adds a stamp per state and a predecessor link per pair
// in blocks; delta planning a flag per pair in blocks and an inflow entry of 16 bytes per
// successor of a written pair.
func rmaxLarge(p learners.RMaxParams) (largeBytes, bool) {
	l := largeBytes{StateBytes: 8 + 8 + 24 + 1 + 1, PairBytes: 8 + 1, BlockBytes: 8 + 8 + 24, WrittenBytes: 4 * 16}
	switch p.Planning {
	case learners.PlanIncremental:
		l.StateBytes += 4
		l.BlockBytes += 4
	case learners.PlanDelta:
		l.BlockBytes++
		l.WrittenBytes += 4 * 16
	default:
		return largeBytes{}, false
	}
	return l, true
}

// larger is implemented by the parameters of agents that keep their per-pair statistics in lazy
// tables on a task of more than lazy.FlatMax pairs: large returns their memory figures there,
// false when these parameters keep flat tables all the same (RMax's full planning).
type larger interface{ large() (largeBytes, bool) }

func (p *RMax) large() (largeBytes, bool) { return rmaxLarge(p.RMaxParams) }

func (p *OTempLe) large() (largeBytes, bool) {
	base, ok := p.Base.Params.(*RMax)
	if !ok {
		return largeBytes{}, false
	}
	l, ok := rmaxLarge(base.RMaxParams)
	if !ok {
		return largeBytes{}, false
	}
	// O-TempLe's own: per state its count of wrong pairs; per pair its augmented and wrong
	// flags; in blocks its pending counts, own samples and identification, and with its
	// options an early match (its template and σ) and every step (refute).
	l.StateBytes += 8
	l.PairBytes += 1 + 1
	l.BlockBytes += 8 + 8 + 24 + 8 + 4
	l.WrittenBytes += 4 * 16
	if p.EarlyMatch > 0 {
		l.BlockBytes += 4 + 32
		l.WrittenBytes += 4 * 4
	}
	if p.Refute {
		l.PairBytes++
		l.BlockBytes += 8 + 8 + 24
		l.WrittenBytes += 4 * 16
	}
	return l, true
}

// memory is the memory of an agent on a task of S states and A actions that writes at most
// written pairs of it (every table's block written holds lazy.BlockEntries entries).
func (l largeBytes) memory(S, A, written int64) int64 {
	pairs := S * A
	return l.StateBytes*S + l.PairBytes*pairs + l.BlockBytes*min(pairs, written*lazy.BlockEntries) + l.WrittenBytes*min(pairs, written)
}
