package learners

import (
	"math"
	"slices"

	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/internal/lazy"
	"github.com/temple-rl/temple/mdp"
)

// Incremental planning (PlanIncremental): prioritized sweeping on the optimistic model from the
// pairs that changed. Between plans every pair keeps q(s,a) = (T v)(s,a), the Bellman backup of
// the current values v, and every state its residual |max_a q(s,a) − v(s)| ≤ ε, where
// ε = tolerance·(1−γ). A change recomputes the changed pairs' backups; states whose residual
// exceeds ε are updated, largest residual first within a factor 2 (the queue is buckets of
// residuals by binary exponent): v(s) ← max_a q(s,a), and the backups that read v(s) — known
// pairs leading to s, unknown pairs of s (a self-loop) — are recomputed and their states'
// residuals checked, until no residual exceeds ε. Then ‖v − V*‖∞ ≤ ε/(1−γ) = tolerance (T is a
// γ-contraction) and ‖q − Q*‖∞ ≤ γ·tolerance: the guarantee of a full plan, at a cost that grows
// with the states whose values move.
//
// Delta planning (PlanDelta) keeps the same invariant (up to rounding) and the same order, but
// moves a backup that reads v(s′) by the change of v(s′), q(s,a) += γ·n(s,a,s′)/n(s,a)·Δv(s′) —
// the form of prioritized sweeping of Moore & Atkeson (1993) — instead of summing the pair's
// successors again. Each known pair enters its weights γ·n(s,a,s′)/n(s,a) in inflow lists when
// it becomes known, and takes them out before its estimate changes or it stops being planned
// from them, so an update costs a pass over a short contiguous list. A changed pair is still
// backed up in full, which also clears the rounding its moves accumulated; between changes that
// rounding is a few ulps of the values per move, far below ε.

// sweptModel is the model a sweeper plans on: RMax's optimistic model, or MBIE-EB's
// bonus-augmented empirical model.
type sweptModel interface {
	// backup is the Bellman backup (T v)(s,a) of pair i with the sweeper's v.
	backup(i int) float64
	// throughSuccessors reports whether pair i's backup is r + γ·Σ n(s,a,s′)/n(s,a)·v(s′) over the
	// successors of its counts (known, or visited, pairs of states that are not terminal): delta
	// planning moves it through inflow lists, incremental planning through predecessor lists.
	throughSuccessors(i int) bool
	// loopsOn reports whether some pair of s reads v(s) other than through its successors (RMax's
	// unknown self-loops): those pairs are backed up again when v(s) moves.
	loopsOn(s int) bool
}

// sweeper holds the state of incremental planning of one task: the plan's q and v, and the
// model's counts they are planned from.
type sweeper struct {
	model  sweptModel
	counts *mdp.Counts
	q, v   []float64 // q(s,a) at s·A+a and v(s) of the plan, shared with the learner
	gamma  float64
	A      int

	changed []int32 // pairs whose backup may have changed since the last plan
	eps     float64 // ε: the largest residual a plan leaves
	// PlanIncremental: pred[s′] lists the pairs that led to s′ when known (entries may go stale,
	// never missing), and linked the successors of each pair already entered in pred.
	pred   [][]int32
	linked lazy.Table[int32]
	// PlanDelta: inflow[s′] lists the weights of the known pairs leading to s′, and entered
	// marks the pairs whose weights are in it, one entry per successor of their estimate.
	delta   bool
	inflow  [][]inflow
	entered lazy.Table[bool]
	// The states whose residual exceeds ε, in buckets by the binary exponent of the residual
	// above ε's: bucket[b] holds states with residual in [2^b, 2^(b+1))·ε (the last bucket
	// everything larger). A state is in the bucket bucketOf[s] (−1: none); entries of other buckets
	// that name it are stale and skipped.
	bucket   [][]int32
	bucketOf []int8
	top      int // no bucket above top holds an entry
	// PlanIncremental: the states whose pairs one update touched, each once: stamp[s] = round
	// when listed.
	touched []int32
	stamp   []uint32
	round   uint32
}

// inflow is one known pair's weight γ·n(s,a,s′)/n(s,a) on the value of a successor s′.
type inflow struct {
	pair, state int32 // the pair (s,a) and its state s
	w           float64
}

// reset starts a task's plan of model on the counts, with ε = eps; q and v are the learner's.
func (w *sweeper) reset(model sweptModel, counts *mdp.Counts, q, v []float64, gamma float64, S, A int, eps float64, delta bool) {
	w.model, w.counts, w.q, w.v, w.gamma, w.A = model, counts, q, v, gamma, A
	w.eps, w.delta = eps, delta
	w.changed = w.changed[:0]
	if delta {
		w.inflow = emptyLists(w.inflow, S)
		w.entered.Reset(S*A, false)
	} else {
		w.pred = emptyLists(w.pred, S)
		w.linked.Reset(S*A, 0)
		w.stamp = buf.Zeroed(w.stamp, S)
		w.round = 0
	}
	if w.bucket == nil {
		w.bucket = make([][]int32, buckets)
	}
	for b := range w.bucket {
		w.bucket[b] = w.bucket[b][:0]
	}
	w.bucketOf = buf.Zeroed(w.bucketOf, S)
	for s := range w.bucketOf {
		w.bucketOf[s] = -1
	}
	w.top = 0
}

