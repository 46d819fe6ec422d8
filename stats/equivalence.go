package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// DetectPower is the power at which a comparison's minimum detectable effect is computed: the
// conventional 0.8 (Cohen 1988), with the test at Level.
const DetectPower = 0.8

// Equivalence is Schuirmann's (1987) two one-sided tests (TOST) of paired differences at margin
// δ > 0: the null hypothesis |μ| ≥ δ (the true mean difference is at least the margin, either
// way) against |μ| < δ. It rejects when both one-sided t-tests do, H0: μ ≤ −δ by
// t_lower = (d̄ + δ)/(s/√n) and H0: μ ≥ δ by t_upper = (d̄ − δ)/(s/√n), each against Student's t
// with n − 1 degrees of freedom; its p-value is the larger of theirs. At level α it shows
// equivalence exactly when the (1 − 2α) confidence interval of μ lies inside (−δ, δ).
type Equivalence struct {
	Margin         float64 // δ
	TLower, TUpper float64 // the two t statistics
	PLower, PUpper float64 // P(T ≥ TLower) and P(T ≤ TUpper)
	P              float64 // max(PLower, PUpper)
}

// TOST tests equivalence at margin δ of n paired differences with mean meanDiff and sample
// standard deviation sd. With sd = 0 every difference is meanDiff: P is 0 when |meanDiff| < δ
// and 1 otherwise.
func TOST(meanDiff, sd float64, n int, margin float64) (Equivalence, error) {
	switch {
	case n < 2:
		return Equivalence{}, fmt.Errorf("stats: TOST over %d differences; it needs at least 2", n)
	case !(margin > 0) || math.IsInf(margin, 0):
		return Equivalence{}, fmt.Errorf("stats: TOST margin %v, want a finite number > 0", margin)
	case math.IsNaN(meanDiff) || math.IsInf(meanDiff, 0) || !(sd >= 0) || math.IsInf(sd, 0):
		return Equivalence{}, fmt.Errorf("stats: TOST of differences with mean %v and standard deviation %v: not finite", meanDiff, sd)
	}
	e := Equivalence{Margin: margin}
	if sd == 0 {
		e.TLower = math.Copysign(math.Inf(1), meanDiff+margin)
		e.TUpper = math.Copysign(math.Inf(1), meanDiff-margin)
		e.P = 1
		if math.Abs(meanDiff) < margin {
			e.P = 0
		}
		e.PLower, e.PUpper = e.P, e.P
		return e, nil
	}
	se := sd / math.Sqrt(float64(n))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
	e.TLower, e.TUpper = (meanDiff+margin)/se, (meanDiff-margin)/se
	e.PLower, e.PUpper = t.Survival(e.TLower), t.CDF(e.TUpper)
	e.P = math.Max(e.PLower, e.PUpper)
	return e, nil
}

// Power is the power of a two-sided paired t-test at level alpha over n pairs when the true mean
// difference is dz standard deviations of the differences: P(|T′| > t_{1−α/2}) for T′ noncentral
// t with n − 1 degrees of freedom and noncentrality dz·√n, both tails counted (R's power.t.test
// with strict = TRUE, or pwr.t.test). n need not be whole, as in those functions.
func Power(n, dz, alpha float64) float64 {
	nu := n - 1
	crit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(1 - alpha/2)
	nct := distuv.NoncentralT{Nu: nu, Mu: dz * math.Sqrt(n)}
	return (1 - nct.CDF(crit)) + nct.CDF(-crit)
}

// MinDetectableEffect is the minimum detectable effect of a two-sided paired t-test at level
// alpha over n pairs whose differences have standard deviation sd: the least true |mean
// difference| the test detects with probability power. It is exact — the effect dz·sd at which
// Power(n, dz, alpha) = power, found by bisection on the noncentral t — not the normal
// approximation (z_{1−α/2} + z_power)·sd/√n, which it approaches as n grows and exceeds at small
// n. 0 when sd is 0.
func MinDetectableEffect(n int, sd, alpha, power float64) (float64, error) {
	switch {
	case n < 2:
		return 0, fmt.Errorf("stats: minimum detectable effect over %d pairs; a paired t-test needs at least 2", n)
	case !(sd >= 0) || math.IsInf(sd, 0):
		return 0, fmt.Errorf("stats: minimum detectable effect of differences with standard deviation %v: not finite", sd)
	case !(alpha > 0 && alpha < 1):
		return 0, fmt.Errorf("stats: level %v, want 0 < alpha < 1", alpha)
	case !(power > alpha && power < 1):
		return 0, fmt.Errorf("stats: power %v, want alpha (%v) < power < 1", power, alpha)
	}
	if sd == 0 {
		return 0, nil
	}
	nf := float64(n)
	lo, hi := 0.0, 1.0
	for Power(nf, hi, alpha) < power {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1e-12*hi {
		mid := (lo + hi) / 2
		if Power(nf, mid, alpha) < power {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi * sd, nil
}

// TestEquivalence adds to c the two one-sided tests of its differences at margin δ > 0 (TOST),
// setting Margin, PTOST and PTOSTAdjusted (the latter to PTOST, until HolmWithEquivalence adjusts
// it with the others).
func (c *Comparison) TestEquivalence(margin float64) error {
	e, err := TOST(c.MeanDiff, c.SD, c.N, margin)
	if err != nil {
		return fmt.Errorf("%s against %s: %w", c.A, c.B, err)
	}
	c.Margin, c.PTOST, c.PTOSTAdjusted = margin, e.P, e.P
	return nil
}

// HolmWithEquivalence adjusts together the p-values of every comparison's paired t-test (P) and,
// for those with an equivalence test (Margin > 0), of its TOST (PTOST), setting PAdjusted and
// PTOSTAdjusted: Holm's step-down over all these hypotheses, with Shaffer's (1986) bound for
// hypotheses that cannot all be true. A comparison's null hypotheses μ = 0 and |μ| ≥ δ exclude
// each other, so of the H hypotheses of m comparisons at most m are true, and once j − 1 of them
// are rejected at most min(m, H − j + 1) remain true: the j-th smallest p-value is multiplied by
// that number instead of Holm's H − j + 1, then the running maximum is taken and capped at 1.
// This controls the family-wise error rate of every verdict, "A > B", "A < B" and "level",
// together; without equivalence tests it is Holm.
func HolmWithEquivalence(cs []Comparison) {
	type hypothesis struct {
		p           float64
		comparison  int
		equivalence bool
	}
	var hs []hypothesis
	for i, c := range cs {
		hs = append(hs, hypothesis{c.P, i, false})
		if c.Margin > 0 {
			hs = append(hs, hypothesis{c.PTOST, i, true})
		}
	}
	slices.SortStableFunc(hs, func(x, y hypothesis) int {
		switch {
		case x.p < y.p:
			return -1
		case x.p > y.p:
			return 1
		}
		return 0
	})
	m, total, running := len(cs), len(hs), 0.0
	for j, h := range hs {
		mayBeTrue := min(m, total-j)
		running = math.Max(running, math.Min(1, float64(mayBeTrue)*h.p))
		if h.equivalence {
			cs[h.comparison].PTOSTAdjusted = running
		} else {
			cs[h.comparison].PAdjusted = running
		}
	}
}

// Equivalent reports whether the comparison's equivalence test shows A and B level at its margin
// (PTOSTAdjusted below Level); never without a margin.
func (c Comparison) Equivalent() bool { return c.Margin > 0 && c.PTOSTAdjusted < Level }
