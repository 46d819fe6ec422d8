package measures

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/temple-rl/temple/mdp"
)

// DefaultTolerance is the largest error Diameter allows on each expected hitting time (in steps).
const DefaultTolerance = 1e-6

// ExactStates is the most reachable states whose diameter Diameter computes over every target
// without being asked to (Targets). The exact diameter solves one hitting-time problem per target
// state, each a value iteration over the states: about S² work, times the sweeps a target needs
// (its longest hitting time, times a few). A 32×32 maze (1 024 states) takes
// seconds; docs/reference/measures.md gives the measured times.
const ExactStates = 1024

// maxHittingSweeps bounds one target's value iteration: a target reached almost surely but only
// through transitions of tiny probability can need more, and is reported as an error.
const maxHittingSweeps = 1_000_000

// DiameterOptions choose how much of a large model's diameter to compute.
type DiameterOptions struct {
	// Targets, when positive and fewer than the reachable states, is how many target states s′
	// to draw, uniformly without replacement (from Seed): the diameter is then the largest hitting
	// time into the targets drawn, a lower bound on D. 0 takes every reachable state, which
	// models of more than ExactStates reachable states refuse (give Targets; Targets at or above
	// the number of reachable states takes them all, at any size).
	Targets int
	Seed    uint64
	// Tolerance bounds the error of every hitting time computed; 0 means DefaultTolerance.
	Tolerance float64
}

// Diameter is the diameter D of a model (Jaksch, Ortner & Auer 2010, Definition 1; Colosseum's
// diameter): the largest, over ordered pairs of distinct reachable states s ≠ s′, of the least
// expected number of steps any policy needs to reach s′ from s,
// D = max_{s≠s′} min_π E[T(s′ | π, s)].
type Diameter struct {
	// D is the diameter in steps; +Inf when some reachable state cannot reach another with
	// probability 1 under any policy.
	D float64
	// From and To are a pair that attains D (the first found, targets in increasing order and
	// sources in increasing order); −1 when there is no pair (a single reachable state, D = 0).
	From, To int
	// States is the number of reachable states, Targets the number of target states s′ used.
	States, Targets int
	// Sampled says that Targets < States: D is then a lower bound on the diameter.
	Sampled bool
	// Sweeps is the number of value-iteration sweeps over all targets: the work done.
	Sweeps int
}

// DiameterOf computes the diameter of m. The model is read as the runner plays it: a terminal
// state ends the episode and the next begins from the start distribution μ (the step into the
// terminal state counts, the reset takes no step); only the states some policy reaches from μ
// count, as sources and as targets. A terminal state is never the largest source: from it every
// hitting time is μ's mixture of those of the start states.
//
// Each target s′ is an exact stochastic-shortest-path problem: first the states that reach s′
// with probability 1 under some policy (the others, and every action that can leave them, have
// an infinite expected time), then value iteration from 0 on the rest, T(s) ← min_a 1 +
// Σ p(x|s,a)·T(x). The iterates rise to the least hitting times; it stops when the change δ of a
// sweep certifies T* ≤ T/(1 − δ) (a greedy policy π then has 1 + P_π T ≤ T + δ, so
// E_π[time] ≤ T/(1 − δ)) within the tolerance.
func DiameterOf(m *mdp.Model, opt DiameterOptions) (Diameter, error) {
	tol := opt.Tolerance
	if tol == 0 {
		tol = DefaultTolerance
	}
	if !(tol > 0) || math.IsInf(tol, 0) {
		return Diameter{}, fmt.Errorf("measures: diameter tolerance %v, want a finite number > 0", opt.Tolerance)
	}
	if opt.Targets < 0 {
		return Diameter{}, fmt.Errorf("measures: diameter targets %d, want 0 (every reachable state) or more", opt.Targets)
	}
	reach := reachable(m)
	var states []int
	for s, r := range reach {
		if r {
			states = append(states, s)
		}
	}
	d := Diameter{From: -1, To: -1, States: len(states)}
	targets := states
	switch {
	case opt.Targets > 0 && opt.Targets < len(states):
		targets = sample(states, opt.Targets, opt.Seed)
		d.Sampled = true
	case opt.Targets == 0 && len(states) > ExactStates:
		return Diameter{}, fmt.Errorf("measures: the diameter of a model with %d reachable states (more than %d) "+
			"solves %d hitting-time problems of %d states each: give DiameterOptions.Targets (a sampled lower bound), "+
			"or Targets >= %d for the exact diameter", len(states), ExactStates, len(states), len(states), len(states))
	}
	d.Targets = len(targets)
	h := newHitting(m, reach)
	for _, g := range targets {
		sweeps, err := h.solve(g, tol)
		d.Sweeps += sweeps
		if err != nil {
			return Diameter{}, err
		}
		for _, s := range states {
			if s == g || m.Terminal(s) {
				continue
			}
			t := math.Inf(1)
			if h.in[s] {
				t = h.v[s]
			}
			if t > d.D || d.From < 0 {
				d.D, d.From, d.To = t, s, g
			}
			if math.IsInf(t, 1) {
				return d, nil
			}
		}
	}
	return d, nil
}

// sample draws k of xs, uniformly without replacement, and returns them in increasing order.
func sample(xs []int, k int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x6d656173))
	pool := slices.Clone(xs)
	for i := range k {
		j := i + rng.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	chosen := pool[:k]
	slices.Sort(chosen)
	return chosen
}

