package baseline

import (
	"fmt"
	"math"

	"github.com/temple-rl/temple/mdp"
)

// AbstractionKind selects one of the Q*-based state abstractions of Abel, Arumugam, Lehnert &
// Littman, "State abstractions for lifelong reinforcement learning" (ICML 2018).
type AbstractionKind string

const (
	// QStarEpsilon is φ_{Q*ε}: s1 ~ s2 iff |Q*(s1,a) − Q*(s2,a)| ≤ ε for every action a.
	QStarEpsilon AbstractionKind = "q-star-epsilon"
	// QStarDiscrete is φ_{Q*d}: s1 ~ s2 iff ⌊Q*(s1,a)/ε⌋ = ⌊Q*(s2,a)/ε⌋ for every action a.
	QStarDiscrete AbstractionKind = "q-star-d"
	// QStarExact is φ_{Q*}: s1 ~ s2 iff Q*(s1,a) = Q*(s2,a) for every action a, compared with
	// the tolerance ExactQTolerance.
	QStarExact AbstractionKind = "q-star"
)

// ExactQTolerance is how far two Q* values may differ and still count as equal for φ_{Q*}. The
// solver stops within 1e-10 of Q* in max norm, so two states with equal true values may differ
// by up to 2e-10 in their computed ones; 1e-9 absorbs that rounding and nothing more.
const ExactQTolerance = 1e-9

// checkKind validates kind and the ε it is used with.
func checkKind(kind AbstractionKind, eps float64) error {
	switch kind {
	case QStarEpsilon:
		if !(eps >= 0) || math.IsInf(eps, 0) {
			return fmt.Errorf("abs-rl: epsilon = %v for %s, want a finite number >= 0", eps, kind)
		}
	case QStarDiscrete:
		if !(eps > 0) || math.IsInf(eps, 0) {
			return fmt.Errorf("abs-rl: epsilon = %v for %s, want a finite number > 0", eps, kind)
		}
	case QStarExact:
	default:
		return fmt.Errorf("abs-rl: abstraction %q, want %q, %q or %q", kind, QStarEpsilon, QStarDiscrete, QStarExact)
	}
	return nil
}

// Abstraction maps each ground state to an abstract state 0..Size()−1.
type Abstraction struct {
	of   []int
	size int
}

// Of is the abstract state of ground state s.
func (a *Abstraction) Of(s int) int { return a.of[s] }

// Size is the number of abstract states.
func (a *Abstraction) Size() int { return a.size }

// States is the number of ground states.
func (a *Abstraction) States() int { return len(a.of) }

// Clusters lists the ground states of every abstract state, in index order.
func (a *Abstraction) Clusters() [][]int {
	out := make([][]int, a.size)
	for s, c := range a.of {
		out[c] = append(out[c], s)
	}
	return out
}

// ClusterQ groups the S states of a Q table (indexed s*A+a) by the abstraction kind with ε (not
// used by QStarExact).
//
// The ε-predicate is not transitive, so clusters are formed greedily and deterministically:
// states are visited in index order; a state not yet in a cluster starts a new one, and every
// later state not yet in a cluster that satisfies the predicate with the new cluster's first state
// joins it. Every state thus gets exactly one cluster, and abstract states are numbered in order
// of their first state. (For φ_{Q*d} the predicate is an equivalence and the clusters are its
// classes. The published routines build candidate sets per state and relabel states that appear
// in several sets; their result depends on dictionary order.)
//
// φ_{Q*d} buckets a value x as ⌊x/ε⌋ with a true floor. The published code truncates toward zero,
// which makes the bucket around 0 twice as wide as the others; that is a bug and is not
// reproduced.
func ClusterQ(q []float64, S, A int, kind AbstractionKind, eps float64) (*Abstraction, error) {
	if err := checkKind(kind, eps); err != nil {
		return nil, err
	}
	if S < 1 || A < 1 || len(q) != S*A {
		return nil, fmt.Errorf("abs-rl: Q table has %d entries, want S*A = %d*%d", len(q), S, A)
	}
	for i, x := range q {
		if !finite(x) {
			return nil, fmt.Errorf("abs-rl: Q*(%d,%d) = %v, want a finite number", i/A, i%A, x)
		}
	}
	same := func(x, y float64) bool { return math.Abs(x-y) <= eps }
	switch kind {
	case QStarExact:
		same = func(x, y float64) bool { return math.Abs(x-y) <= ExactQTolerance }
	case QStarDiscrete:
		same = func(x, y float64) bool { return math.Floor(x/eps) == math.Floor(y/eps) }
	}
	ab := &Abstraction{of: make([]int, S)}
	for s := range ab.of {
		ab.of[s] = -1
	}
	for s := 0; s < S; s++ {
		if ab.of[s] >= 0 {
			continue
		}
		c := ab.size
		ab.size++
		ab.of[s] = c
		for t := s + 1; t < S; t++ {
			if ab.of[t] >= 0 {
				continue
			}
			together := true
			for a := 0; a < A && together; a++ {
				together = same(q[s*A+a], q[t*A+a])
			}
			if together {
				ab.of[t] = c
			}
		}
	}
	return ab, nil
}