// emptyLists returns n empty lists, reusing lists' storage.
func emptyLists[T any](lists [][]T, n int) [][]T {
	if cap(lists) < n {
		return make([][]T, n)
	}
	lists = lists[:n]
	for k := range lists {
		lists[k] = lists[k][:0]
	}
	return lists
}

// beginIncremental sets every value to its value when nothing is known — R_max/(1−γ) for a
// state of unknown self-loops, 0 for a terminal state — and every q to its backup, so the
// invariant holds before the first change.
func (l *RMax) beginIncremental() {
	l.sweep.reset(l, l.stats.Counts(), l.q, l.v, l.gamma, l.S, l.A, l.P.PlanTolerance*(1-l.gamma), l.P.Planning == PlanDelta)
	for s := 0; s < l.S; s++ {
		l.v[s] = 0
		if l.terminal == nil || !l.terminal[s] {
			l.v[s] = l.P.RMax / (1 - l.gamma)
		}
	}
	l.sweep.begin()
}

// begin makes the plan of the values v the learner set: every q its backup, then a sweep until no
// residual exceeds ε. The closer v is to the fixed point, the less the sweep moves.
func (w *sweeper) begin() {
	for s := 0; s < len(w.v); s++ {
		w.backupState(s)
		w.checkResidual(s)
	}
	w.sweepStates()
}

// backup is the Bellman backup (T v)(s,a) of pair i on the optimistic model (sweptModel).
func (l *RMax) backup(i int) float64 {
	switch {
	case l.terminal != nil && l.terminal[i/l.A]:
		return 0 // no successor: an episode ends here
	case l.stats.Known(i):
		// (R(s,a) + γ Σ n(s,a,s′) v(s′)) / n(s,a): the estimate's backup with one division.
		n, r, succ := l.stats.Counts().Pair(i)
		x := 0.0
		for _, s := range succ {
			x += float64(s.N) * l.v[s.State]
		}
		return (r + l.gamma*x) / float64(n)
	case l.unknownValue != nil:
		return l.unknownValue[i]
	default:
		return l.P.RMax + l.gamma*l.v[i/l.A]
	}
}

// throughSuccessors: known pairs of states that are not terminal are planned from their
// estimates (sweptModel).
func (l *RMax) throughSuccessors(i int) bool {
	return l.stats.Known(i) && (l.terminal == nil || !l.terminal[i/l.A])
}

// loopsOn: an unknown pair loops on its state (sweptModel).
func (l *RMax) loopsOn(s int) bool { return !l.stats.StateKnown(s) }

// backupState recomputes q of every action of s.
func (w *sweeper) backupState(s int) {
	for i := s * w.A; i < s*w.A+w.A; i++ {
		w.q[i] = w.model.backup(i)
	}
}

// link enters the successors of known pair i not yet in the predecessor lists.
func (w *sweeper) link(i int) {
	succ := w.counts.Successors(i)
	linked := w.linked.Ptr(i)
	for _, x := range succ[*linked:] {
		w.pred[x.State] = append(w.pred[x.State], int32(i))
	}
	*linked = int32(len(succ))
}

// relink enters pair i's current weights in the inflow lists if it is planned through its
// successors, in place of any it had entered (PlanDelta).
func (w *sweeper) relink(i int) {
	w.retire(i)
	if !w.model.throughSuccessors(i) {
		return
	}
	n, _, succ := w.counts.Pair(i)
	s := int32(i / w.A)
	for _, x := range succ {
		// After the entries of s's other pairs, if any: moveInflows takes a state's entries as one run.
		list := w.inflow[x.State]
		k := len(list)
		for k > 0 && list[k-1].state != s {
			k--
		}
		if k == 0 {
			k = len(list)
		}
		w.inflow[x.State] = slices.Insert(list, k, inflow{pair: int32(i), state: s, w: w.gamma * float64(x.N) / float64(n)})
	}
	w.entered.Set(i, true)
}

// retire takes pair i's entries out of the inflow lists (PlanDelta); its successors must be
// those it entered them with, so a pair's estimate is changed only after this.
func (w *sweeper) retire(i int) {
	if !w.entered.At(i) {
		return
	}
	for _, x := range w.counts.Successors(i) {
		w.inflow[x.State] = slices.DeleteFunc(w.inflow[x.State], func(e inflow) bool { return int(e.pair) == i })
	}
	w.entered.Set(i, false)
}

