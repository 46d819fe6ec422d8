package template

import (
	"cmp"
	"slices"

	"github.com/temple-rl/temple/mdp"
)

// Sigma is a pair's ranking permutation σ over S states (paper Definition 7) stored by its support:
// σ[k] is the state of rank k. Top lists, largest count first, the states the pair has seen when
// σ was taken, equal counts in ascending state order; every other state follows them in ascending
// state order (decision 6) and is not stored.
type Sigma struct {
	Top []int32
	S   int
}

// Ranking returns σ of a pair's next-state counts (sparse, one entry per state, any order; zero
// counts are unseen states) over S states, with the counts in rank order (GEN-TT's descending
// visit vector, ranks 0 to k−1). O(k log k) for k successors.
func Ranking(counts []mdp.Succ, S int) (Sigma, []Count) {
	seen := make([]mdp.Succ, 0, len(counts))
	for _, x := range counts {
		if x.N != 0 {
			seen = append(seen, x)
		}
	}
	slices.SortFunc(seen, func(a, b mdp.Succ) int {
		if c := cmp.Compare(b.N, a.N); c != 0 {
			return c
		}
		return cmp.Compare(a.State, b.State)
	})
	sigma := Sigma{Top: make([]int32, len(seen)), S: S}
	ranked := make([]Count, len(seen))
	for k, x := range seen {
		sigma.Top[k], ranked[k] = x.State, Count{Rank: int32(k), N: x.N}
	}
	return sigma, ranked
}

// Rank is σ⁻¹(state): the rank of a state. An unseen state ranks behind the seen ones by its
// place among the unseen states in ascending order.
func (σ Sigma) Rank(state int32) int32 {
	below := int32(0) // seen states with a smaller index
	for k, t := range σ.Top {
		if t == state {
			return int32(k)
		}
		if t < state {
			below++
		}
	}
	return int32(len(σ.Top)) + state - below
}

// Ranked returns counts (sparse, by state) reordered by σ — rank k holds counts[σ[k]] — as
// visits in ascending rank with zeros left out. With σ = Ranking(counts) these are the counts in
// descending order; a pair's later counts keep the σ of its identification.
func (σ Sigma) Ranked(counts []mdp.Succ) []Count {
	out := make([]Count, 0, len(counts))
	for _, x := range counts {
		if x.N != 0 {
			out = append(out, Count{Rank: σ.Rank(x.State), N: x.N})
		}
	}
	slices.SortFunc(out, func(a, b Count) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

// Agrees reports whether σ and τ put ranks 0 to ranks−1 on the same states: augmenting with a
// template whose visits stop before rank ranks gives the same counts through either.
func (σ Sigma) Agrees(τ Sigma, ranks int) bool {
	a, b := σ.stateOf(), τ.stateOf()
	for r := int32(0); r < int32(ranks); r++ {
		x, okx := a(r)
		y, oky := b(r)
		if okx != oky || x != y {
			return false
		}
	}
	return true
}

// stateOf returns σ as a function of rank: the state of rank r, and false for a rank ≥ S, which
// no state has. Ranks beyond the seen states go to the unseen states in ascending order.
func (σ Sigma) stateOf() func(r int32) (int32, bool) {
	var sorted []int32 // the seen states in ascending order, once a rank beyond them is asked for
	return func(r int32) (int32, bool) {
		switch {
		case int(r) >= σ.S:
			return 0, false
		case int(r) < len(σ.Top):
			return σ.Top[r], true
		}
		if sorted == nil {
			sorted = slices.Sorted(slices.Values(σ.Top))
		}
		// The u-th unseen state is u plus the number of seen states at or below it.
		s := r - int32(len(σ.Top))
		for _, t := range sorted {
			if t > s {
				break
			}
			s++
		}
		return s, true
	}
}

// Placed returns g^(p) put back in state order through σ (the pair's probabilities, under g):
// the states of the template's ranks, ascending by state, ranks beyond S left out.
func (g Point) Placed(sigma Sigma) []StateProb {
	state := sigma.stateOf()
	out := make([]StateProb, 0, len(g.P))
	for j, p := range g.P {
		s, ok := state(g.rank(j))
		if !ok {
			break
		}
		out = append(out, StateProb{State: s, P: p})
	}
	slices.SortFunc(out, func(a, b StateProb) int { return cmp.Compare(a.State, b.State) })
	return out
}

// StateProb is a probability of one next state.
type StateProb = mdp.StateProb
