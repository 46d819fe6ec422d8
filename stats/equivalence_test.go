package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// TOST against the published results of TOSTER (Lakens), tests/testthat/test-known_results.R:
// the paired test TOSTpaired.raw(n = 65, m1 = 5.83, m2 = 5.75, sd1 = 1.17, sd2 = 1.30,
// r12 = 0.745, bounds ±0.34) and the one-sample test TOSTone.raw(m = 0.52, mu = 0.5, sd = 0.5,
// n = 300, bounds ±0.1), each a TOST of differences with the mean and standard deviation given.
func TestTOSTAgainstTOSTER(t *testing.T) {
	sdPaired := math.Sqrt(1.17*1.17 + 1.30*1.30 - 2*0.745*1.17*1.30) // the paired differences' SD
	for _, c := range []struct {
		name           string
		mean, sd       float64
		n              int
		margin         float64
		t1, p1, t2, p2 float64
	}{
		{"TOSTpaired.raw", 5.83 - 5.75, sdPaired, 65, 0.34, 3.803437, 0.0001606103, -2.354508, 0.01081349},
		{"TOSTone.raw", 0.52 - 0.5, 0.5, 300, 0.1, 4.156922, 0.00002108451, -2.771281, 0.002966762},
	} {
		e, err := TOST(c.mean, c.sd, c.n, c.margin)
		if err != nil {
			t.Fatal(err)
		}
		rel := func(got, want float64) bool { return math.Abs(got-want) <= 1e-6*math.Abs(want) }
		if !rel(e.TLower, c.t1) || !rel(e.PLower, c.p1) || !rel(e.TUpper, c.t2) || !rel(e.PUpper, c.p2) || e.P != e.PUpper {
			t.Errorf("%s: t %v, %v, p %v, %v (p %v); TOSTER: t %v, %v, p %v, %v", c.name, e.TLower, e.TUpper, e.PLower, e.PUpper, e.P,
				c.t1, c.t2, c.p1, c.p2)
		}
	}
}

// TOST by hand on the differences 1, 2, 3, 4: mean 2.5, sd √(5/3) = 1.290994, standard error
// 0.645497. At the margin δ = 2.5 + 2.353363·0.645497 = 4.019074, where 2.353363 is the table
// value t(0.95; 3), the upper test's statistic is exactly −t(0.95; 3): its p-value is 0.05, and the
// lower test's statistic (2.5 + δ)/0.645497 = 10.10 has p ≈ 0.001; the TOST p-value is 0.05. The
// margin is the upper end of the 90% confidence interval of the mean: a margin above it shows
// equivalence at 5%, one below does not.
func TestTOSTByHand(t *testing.T) {
	d := []float64{1, 2, 3, 4}
	sd := stat.StdDev(d, nil)
	margin := 2.5 + 2.353363435*1.290994449/2
	e, err := TOST(2.5, sd, 4, margin)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(e.TUpper+2.353363435) > 1e-8 || math.Abs(e.PUpper-0.05) > 1e-8 || e.P != e.PUpper || !(e.PLower < 0.002) {
		t.Errorf("TOST at δ = %v: t_upper %v p %v, p_lower %v, p %v; want −2.353363, 0.05, < 0.002, 0.05", margin, e.TUpper, e.PUpper, e.PLower, e.P)
	}
	wider, _ := TOST(2.5, sd, 4, margin+0.01)
	narrower, _ := TOST(2.5, sd, 4, margin-0.01)
	if !(wider.P < 0.05 && narrower.P > 0.05) {
		t.Errorf("p just above and below the 90%% CI's end: %v, %v", wider.P, narrower.P)
	}
	// Every difference equal: inside the margin is equivalent for sure, on or outside never.
	for _, c := range []struct{ mean, p float64 }{{0.5, 0}, {-0.5, 0}, {1, 1}, {2, 1}} {
		if e, err := TOST(c.mean, 0, 3, 1); err != nil || e.P != c.p {
			t.Errorf("constant differences %v at margin 1: p %v (%v), want %v", c.mean, e.P, err, c.p)
		}
	}
	for _, bad := range []struct {
		mean, sd float64
		n        int
		margin   float64
	}{{0, 1, 1, 1}, {0, 1, 5, 0}, {0, 1, 5, -1}, {0, 1, 5, math.Inf(1)}, {math.NaN(), 1, 5, 1}, {0, math.Inf(1), 5, 1}} {
		if _, err := TOST(bad.mean, bad.sd, bad.n, bad.margin); err == nil {
			t.Errorf("TOST(%v) accepted", bad)
		}
	}
}

// The power of the paired t-test against pwr.t.test(type = "paired") of R's pwr package (both
// tails), as published (pastebin.com/dTaadhYz): power 0.75 needs n = 29.7355 pairs at d = 0.5 and
// n = 112.9798 at d = 0.25. With no effect the two-sided test rejects with probability α.
func TestPowerAgainstPwr(t *testing.T) {
	for _, c := range []struct{ n, d float64 }{{29.7355, 0.5}, {112.9798, 0.25}} {
		if p := Power(c.n, c.d, 0.05); math.Abs(p-0.75) > 1e-4 {
			t.Errorf("power at n = %v, d = %v: %v, want 0.75", c.n, c.d, p)
		}
	}
	if p := Power(10, 0, 0.05); math.Abs(p-0.05) > 1e-12 {
		t.Errorf("power without an effect: %v, want 0.05", p)
	}
}