// plan brings the plan back within tolerance after the pairs in changed moved.
func (w *sweeper) plan() {
	for _, i := range w.changed {
		switch {
		case w.delta:
			w.relink(int(i))
		case w.model.throughSuccessors(int(i)):
			w.link(int(i))
		}
		w.q[i] = w.model.backup(int(i))
		w.checkResidual(int(i) / w.A)
	}
	w.changed = w.changed[:0]
	w.sweepStates()
}

// sweepStates updates states, largest residual first (within a factor 2), until no residual
// exceeds ε.
func (w *sweeper) sweepStates() {
	for {
		s := w.pop()
		if s < 0 {
			return
		}
		old := w.v[s]
		w.v[s] = maxOf(w.q[s*w.A : s*w.A+w.A])
		// Backups that read v(s): pairs of s that loop on s, and pairs planned through s.
		if w.model.loopsOn(s) {
			if w.delta {
				w.backupLoops(s)
			} else {
				w.backupState(s)
			}
			w.checkResidual(s)
		}
		// Bring every backup into s up to date, then check each state they belong to once.
		if w.delta {
			w.moveInflows(s, w.v[s]-old)
		} else {
			w.backupPredecessors(s)
		}
	}
}

// backupPredecessors recomputes every backup into s and then checks the residual of each state
// they belong to, once (PlanIncremental).
func (w *sweeper) backupPredecessors(s int) {
	if w.round++; w.round == 0 { // wrapped: old stamps could match
		clear(w.stamp)
		w.round = 1
	}
	w.touched = w.touched[:0]
	for _, i := range w.pred[s] {
		w.q[i] = w.model.backup(int(i))
		if t := int32(int(i) / w.A); w.stamp[t] != w.round {
			w.stamp[t] = w.round
			w.touched = append(w.touched, t)
		}
	}
	for _, t := range w.touched {
		w.checkResidual(int(t))
	}
}

// backupLoops recomputes q of the actions of s that are not planned through their successors
// (PlanDelta: the others follow v(s) through their inflow entries).
func (w *sweeper) backupLoops(s int) {
	for i := s * w.A; i < s*w.A+w.A; i++ {
		if !w.model.throughSuccessors(i) {
			w.q[i] = w.model.backup(i)
		}
	}
}

// moveInflows adds to every known pair leading to s its weight times d, the change of v(s), and
// checks the residual of each state whose pairs moved (PlanDelta).
func (w *sweeper) moveInflows(s int, d float64) {
	if d == 0 {
		return
	}
	in := w.inflow[s]
	for k := 0; k < len(in); {
		t := in[k].state // a run of entries of t's pairs
		for ; k < len(in) && in[k].state == t; k++ {
			w.q[in[k].pair] += in[k].w * d
		}
		// checkResidual(t), its call saved: most often t is in no bucket and stays within ε.
		if r := w.residual(int(t)); r > w.eps || w.bucketOf[t] >= 0 {
			w.file(int(t), r)
		}
	}
}

// checkResidual files s in the bucket of its residual when that exceeds ε, and in none otherwise.
func (w *sweeper) checkResidual(s int) {
	if r := w.residual(s); r > w.eps || w.bucketOf[s] >= 0 {
		w.file(s, r)
	}
}

// residual is |max_a q(s,a) − v(s)|.
func (w *sweeper) residual(s int) float64 {
	return math.Abs(maxOf(w.q[s*w.A:s*w.A+w.A]) - w.v[s])
}

// file puts s in the bucket of its residual r, or in none when r ≤ ε.
func (w *sweeper) file(s int, r float64) {
	b := int8(-1)
	if r > w.eps {
		// r/ε > 1 is a normal float in [2^e, 2^(e+1)), e ≥ 0 its unbiased binary exponent.
		e := int(math.Float64bits(r/w.eps)>>52&0x7ff) - 1023
		b = int8(min(e, buckets-1))
	}
	if b == w.bucketOf[s] {
		return
	}
	w.bucketOf[s] = b
	if b >= 0 {
		w.bucket[b] = append(w.bucket[b], int32(s))
		w.top = max(w.top, int(b))
	}
}

// buckets is the number of residual buckets: residuals up to 2^63·ε are told apart.
const buckets = 64

func maxOf(q []float64) float64 {
	m := q[0]
	for _, x := range q[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

// pop takes a state from the highest non-empty bucket, −1 when every bucket is empty.
func (w *sweeper) pop() int {
	for w.top >= 0 {
		entries := w.bucket[w.top]
		for len(entries) > 0 {
			s := entries[len(entries)-1]
			entries = entries[:len(entries)-1]
			if w.bucketOf[s] == int8(w.top) {
				w.bucket[w.top] = entries
				w.bucketOf[s] = -1
				return int(s)
			}
		}
		w.bucket[w.top] = entries
		w.top--
	}
	w.top = 0
	return -1
}
