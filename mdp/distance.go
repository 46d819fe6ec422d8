package mdp

import "math"

// Distance is the distance between two true models of the same S and A, as ModelDistance measures
// empirical ones (decision 11): the largest ‖P_x(·|s,a) − P_y(·|s,a)‖₂ + |R_x(s,a) − R_y(s,a)|
// over every pair; +Inf when they differ in size.
func Distance(x, y *Model) float64 {
	if x.S != y.S || x.A != y.A {
		return math.Inf(1)
	}
	d := 0.0
	px, py := make([]float64, x.S), make([]float64, x.S)
	for s := 0; s < x.S; s++ {
		for a := 0; a < x.A; a++ {
			clear(px)
			clear(py)
			for _, t := range x.Row(s, a) {
				px[t.Next] = t.Prob
			}
			for _, t := range y.Row(s, a) {
				py[t.Next] = t.Prob
			}
			l2 := 0.0
			for k := range px {
				l2 += (px[k] - py[k]) * (px[k] - py[k])
			}
			d = math.Max(d, math.Sqrt(l2)+math.Abs(x.ExpectedReward(s, a)-y.ExpectedReward(s, a)))
		}
	}
	return d
}

// ModelGap is the model gap of a set of true models: the smallest Distance between two of them
// that differ (by more than 1e-9); +Inf when no two differ. A grouping threshold Γ (FM-TempLe's
// and FMRL's model_gap) at or above it can put distinct models in one group.
func ModelGap(models []*Model) float64 {
	gap := math.Inf(1)
	for i := range models {
		for j := i + 1; j < len(models); j++ {
			if d := Distance(models[i], models[j]); d > 1e-9 {
				gap = math.Min(gap, d)
			}
		}
	}
	return gap
}
