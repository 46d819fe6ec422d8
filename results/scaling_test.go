package results

import (
	"math"
	"testing"
)

func TestScalingFitsByHand(t *testing.T) {
	// Samples 3·(S·A)^1 exactly in the size series: log-log slope 1; y = 7·S·A through the
	// origin for a learner without templates: c = 7.
	slope := fitScaling("x", []scalingRun{{"size", 64, 0, []float64{192}}, {"size", 256, 0, []float64{768}},
		{"size", 1024, 0, []float64{3072}}}, false)
	if math.Abs(slope.Slope.Mean-1) > 1e-12 || math.Abs(slope.PerPair.Mean-3) > 1e-12 {
		t.Errorf("fit of 3·S·A: slope %v, c %v; want 1 and 3", slope.Slope.Mean, slope.PerPair.Mean)
	}
	c := fitScaling("x", []scalingRun{{"templates", 1, 0, []float64{7}}, {"templates", 2, 0, []float64{14}},
		{"templates", 3, 0, []float64{21}}}, false)
	if math.Abs(c.PerPair.Mean-7) > 1e-12 {
		t.Errorf("fit of 7·S·A through the origin: c = %v, want 7", c.PerPair.Mean)
	}
	// y = 500·G + 50·SA exactly at three points.
	g, sa := []float64{10, 12, 30}, []float64{64, 256, 256}
	y := make([]float64, 3)
	for i := range y {
		y[i] = 500*g[i] + 50*sa[i]
	}
	a, b, ok := fitTwo(g, sa, y)
	if !ok || math.Abs(a-500) > 1e-6 || math.Abs(b-50) > 1e-6 {
		t.Errorf("fitTwo = %v, %v, %v; want 500, 50, true", a, b, ok)
	}
	if _, _, ok := fitTwo([]float64{1, 2}, []float64{2, 4}, []float64{3, 6}); ok {
		t.Error("fitTwo of proportional regressors reported a fit")
	}
}
