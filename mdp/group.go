package mdp

import "math"

// ModelDistance is the distance between two empirical models of the same S and A used to group
// the models of the finite-model setting (decision 11): the largest
// ‖P̂_x(·|s,a) − P̂_y(·|s,a)‖₂ + |R̂_x(s,a) − R̂_y(s,a)| over the pairs that both have at least
// minSamples samples of (fewer give estimates too noisy to compare), in natural state order;
// +Inf when they share no such pair or differ in size.
func ModelDistance(x, y *Counts, minSamples int64) float64 {
	if x.S != y.S || x.A != y.A {
		return math.Inf(1)
	}
	diff := make([]float64, x.S)
	d, shared := 0.0, false
	for i := 0; i < x.S*x.A; i++ {
		nx, ny := x.N(i), y.N(i)
		if nx < minSamples || ny < minSamples || nx == 0 || ny == 0 {
			continue
		}
		shared = true
		clear(diff)
		for _, s := range x.Successors(i) {
			diff[s.State] += float64(s.N) / float64(nx)
		}
		for _, s := range y.Successors(i) {
			diff[s.State] -= float64(s.N) / float64(ny)
		}
		sq := 0.0
		for _, v := range diff {
			sq += v * v
		}
		d = math.Max(d, math.Sqrt(sq)+math.Abs(x.R(i)/float64(nx)-y.R(i)/float64(ny)))
	}
	if !shared {
		return math.Inf(1)
	}
	return d
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
