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
	var rx, ry []Succ // one pair's successors in ascending state order
	d, shared := 0.0, false
	for i := 0; i < x.S*x.A; i++ {
		nx, ny := x.N(i), y.N(i)
		if nx < minSamples || ny < minSamples || nx == 0 || ny == 0 {
			continue
		}
		shared = true
		rx, ry = byState(rx, x.Successors(i)), byState(ry, y.Successors(i))
		fx, fy := float64(nx), float64(ny)
		sq := 0.0
		a, b := 0, 0
		for a < len(rx) || b < len(ry) {
			var v float64
			switch {
			case b == len(ry) || a < len(rx) && rx[a].State < ry[b].State:
				v = float64(rx[a].N) / fx
				a++
			case a == len(rx) || ry[b].State < rx[a].State:
				v = float64(ry[b].N) / fy
				b++
			default:
				v = float64(rx[a].N)/fx - float64(ry[b].N)/fy
				a, b = a+1, b+1
			}
			sq += v * v
		}
		d = math.Max(d, math.Sqrt(sq)+math.Abs(x.R(i)/fx-y.R(i)/fy))
	}
	if !shared {
		return math.Inf(1)
	}
	return d
}

// byState copies succ into dst sorted by ascending state.
func byState(dst, succ []Succ) []Succ {
	dst = append(dst[:0], succ...)
	slices.SortFunc(dst, func(a, b Succ) int { return cmp.Compare(a.State, b.State) })
	return dst
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