// TaskAbstraction solves the model m exactly (value iteration within 1e-10 of Q* with discount
// gamma) and clusters its states with ClusterQ.
func TaskAbstraction(m *mdp.Model, gamma float64, kind AbstractionKind, eps float64) (*Abstraction, error) {
	if err := checkKind(kind, eps); err != nil {
		return nil, err
	}
	sol, err := mdp.ValueIteration(m, gamma, exactTolerance)
	if err != nil {
		return nil, fmt.Errorf("abs-rl: %w", err)
	}
	return ClusterQ(sol.Q, m.S, m.A, kind, eps)
}

// Intersect keeps two ground states together only if every abstraction groups them: the abstract
// state of s is the tuple of its abstract states under each abstraction, renumbered in order of
// first appearance by state index. All abstractions must have the same ground states.
func Intersect(abs ...*Abstraction) (*Abstraction, error) {
	if len(abs) == 0 {
		return nil, fmt.Errorf("abs-rl: no abstractions to intersect")
	}
	for k, b := range abs {
		if b == nil || b.States() == 0 {
			return nil, fmt.Errorf("abs-rl: abstraction of task %d is empty", k)
		}
	}
	S := abs[0].States()
	out := &Abstraction{of: append([]int(nil), abs[0].of...), size: abs[0].size}
	for k, b := range abs[1:] {
		if b.States() != S {
			return nil, fmt.Errorf("abs-rl: abstraction of task %d has %d states, task 0 has %d", k+1, b.States(), S)
		}
		ids := make(map[[2]int]int, out.size)
		for s := 0; s < S; s++ {
			key := [2]int{out.of[s], b.of[s]}
			c, ok := ids[key]
			if !ok {
				c = len(ids)
				ids[key] = c
			}
			out.of[s] = c
		}
		out.size = len(ids)
	}
	return out, nil
}

// NewAbstraction computes the abstraction of every task model and intersects them (decision 24).
// All models must have the same number of states. A terminal state of any task never shares an
// abstract state with a state that is not terminal in that task, so that the learner on the
// abstraction knows where episodes end.
func NewAbstraction(models []*mdp.Model, gamma float64, kind AbstractionKind, eps float64) (*Abstraction, error) {
	if err := checkKind(kind, eps); err != nil {
		return nil, err
	}
	if len(models) == 0 {
		return nil, fmt.Errorf("abs-rl: no task models to abstract")
	}
	per := make([]*Abstraction, len(models))
	for k, m := range models {
		if m == nil {
			return nil, fmt.Errorf("abs-rl: task model %d is missing", k)
		}
		if m.S != models[0].S {
			return nil, fmt.Errorf("abs-rl: task model %d has %d states, task model 0 has %d; Abs-RL needs one state space", k, m.S, models[0].S)
		}
		sol, err := mdp.ValueIteration(m, gamma, exactTolerance)
		if err != nil {
			return nil, fmt.Errorf("abs-rl: task model %d: %w", k, err)
		}
		if per[k], err = ClusterQ(sol.Q, m.S, m.A, kind, eps); err != nil {
			return nil, fmt.Errorf("abs-rl: task model %d: %w", k, err)
		}
		if terminal := m.TerminalStates(); terminal != nil {
			per = append(per, splitTerminal(terminal))
		}
	}
	return Intersect(per...)
}

// splitTerminal is the abstraction with two abstract states: the states that are not terminal
// and the terminal ones, numbered in order of first appearance.
func splitTerminal(terminal []bool) *Abstraction {
	ab := &Abstraction{of: make([]int, len(terminal)), size: 1}
	for s, t := range terminal {
		if t != terminal[0] {
			ab.of[s], ab.size = 1, 2
		}
	}
	return ab
}