// The minimum detectable effect is the effect the test detects with probability 0.8; with many
// pairs it approaches the normal approximation (z(0.975) + z(0.8))·sd/√n = (1.959964 +
// 0.841621)·sd/√n = 2.801585·sd/√n from above; with few it is much larger (the t quantile and
// the estimated SD); it scales with sd and is 0 for constant differences.
func TestMinDetectableEffect(t *testing.T) {
	for _, n := range []int{2, 3, 10, 30} {
		mde, err := MinDetectableEffect(n, 2, 0.05, 0.8)
		if err != nil {
			t.Fatal(err)
		}
		if p := Power(float64(n), mde/2, 0.05); math.Abs(p-0.8) > 1e-9 {
			t.Errorf("n = %d: power at the MDE %v is %v, want 0.8", n, mde, p)
		}
		if normal := 2.801585 * 2 / math.Sqrt(float64(n)); !(mde > normal) {
			t.Errorf("n = %d: MDE %v not above the normal approximation %v", n, mde, normal)
		}
	}
	big, _ := MinDetectableEffect(10000, 1, 0.05, 0.8)
	if got := big * 100; math.Abs(got-2.801585) > 1e-3 {
		t.Errorf("n = 10000: MDE·√n/sd = %v, want about 2.801585", got)
	}
	if zero, err := MinDetectableEffect(5, 0, 0.05, 0.8); err != nil || zero != 0 {
		t.Errorf("constant differences: MDE %v (%v), want 0", zero, err)
	}
	for _, bad := range [][4]float64{{1, 1, 0.05, 0.8}, {5, -1, 0.05, 0.8}, {5, 1, 0, 0.8}, {5, 1, 0.05, 0.04}, {5, 1, 0.05, 1}} {
		if _, err := MinDetectableEffect(int(bad[0]), bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("MinDetectableEffect%v accepted", bad)
		}
	}
	c, err := PairedTest("A", "B", []float64{11, 12, 13, 14}, []float64{10, 10, 10, 10})
	want, _ := MinDetectableEffect(4, math.Sqrt(5.0/3), Level, DetectPower)
	if err != nil || math.Abs(c.SD-math.Sqrt(5.0/3)) > 1e-12 || c.MDE != want || c.Margin != 0 || c.PTOST != 1 {
		t.Errorf("PairedTest: SD %v, MDE %v (want %v), margin %v, p_TOST %v", c.SD, c.MDE, want, c.Margin, c.PTOST)
	}
}

// Holm with the equivalence tests, by hand. Two comparisons, p-values of the difference tests
// 0.01 and 0.04, of the TOSTs 0.9 and 0.02: four hypotheses, at most two true (one per
// comparison). In order 0.01 (difference 1), 0.02 (TOST 2), 0.04 (difference 2), 0.9 (TOST 1),
// the multipliers are min(2, 4 − j + 1) = 2, 2, 2, 1: adjusted 0.02, 0.04, 0.08, 0.9. Comparison
// 1 is distinguishable, comparison 2 level. Holm alone over the four (4, 3, 2, 1) would give 0.04,
// 0.06, …: not level.
func TestHolmWithEquivalenceByHand(t *testing.T) {
	cs := []Comparison{
		{A: "X", B: "Y", MeanDiff: 1, P: 0.01, Margin: 1, PTOST: 0.9},
		{A: "Z", B: "Y", MeanDiff: 0.1, P: 0.04, Margin: 1, PTOST: 0.02},
	}
	HolmWithEquivalence(cs)
	for _, c := range []struct{ got, want float64 }{
		{cs[0].PAdjusted, 0.02}, {cs[1].PTOSTAdjusted, 0.04}, {cs[1].PAdjusted, 0.08}, {cs[0].PTOSTAdjusted, 0.9},
	} {
		if math.Abs(c.got-c.want) > 1e-15 {
			t.Errorf("adjusted %v, want %v", c.got, c.want)
		}
	}
	if got := cs[0].Verdict() + "; " + cs[1].Verdict(); got != "X > Y; Z and Y are level" {
		t.Errorf("verdicts %q", got)
	}
	// One comparison: its two hypotheses cannot both be true, so neither is adjusted.
	one := []Comparison{{P: 0.03, Margin: 1, PTOST: 0.2}}
	HolmWithEquivalence(one)
	if one[0].PAdjusted != 0.03 || one[0].PTOSTAdjusted != 0.2 {
		t.Errorf("one comparison: %v, %v; want 0.03, 0.2", one[0].PAdjusted, one[0].PTOSTAdjusted)
	}
	// Without margins it is Holm (TestHolmHandComputed's p-values).
	plain := []Comparison{{P: 0.01}, {P: 0.04}, {P: 0.03}}
	HolmWithEquivalence(plain)
	for i, want := range []float64{0.03, 0.06, 0.06} {
		if math.Abs(plain[i].PAdjusted-want) > 1e-12 {
			t.Errorf("without margins, adjusted p[%d] = %v, want Holm's %v", i, plain[i].PAdjusted, want)
		}
	}
}

