package agent

import (
	"math"

	"github.com/temple-rl/temple/internal/buf"
)

// Incremental planning (PlanIncremental): prioritized sweeping on the optimistic model from the
// pairs that changed. Between plans every pair keeps q(s,a) = (T v)(s,a), the Bellman backup of
// the current values v, and every state its residual |max_a q(s,a) − v(s)| ≤ ε, where ε =
// tolerance·(1−γ). A change recomputes the changed pairs' backups; states whose residual exceeds
// ε are updated largest residual first, v(s) ← max_a q(s,a), and the backups that read v(s) —
// known pairs leading to s, unknown pairs of s (a self-loop) — are recomputed and their states'
// residuals checked, until no residual exceeds ε. Then ‖v − V*‖∞ ≤ ε/(1−γ) = tolerance (T is a
// γ-contraction) and ‖q − Q*‖∞ ≤ γ·tolerance: the guarantee of a full plan, at a cost that grows
// with the states whose values move.

// sweeper holds the state of incremental planning of one task.
type sweeper struct {
	changed []int32   // pairs whose backup may have changed since the last plan
	pred    [][]int32 // pred[s′]: pairs that led to s′ when known (entries may go stale, never missing)
	linked  []int32   // successors of each pair already entered in pred
	eps     float64   // ε: the largest residual a plan leaves
	// A max-heap of the states whose residual exceeds ε.
	heap []int32
	pos  []int32   // position of each state in heap, −1 when absent
	res  []float64 // residual of each state in heap
	// The states whose pairs one update touched, each once: stamp[s] = round when listed.
	touched []int32
	stamp   []uint32
	round   uint32
}

func (w *sweeper) reset(S, A int, eps float64) {
	w.eps = eps
	w.changed = w.changed[:0]
	if cap(w.pred) >= S {
		w.pred = w.pred[:S]
		for s := range w.pred {
			w.pred[s] = w.pred[s][:0]
		}
	} else {
		w.pred = make([][]int32, S)
	}
	w.linked = buf.Zeroed(w.linked, S*A)
	w.heap = w.heap[:0]
	w.pos = buf.Zeroed(w.pos, S)
	for s := range w.pos {
		w.pos[s] = -1
	}
	w.res = buf.Zeroed(w.res, S)
	w.stamp = buf.Zeroed(w.stamp, S)
	w.round = 0
}

// beginIncremental sets every value to its value when nothing is known — R_max/(1−γ) for a
// state of unknown self-loops, 0 for a terminal state — and every q to its backup, so the
// invariant holds before the first change.
func (l *Learner) beginIncremental() {
	l.sweep.reset(l.S, l.A, l.P.PlanTolerance*(1-l.gamma))
	for s := 0; s < l.S; s++ {
		l.v[s] = 0
		if l.terminal == nil || !l.terminal[s] {
			l.v[s] = l.P.RMax / (1 - l.gamma)
		}
	}
	for s := 0; s < l.S; s++ {
		l.backupState(s)
		l.checkResidual(s)
	}
	l.sweepHeap()
}

// backup is the Bellman backup (T v)(s,a) of pair i on the optimistic model.
func (l *Learner) backup(i int) float64 {
	switch {
	case l.terminal != nil && l.terminal[i/l.A]:
		return 0 // no successor: an episode ends here
	case l.known[i]:
		// (R(s,a) + γ Σ n(s,a,s′) v(s′)) / n(s,a): the estimate's backup with one division.
		x := 0.0
		for _, s := range l.counts.Successors(i) {
			x += float64(s.N) * l.v[s.State]
		}
		return (l.counts.R(i) + l.gamma*x) / float64(l.counts.N(i))
	case l.unknownValue != nil:
		return l.unknownValue[i]
	default:
		return l.P.RMax + l.gamma*l.v[i/l.A]
	}
}

// backupState recomputes q of every action of s.
func (l *Learner) backupState(s int) {
	for i := s * l.A; i < s*l.A+l.A; i++ {
		l.q[i] = l.backup(i)
	}
}

