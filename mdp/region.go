package mdp

import (
	"fmt"
	"math"
	"slices"
)

// Region is the part of a task within some steps of a set of source states: every state a
// breadth-first search over the outcomes of non-zero probability reaches within its radius. It
// lets a task too large to solve whole be solved where a learner can be: an episode of T steps
// from a source never leaves the states within T steps of it.
type Region struct {
	Radius int
	States []int32 // the region's states in ascending order; state States[k] has local index k
	Dist   []int32 // Dist[k]: the fewest steps from a source to States[k]
	index  []int32 // local index of every state of the task, −1 outside
}

// Around returns the states of d within radius steps of sources (every state it reaches, when
// radius is S or more).
func Around(d Dynamics, sources []int, radius int) *Region {
	S, A := d.Size()
	dist := make([]int32, S)
	for s := range dist {
		dist[s] = -1
	}
	var frontier, next []int32
	for _, s := range sources {
		if dist[s] < 0 {
			dist[s] = 0
			frontier = append(frontier, int32(s))
		}
	}
	reached := slices.Clone(frontier)
	var row []Transition
	// No state is more than S steps from a source it is reachable from.
	for step := 1; step <= min(radius, S) && len(frontier) > 0; step++ {
		next = next[:0]
		for _, s := range frontier {
			for i := int(s) * A; i < int(s)*A+A; i++ {
				for _, t := range d.AppendRow(row[:0], i) {
					if dist[t.Next] < 0 {
						dist[t.Next] = int32(step)
						next = append(next, int32(t.Next))
					}
				}
			}
		}
		reached = append(reached, next...)
		frontier, next = next, frontier
	}
	slices.Sort(reached)
	r := &Region{Radius: radius, States: reached, Dist: make([]int32, len(reached)), index: dist}
	for k, s := range reached {
		r.Dist[k] = dist[s]
	}
	for s := range r.index {
		r.index[s] = -1
	}
	for k, s := range reached {
		r.index[s] = int32(k)
	}
	return r
}

// Index is the local index of state s, −1 when s is outside the region.
func (r *Region) Index(s int) int { return int(r.index[s]) }

// Whole reports whether the region holds every state of the task.
func (r *Region) Whole() bool { return len(r.States) == len(r.index) }

// sparse is the region as a model of its own: state k is States[k], and a last state n =
// len(States) stands for everything outside, absorbing with reward 0; each pair's expected reward
// is RowReward of its row, as a Model computes it.
func (r *Region) sparse(d Dynamics) *Sparse {
	_, A := d.Size()
	n := len(r.States)
	p := &Sparse{}
	p.Reset(n+1, A)
	var row []Transition
	for _, s := range r.States {
		for i := int(s) * A; i < int(s)*A+A; i++ {
			row = d.AppendRow(row[:0], i)
			p.AppendPair(RowReward(row))
			outside := 0.0
			for _, t := range row {
				if k := r.index[t.Next]; k >= 0 {
					p.AppendSuccessor(int(k), t.Prob)
				} else {
					outside += t.Prob
				}
			}
			if outside > 0 {
				p.AppendSuccessor(n, outside)
			}
			p.EndPair()
		}
	}
	for range A { // outside: no successor, reward 0, so every value there stays 0
		p.AppendPair(0)
		p.EndPair()
	}
	return p
}

// ValueIteration solves the region for its γ-discounted optimum with every state outside it
// held at value 0, to tol in max norm. Since |V*| ≤ V_max = R_max/(1−γ) everywhere, a state
// that needs at least j steps to leave the region gets V* within γ^j·V_max + tol (the error
// outside shrinks by γ with every step towards the sources); RadiusFor chooses the radius that
// makes this small. V and Q are indexed by local state (and local state·A + a).
func (r *Region) ValueIteration(d Dynamics, gamma, tol float64) (Solution, error) {
	if err := checkDiscount(gamma, tol); err != nil {
		return Solution{}, err
	}
	p := r.sparse(d)
	q := make([]float64, p.S*p.A)
	v := make([]float64, p.S)
	sweeps, ok := p.Iterate(q, v, gamma, StopFor(gamma, tol), maxSolveSweeps)
	if !ok {
		return Solution{}, fmt.Errorf("mdp: value iteration did not converge in %d sweeps", sweeps)
	}
	n, A := len(r.States), p.A
	return Solution{V: v[:n], Q: q[:n*A], Policy: GreedyPolicy(q[:n*A], n, A), Sweeps: sweeps}, nil
}

// RadiusFor is the radius around the states an episode of T steps can visit beyond which the
// region's values need not reach: j steps with γ^j·vmax ≤ tol, so that Region.ValueIteration
// with tolerance tol gives V* within 2·tol on every state within T steps of the sources.
func RadiusFor(T int, gamma, vmax, tol float64) int {
	if gamma == 0 || vmax <= tol {
		return T + 1
	}
	k := math.Ceil(math.Log(tol/vmax) / math.Log(gamma))
	return T + 1 + int(min(k, 1<<40)) // γ within 10⁻¹² of 1: past any task's reach
}

// FiniteHorizon computes V_h(s), the best expected return of h steps from s, for h = 0 … T,
// wherever an episode of T steps from a source can need it: on the states s with Dist(s) ≤ T − h.
// There it equals FiniteHorizon of the whole model bit for bit (the same backups in the same
// order, on successors within T − h + 1 steps). The Horizon is indexed by local state and holds
// NaN where it is not computed.
func (r *Region) FiniteHorizon(d Dynamics, T int) (Horizon, error) {
	if T < 0 {
		return Horizon{}, fmt.Errorf("mdp: horizon T = %d, want T >= 0", T)
	}
	if T > r.Radius {
		return Horizon{}, fmt.Errorf("mdp: horizon T = %d beyond the region's radius %d", T, r.Radius)
	}
	_, A := d.Size()
	n := len(r.States)
	v := make([]float64, (T+1)*n)
	for k := n; k < len(v); k++ {
		v[k] = math.NaN()
	}
	var row []Transition
	for h := 1; h <= T; h++ {
		prev, cur := v[(h-1)*n:h*n], v[h*n:(h+1)*n]
		for k, s := range r.States {
			if int(r.Dist[k]) > T-h {
				continue
			}
			best := math.Inf(-1)
			for i := int(s) * A; i < int(s)*A+A; i++ {
				row = d.AppendRow(row[:0], i)
				x := 0.0
				for _, t := range row {
					x += t.Prob * prev[r.index[t.Next]]
				}
				best = math.Max(best, RowReward(row)+1*x)
			}
			cur[k] = best
		}
	}
	return Horizon{S: n, T: T, v: v}, nil
}