// The verdicts with an equivalence test: significant and within the margin says both.
func TestVerdictWithEquivalence(t *testing.T) {
	for _, c := range []struct {
		c    Comparison
		want string
	}{
		{Comparison{A: "A", B: "B", MeanDiff: 0.1, PAdjusted: 0.01, Margin: 1, PTOSTAdjusted: 0.01}, "A > B, by less than the margin"},
		{Comparison{A: "A", B: "B", MeanDiff: -0.1, PAdjusted: 0.01, Margin: 1, PTOSTAdjusted: 0.5}, "A < B"},
		{Comparison{A: "A", B: "B", MeanDiff: 0.1, PAdjusted: 0.5, Margin: 1, PTOSTAdjusted: 0.01}, "A and B are level"},
		{Comparison{A: "A", B: "B", MeanDiff: 0.1, PAdjusted: 0.5, Margin: 1, PTOSTAdjusted: 0.5}, "A and B are not distinguishable"},
		{Comparison{A: "A", B: "B", MeanDiff: 0.1, PAdjusted: 0.5, PTOSTAdjusted: 0.01}, "A and B are not distinguishable"},
	} {
		if got := c.c.Verdict(); got != c.want {
			t.Errorf("%+v: verdict %q, want %q", c.c, got, c.want)
		}
	}
	c, _ := PairedTest("A", "B", []float64{1, 2, 3, 4}, []float64{1.1, 1.9, 3.05, 3.95})
	if err := c.TestEquivalence(1); err != nil || c.Margin != 1 || !(c.PTOST < 0.01) || c.PTOSTAdjusted != c.PTOST {
		t.Errorf("TestEquivalence: %+v, %v", c, err)
	}
	if err := c.TestEquivalence(0); err == nil || !strings.Contains(err.Error(), "A against B") {
		t.Errorf("margin 0: %v", err)
	}
}

// The family-wise error rate of all verdicts together stays at 5% in the least favourable
// configuration: one comparison with no difference (its "A > B" or "A < B" would be wrong) and
// two whose difference is exactly the margin (their "level" would be wrong, and each TOST then
// rejects with probability 5%). 20 000 simulated experiments of 10 paired runs (seed 50).
func TestHolmWithEquivalenceControlsTheErrorRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 1))
	const reps, n, margin = 20000, 10, 1.0
	means := []float64{0, margin, -margin}
	wrong := 0
	for range reps {
		cs := make([]Comparison, len(means))
		for k, mu := range means {
			d := make([]float64, n)
			for i := range d {
				d[i] = mu + rng.NormFloat64()
			}
			mean, sd := stat.MeanStdDev(d, nil)
			e, err := TOST(mean, sd, n, margin)
			if err != nil {
				t.Fatal(err)
			}
			cs[k] = Comparison{MeanDiff: mean, P: TwoSidedP(mean/(sd/math.Sqrt(n)), n-1), Margin: margin, PTOST: e.P}
		}
		HolmWithEquivalence(cs)
		if cs[0].Distinguishable() || cs[1].Equivalent() || cs[2].Equivalent() {
			wrong++
		}
	}
	// 5% of 20 000 is 1 000; three standard errors above it (√(20000·0.05·0.95) = 30.8) is 1 092.
	if wrong > 1092 {
		t.Errorf("%d of %d experiments had a wrong verdict, want at most 5%% (1 092 allowing for chance)", wrong, reps)
	}
	t.Logf("%d of %d experiments had a wrong verdict", wrong, reps)
}

// A margin is a percentage of a reference or an absolute number, above 0 and finite; a
// percentage takes the larger magnitude of the two references.
func TestParseMargin(t *testing.T) {
	for text, want := range map[string]Margin{"5%": {Fraction: 0.05}, " 12.5 % ": {Fraction: 0.125}, "0.3": {Absolute: 0.3}, "200%": {Fraction: 2}} {
		if got, err := ParseMargin(text); err != nil || got != want {
			t.Errorf("ParseMargin(%q) = %+v, %v; want %+v", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "%", "0", "0%", "-1", "-5%", "inf", "NaN", "5%%", "five"} {
		if _, err := ParseMargin(bad); err == nil || !strings.Contains(err.Error(), `margin "`+bad+`"`) {
			t.Errorf("ParseMargin(%q): %v", bad, err)
		}
	}
	if d := (Margin{Fraction: 0.05}).Of(-60, 30); math.Abs(d-3) > 1e-12 {
		t.Errorf("5%% of the larger of |−60| and |30|: %v, want 3", d)
	}
	if d := (Margin{Absolute: 0.7}).Of(-60, 30); d != 0.7 {
		t.Errorf("absolute 0.7: %v", d)
	}
}