// link enters the successors of known pair i not yet in the predecessor lists.
func (l *Learner) link(i int) {
	w := &l.sweep
	succ := l.counts.Successors(i)
	for _, x := range succ[w.linked[i]:] {
		w.pred[x.State] = append(w.pred[x.State], int32(i))
	}
	w.linked[i] = int32(len(succ))
}

// planIncremental brings the plan back within tolerance after the pairs in sweep.changed moved.
func (l *Learner) planIncremental() {
	w := &l.sweep
	for _, i := range w.changed {
		if l.known[i] {
			l.link(int(i))
		}
		l.q[i] = l.backup(int(i))
		l.checkResidual(int(i) / l.A)
	}
	w.changed = w.changed[:0]
	l.sweepHeap()
}

// sweepHeap updates states, largest residual first, until no residual exceeds ε.
func (l *Learner) sweepHeap() {
	w := &l.sweep
	for len(w.heap) > 0 {
		s := int(w.pop())
		l.v[s] = maxOf(l.q[s*l.A : s*l.A+l.A])
		// Backups that read v(s): unknown pairs of s, which loop on s, and known pairs into s.
		if l.knownActions[s] < l.A {
			l.backupState(s)
			l.checkResidual(s)
		}
		// Recompute every backup into s, then check each state they belong to once.
		if w.round++; w.round == 0 { // wrapped: old stamps could match
			clear(w.stamp)
			w.round = 1
		}
		w.touched = w.touched[:0]
		for _, i := range w.pred[s] {
			l.q[i] = l.backup(int(i))
			if t := int32(int(i) / l.A); w.stamp[t] != w.round {
				w.stamp[t] = w.round
				w.touched = append(w.touched, t)
			}
		}
		for _, t := range w.touched {
			l.checkResidual(int(t))
		}
	}
}

// checkResidual keeps s in the heap, at its residual, exactly when the residual exceeds ε.
func (l *Learner) checkResidual(s int) {
	r := math.Abs(maxOf(l.q[s*l.A:s*l.A+l.A]) - l.v[s])
	w := &l.sweep
	switch {
	case w.pos[s] >= 0 && r > w.eps:
		w.update(int32(s), r)
	case w.pos[s] >= 0:
		w.remove(int32(s))
	case r > w.eps:
		w.push(int32(s), r)
	}
}

func maxOf(q []float64) float64 {
	m := q[0]
	for _, x := range q[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

func (w *sweeper) push(s int32, r float64) {
	w.res[s] = r
	w.pos[s] = int32(len(w.heap))
	w.heap = append(w.heap, s)
	w.up(len(w.heap) - 1)
}

func (w *sweeper) update(s int32, r float64) {
	old := w.res[s]
	w.res[s] = r
	if r > old {
		w.up(int(w.pos[s]))
	} else {
		w.down(int(w.pos[s]))
	}
}

func (w *sweeper) pop() int32 {
	top := w.heap[0]
	w.remove(top)
	return top
}

// remove takes s out of the heap: the last state takes its place and moves up or down.
func (w *sweeper) remove(s int32) {
	i, last := int(w.pos[s]), len(w.heap)-1
	w.swap(i, last)
	w.heap = w.heap[:last]
	w.pos[s] = -1
	if i < last {
		w.down(i)
		w.up(i)
	}
}

func (w *sweeper) swap(i, j int) {
	w.heap[i], w.heap[j] = w.heap[j], w.heap[i]
	w.pos[w.heap[i]], w.pos[w.heap[j]] = int32(i), int32(j)
}

func (w *sweeper) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if w.res[w.heap[p]] >= w.res[w.heap[i]] {
			return
		}
		w.swap(i, p)
		i = p
	}
}

func (w *sweeper) down(i int) {
	n := len(w.heap)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && w.res[w.heap[c+1]] > w.res[w.heap[c]] {
			c++
		}
		if w.res[w.heap[i]] >= w.res[w.heap[c]] {
			return
		}
		w.swap(i, c)
		i = c
	}
}
