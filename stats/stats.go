// Package stats holds the statistics of an experiment across runs: means with the half-width of
// their 95% confidence intervals, bands for figures, smoothing, and the paired t-test of two agents
// with Holm's correction over a family of comparisons.
//
// It knows nothing about the rest of the repository: callers hand it plain slices (one value or
// one row per independent run). It imports no package of temple; plots draws its bands, results
// and experiment build on both.
package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI returns the sample mean of xs and the half-width of the two-sided
// 95% confidence interval of that mean, using Student's t distribution with
// n-1 degrees of freedom:
//
//	halfWidth = t(0.975; n-1) · s / √n,   s = sample std (n-1 denominator).
//
// The t quantile (rather than 1.96) matters because experiments typically
// have only a handful of seeds, where the normal approximation is far too
// optimistic.
//
// With a single value the interval is undefined; it is reported as 0 so that
// a one-run experiment still plots (as a line without a band). With no values
// both results are NaN. NaN inputs are not skipped: they propagate.
func MeanCI(xs []float64) (mean, halfWidth float64) {
	n := len(xs)
	switch n {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	return mean, t * sd / math.Sqrt(float64(n))
}

// Smooth returns the exponential moving average of xs:
//
//	y_0 = x_0,   y_k = weight·y_{k-1} + (1-weight)·x_k.
//
// weight should lie in [0, 1); the paper's plots use 0.9, and weight 0
// returns an unchanged copy. xs is never modified.
//
// A non-finite x_k (NaN, ±Inf) is passed through as y_k and does not enter
// the average, which continues from the last finite value (as TensorBoard
// does). Otherwise a single missing point would blank out the whole rest of
// a smoothed curve.
func Smooth(xs []float64, weight float64) []float64 {
	ys := make([]float64, len(xs))
	started := false
	var last float64
	for k, x := range xs {
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			ys[k] = x
			continue
		case !started:
			last, started = x, true
		default:
			last = weight*last + (1-weight)*x
		}
		ys[k] = last
	}
	return ys
}

// Band is a curve with a pointwise 95% confidence band: at every point k,
// Lo[k] <= Mean[k] <= Hi[k]. Lo and Hi may be nil for a curve without a band.
type Band struct {
	Mean, Lo, Hi []float64
}

// BandAcross summarises repeated runs of the same curve: runs[r][k] is the
// value of run r at point k. It returns, per point, the mean over runs and
// mean ± the MeanCI half-width. All runs must have the same length.
func BandAcross(runs [][]float64) (Band, error) {
	if len(runs) == 0 {
		return Band{}, fmt.Errorf("report: band across runs: no runs")
	}
	m := len(runs[0])
	for r, run := range runs {
		if len(run) != m {
			return Band{}, fmt.Errorf("report: band across runs: run %d has %d points, run 0 has %d", r, len(run), m)
		}
	}
	b := Band{
		Mean: make([]float64, m),
		Lo:   make([]float64, m),
		Hi:   make([]float64, m),
	}
	col := make([]float64, len(runs))
	for k := range m {
		for r, run := range runs {
			col[r] = run[k]
		}
		mean, half := MeanCI(col)
		b.Mean[k], b.Lo[k], b.Hi[k] = mean, mean-half, mean+half
	}
	return b, nil
}

// Smoothed returns a copy of b with Mean, Lo and Hi each smoothed by Smooth.
// Smoothing the bounds separately (rather than recomputing a CI on smoothed
// runs) is what the usual learning-curve plots do; it keeps Lo <= Mean <= Hi
// because the moving average is linear and monotone.
func (b Band) Smoothed(weight float64) Band {
	s := func(xs []float64) []float64 {
		if xs == nil {
			return nil
		}
		return Smooth(xs, weight)
	}
	return Band{Mean: s(b.Mean), Lo: s(b.Lo), Hi: s(b.Hi)}
}
