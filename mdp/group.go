package mdp

import (
	"cmp"
	"math"
	"slices"
)

// ModelDistance is the distance between two empirical models of the same S and A used to group
// the models of the finite-model setting (decision 11): the largest
// ‖P̂_x(·|s,a) − P̂_y(·|s,a)‖₂ + |R̂_x(s,a) − R̂_y(s,a)| over the pairs that both have at least
// minSamples samples of (fewer give estimates too noisy to compare), in natural state order;
// +Inf when they share no such pair or differ in size.
func ModelDistance(x, y *Counts, minSamples int64) float64 {
	if x.S != y.S || x.A != y.A {
		return math.Inf(1)
	}
	var px, py []StateProb // one pair's estimated distributions in ascending state order
	d, shared := 0.0, false
	for i := 0; i < x.S*x.A; i++ {
		nx, ny := x.N(i), y.N(i)
		if nx < minSamples || ny < minSamples || nx == 0 || ny == 0 {
			continue
		}
		shared = true
		fx, fy := float64(nx), float64(ny)
		px, py = Frequencies(px, x.Successors(i), fx), Frequencies(py, y.Successors(i), fy)
		d = math.Max(d, L2(px, py)+math.Abs(x.R(i)/fx-y.R(i)/fy))
	}
	if !shared {
		return math.Inf(1)
	}
	return d
}

// StateProb is a probability of one next state.
type StateProb struct {
	State int32
	P     float64
}

// Frequencies writes into dst the successors' counts divided by n, in ascending state order.
func Frequencies(dst []StateProb, succ []Succ, n float64) []StateProb {
	dst = dst[:0]
	for _, x := range succ {
		dst = append(dst, StateProb{State: x.State, P: float64(x.N) / n})
	}
	slices.SortFunc(dst, func(a, b StateProb) int { return cmp.Compare(a.State, b.State) })
	return dst
}

// L2 is ‖x − y‖₂ of two sparse distributions, each in ascending state order; the squares are
// summed in state order.
func L2(x, y []StateProb) float64 {
	sum := 0.0
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		var d float64
		switch {
		case j == len(y) || i < len(x) && x[i].State < y[j].State:
			d = x[i].P
			i++
		case i == len(x) || y[j].State < x[i].State:
			d = y[j].P
			j++
		default:
			d = x[i].P - y[j].P
			i, j = i+1, j+1
		}
		sum += d * d
	}
	return math.Sqrt(sum)
}

// GroupModels clusters models in order (decision 11): each joins the closest existing group
// within gap (ties to the lowest group), adding its counts to the group's, or starts a new group.
// The records are not modified.
func GroupModels(records []*Counts, gap float64, minSamples int64) []*Counts {
	var groups []*Counts
	for _, x := range records {
		best, bestD := -1, math.Inf(1)
		for g, y := range groups {
			if d := ModelDistance(x, y, minSamples); d <= gap && d < bestD {
				best, bestD = g, d
			}
		}
		if best < 0 {
			groups = append(groups, x.Clone())
		} else {
			groups[best].Merge(x)
		}
	}
	return groups
}
