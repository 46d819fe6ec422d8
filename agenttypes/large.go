package agenttypes

import "github.com/temple-rl/temple/internal/lazy"

// LargeBytes is an agent's memory on a task of more than lazy.FlatMax pairs, where its learner
// keeps its per-pair statistics in lazy tables (internal/lazy), which allocate a block of
// lazy.BlockEntries entries wherever they are written: StateBytes per state and PairBytes per
// pair of flat tables, BlockBytes per entry of each written block, and WrittenBytes per written
// pair for the successor lists it grows. The figures are counted from the learners' fields.
type LargeBytes struct{ StateBytes, PairBytes, BlockBytes, WrittenBytes int64 }

// larger is implemented by the parameters of agents that keep their per-pair statistics in lazy
// tables on a task of more than lazy.FlatMax pairs: LargeMemory returns their memory figures
// there, false when these parameters keep flat tables all the same (RMax's full planning).
type larger interface{ LargeMemory() (LargeBytes, bool) }

// LargeMemoryOf is the memory figures of parameters p on a task of more than lazy.FlatMax pairs
// (their LargeMemory), false when p keeps flat tables there.
func LargeMemoryOf(p any) (LargeBytes, bool) {
	if l, ok := p.(larger); ok {
		return l.LargeMemory()
	}
	return LargeBytes{}, false
}

// Memory is the memory of an agent on a task of S states and A actions that writes at most
// written pairs of it (every table's block written holds lazy.BlockEntries entries).
func (l LargeBytes) Memory(S, A, written int64) int64 {
	pairs := S * A
	return l.StateBytes*S + l.PairBytes*pairs + l.BlockBytes*min(pairs, written*lazy.BlockEntries) + l.WrittenBytes*min(pairs, written)
}