// reachable marks the states some policy reaches from the start distribution with positive
// probability, a terminal state leading back to the start distribution.
func reachable(m *mdp.Model) []bool {
	reach := make([]bool, m.S)
	var stack []int
	visit := func(s int) {
		if !reach[s] {
			reach[s] = true
			stack = append(stack, s)
		}
	}
	start := m.StartDistribution()
	for s, p := range start {
		if p > 0 {
			visit(s)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m.Terminal(s) {
			continue // its successors are the start states, already visited
		}
		for i := s * m.A; i < (s+1)*m.A; i++ {
			for k := m.Start[i]; k < m.Start[i+1]; k++ {
				visit(int(m.Next[k]))
			}
		}
	}
	return reach
}

// hitting solves the hitting-time problems of one model, target by target, reusing its buffers.
type hitting struct {
	m      *mdp.Model
	reach  []bool
	start  []float64 // μ
	in     []bool    // in[s]: s reaches the current target with probability 1 under some policy
	good   []bool    // good[i]: every successor of pair i is in
	v, nxt []float64 // hitting times, this sweep and the next; a terminal state holds μ's mixture
}

func newHitting(m *mdp.Model, reach []bool) *hitting {
	return &hitting{m: m, reach: reach, start: m.StartDistribution(), in: make([]bool, m.S),
		good: make([]bool, m.S*m.A), v: make([]float64, m.S), nxt: make([]float64, m.S)}
}

// solve sets h.in and h.v for target g: the states that reach g almost surely and their least
// expected hitting times, within tol. It returns the sweeps spent.
func (h *hitting) solve(g int, tol float64) (int, error) {
	h.almostSure(g)
	m := h.m
	clear(h.v)
	for sweep := 1; sweep <= maxHittingSweeps; sweep++ {
		delta, largest := 0.0, 0.0
		for s := 0; s < m.S; s++ {
			switch {
			case !h.in[s] || s == g:
				h.nxt[s] = 0
				continue
			case m.Terminal(s):
				continue // set below, once the start states' new times are known
			}
			best := math.Inf(1)
			for i := s * m.A; i < (s+1)*m.A; i++ {
				if !h.good[i] {
					continue
				}
				x := 1.0
				for k := m.Start[i]; k < m.Start[i+1]; k++ {
					x += m.Prob[k] * h.v[m.Next[k]]
				}
				if x < best {
					best = x
				}
			}
			h.nxt[s] = best
			if d := best - h.v[s]; d > delta {
				delta = d
			}
			if h.v[s] > largest {
				largest = h.v[s]
			}
		}
		// A terminal state's time is μ's mixture of the start states' times of the same sweep:
		// it moves with them, so δ (measured on the other states) bounds its change too.
		reset := h.resetValue(h.nxt, g)
		for s := 0; s < m.S; s++ {
			if h.in[s] && s != g && m.Terminal(s) {
				h.nxt[s] = reset
			}
		}
		h.v, h.nxt = h.nxt, h.v
		if delta < 1 && largest*delta/(1-delta) <= tol {
			return sweep, nil
		}
	}
	return maxHittingSweeps, fmt.Errorf("measures: the hitting times into state %d did not converge in %d sweeps", g, maxHittingSweeps)
}

// resetValue is the time to g from the start of the next episode: Σ_y μ(y)·v(y).
func (h *hitting) resetValue(v []float64, g int) float64 {
	r := 0.0
	for y, p := range h.start {
		if p > 0 && y != g {
			r += p * v[y]
		}
	}
	return r
}

// almostSure sets h.in to the reachable states from which some policy reaches g with probability
// 1, and h.good to the pairs of those states whose every successor is among them (de Alfaro's
// fixpoint: drop the states that cannot reach g without risking a state that cannot, until none
// is dropped). A terminal state's one way on is the start distribution.
func (h *hitting) almostSure(g int) {
	m := h.m
	copy(h.in, h.reach)
	closure := make([]bool, m.S)
	for {
		// good: the pairs that stay among the current states.
		for s := 0; s < m.S; s++ {
			for i := s * m.A; i < (s+1)*m.A; i++ {
				h.good[i] = h.in[s] && !m.Terminal(s) && h.staysIn(i)
			}
		}
		// closure: the current states that reach g through good pairs.
		clear(closure)
		closure[g] = h.in[g]
		for changed := true; changed; {
			changed = false
			for s := 0; s < m.S; s++ {
				if closure[s] || !h.in[s] || !h.leadsInto(s, closure) {
					continue
				}
				closure[s], changed = true, true
			}
		}
		if !h.shrink(closure) {
			return
		}
	}
}

// staysIn reports whether every successor of pair i is among h.in.
func (h *hitting) staysIn(i int) bool {
	m := h.m
	for k := m.Start[i]; k < m.Start[i+1]; k++ {
		if !h.in[m.Next[k]] {
			return false
		}
	}
	return true
}

// leadsInto reports whether s has a way on, among h.in, with a successor in set: a good pair of a
// state, or a terminal state's reset when every start state is in h.in.
func (h *hitting) leadsInto(s int, set []bool) bool {
	m := h.m
	if m.Terminal(s) {
		hits := false
		for y, p := range h.start {
			if p > 0 {
				if !h.in[y] {
					return false
				}
				hits = hits || set[y]
			}
		}
		return hits
	}
	for i := s * m.A; i < (s+1)*m.A; i++ {
		if !h.good[i] {
			continue
		}
		for k := m.Start[i]; k < m.Start[i+1]; k++ {
			if set[m.Next[k]] {
				return true
			}
		}
	}
	return false
}

// shrink sets h.in to closure and reports whether that dropped a state.
func (h *hitting) shrink(closure []bool) bool {
	dropped := false
	for s := range h.in {
		if h.in[s] && !closure[s] {
			h.in[s], dropped = false, true
		}
	}
	return dropped
}
