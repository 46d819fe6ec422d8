package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Comparison is a paired comparison of two agents, A and B, over the same runs: the runs share
// their task sequence and start states, so the per-run differences A − B remove the variation
// between task sequences.
type Comparison struct {
	A, B string
	N    int // paired runs
	// MeanDiff is the mean over runs of A − B, CI95 the half-width of its 95% confidence interval
	// (Student's t, N − 1 degrees of freedom).
	MeanDiff, CI95 float64
	// T is the paired t statistic MeanDiff / (sd / √N) and P its two-sided p-value.
	T, P float64
	// PAdjusted is P adjusted for all the comparisons made together (Holm 1979); set by Holm.
	PAdjusted float64
	// EffectSize is Cohen's d_z: MeanDiff divided by SD, the sample standard deviation of the
	// differences.
	EffectSize, SD float64
	// Wins counts the runs where A did better than B.
	Wins int
	// MDE is the test's minimum detectable effect: the least true |A − B| it detects with
	// probability DetectPower at Level, from N and SD (MinDetectableEffect), before any
	// adjustment for the other comparisons.
	MDE float64
	// Margin is the margin δ of the comparison's equivalence test (TestEquivalence), 0 when it
	// has none; PTOST is that test's p-value and PTOSTAdjusted the same adjusted with the other
	// tests (HolmWithEquivalence). Both are 1 without a test.
	Margin, PTOST, PTOSTAdjusted float64
}

// Level is the significance level of every verdict: 1 − 0.95, the confidence of the intervals
// printed beside it, so a single comparison is significant exactly when its 95% CI excludes 0.
const Level = 0.05

// Distinguishable reports whether A and B differ at Level once the p-value is adjusted for the
// comparisons made together (PAdjusted; Holm).
func (c Comparison) Distinguishable() bool { return c.PAdjusted < Level }

// Verdict says in words what the comparison shows: "A > B" or "A < B" when the difference is
// significant (Distinguishable), followed by ", by less than the margin" when the equivalence
// test shows it too; "A and B are level" when only the equivalence test at the comparison's
// margin shows something (Equivalent); "A and B are not distinguishable" when neither does.
// Without an equivalence test (Margin 0) a comparison is never level.
func (c Comparison) Verdict() string {
	switch {
	case !c.Distinguishable() && c.Equivalent():
		return c.A + " and " + c.B + " are level"
	case !c.Distinguishable():
		return c.A + " and " + c.B + " are not distinguishable"
	}
	v := c.A + " < " + c.B
	if c.MeanDiff > 0 {
		v = c.A + " > " + c.B
	}
	if c.Equivalent() {
		v += ", by less than the margin"
	}
	return v
}

// PairedTest compares a and b run by run with a two-sided paired t-test. Both need the same
// number of runs, at least 2. When every difference is the same the test is degenerate: P is 0
// if that difference is not 0, and 1 if it is.
func PairedTest(nameA, nameB string, a, b []float64) (Comparison, error) {
	if len(a) != len(b) {
		return Comparison{}, fmt.Errorf("report: %s has %d runs and %s %d; a paired test needs the same runs", nameA, len(a), nameB, len(b))
	}
	n := len(a)
	if n < 2 {
		return Comparison{}, fmt.Errorf("report: %d paired runs; a paired test needs at least 2", n)
	}
	d := make([]float64, n)
	c := Comparison{A: nameA, B: nameB, N: n, PTOST: 1, PTOSTAdjusted: 1}
	for i := range d {
		d[i] = a[i] - b[i]
		if d[i] > 0 {
			c.Wins++
		}
	}
	c.MeanDiff, c.CI95 = MeanCI(d)
	sd := stat.StdDev(d, nil)
	c.SD = sd
	switch {
	case sd > 0:
		c.T = c.MeanDiff / (sd / math.Sqrt(float64(n)))
		c.P = TwoSidedP(c.T, float64(n-1))
		c.EffectSize = c.MeanDiff / sd
	case c.MeanDiff == 0:
		c.P, c.EffectSize = 1, 0
	default:
		c.T, c.P, c.EffectSize = math.Copysign(math.Inf(1), c.MeanDiff), 0, math.Copysign(math.Inf(1), c.MeanDiff)
	}
	var err error
	if math.IsNaN(c.P) {
		return Comparison{}, fmt.Errorf("report: %s against %s: the differences are not finite", nameA, nameB)
	}
	c.PAdjusted = c.P
	if c.MDE, err = MinDetectableEffect(n, sd, Level, DetectPower); err != nil {
		return Comparison{}, fmt.Errorf("report: %s against %s: %w", nameA, nameB, err)
	}
	return c, nil
}

// TwoSidedP is the two-sided p-value of a t statistic with nu degrees of freedom.
func TwoSidedP(t, nu float64) float64 {
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Survival(math.Abs(t))
}

// Holm sets PAdjusted of every comparison by Holm's step-down correction for making them all
// together: with the m p-values in increasing order p(1) ≤ … ≤ p(m), the adjusted p(i) is
// max over j ≤ i of min(1, (m − j + 1)·p(j)). It controls the family-wise error rate.
func Holm(cs []Comparison) {
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case cs[i].P < cs[j].P:
			return -1
		case cs[i].P > cs[j].P:
			return 1
		}
		return 0
	})
	m, running := float64(len(cs)), 0.0
	for rank, i := range order {
		running = math.Max(running, math.Min(1, (m-float64(rank))*cs[i].P))
		cs[i].PAdjusted = running
	}
}
