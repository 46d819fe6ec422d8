package stats

import (
	"math"
	"testing"
)

// Two-sided p-values at the textbook critical values of Student's t: t(0.975; 3) = 3.182446,
// t(0.975; 5) = 2.570582, t(0.95; 10) = 1.812461.
func TestTwoSidedPAtTableValues(t *testing.T) {
	for _, c := range []struct{ t, nu, p float64 }{{3.182446305, 3, 0.05}, {2.570581836, 5, 0.05}, {1.812461123, 10, 0.10}, {0, 7, 1}} {
		if got := TwoSidedP(c.t, c.nu); math.Abs(got-c.p) > 1e-7 {
			t.Errorf("TwoSidedP(%v, %v) = %v, want %v", c.t, c.nu, got, c.p)
		}
	}
}

func TestPairedTestHandComputed(t *testing.T) {
	// Differences 1, 2, 3, 4: mean 2.5, sd √(5/3) = 1.290994, t = 2.5/(1.290994/2) = 3.872983,
	// d_z = 2.5/1.290994 = 1.936492, 4 wins.
	c, err := PairedTest("A", "B", []float64{11, 12, 13, 14}, []float64{10, 10, 10, 10})
	if err != nil {
		t.Fatal(err)
	}
	if c.N != 4 || c.Wins != 4 || math.Abs(c.MeanDiff-2.5) > 1e-12 || math.Abs(c.T-3.872983346) > 1e-8 ||
		math.Abs(c.EffectSize-1.936491673) > 1e-8 {
		t.Errorf("comparison %+v", c)
	}
	if math.Abs(c.P-TwoSidedP(3.872983346, 3)) > 1e-9 || !(c.P > 0.01 && c.P < 0.05) {
		t.Errorf("p = %v, want the two-sided p of t = 3.873 with 3 degrees of freedom (0.01 < p < 0.05)", c.P)
	}
	// The CI of the mean difference: t(0.975; 3)·sd/√4 = 3.182446·1.290994/2.
	if math.Abs(c.CI95-3.182446305*1.290994449/2) > 1e-6 {
		t.Errorf("CI95 = %v", c.CI95)
	}
	same, _ := PairedTest("A", "B", []float64{1, 2}, []float64{1, 2})
	shifted, _ := PairedTest("A", "B", []float64{1, 2}, []float64{0, 1})
	if same.P != 1 || shifted.P != 0 || !math.IsInf(shifted.T, 1) {
		t.Errorf("degenerate tests: equal p %v, constant shift p %v t %v", same.P, shifted.P, shifted.T)
	}
	if _, err := PairedTest("A", "B", []float64{1, 2}, []float64{1}); err == nil {
		t.Error("runs of different lengths accepted")
	}
	if _, err := PairedTest("A", "B", []float64{1}, []float64{1}); err == nil {
		t.Error("a single run accepted")
	}
}

func TestHolmHandComputed(t *testing.T) {
	// p = 0.01, 0.04, 0.03: in order 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.06, 0.04·1) = 0.06.
	cs := []Comparison{{P: 0.01}, {P: 0.04}, {P: 0.03}}
	Holm(cs)
	for i, want := range []float64{0.03, 0.06, 0.06} {
		if math.Abs(cs[i].PAdjusted-want) > 1e-12 {
			t.Errorf("adjusted p[%d] = %v, want %v", i, cs[i].PAdjusted, want)
		}
	}
	big := []Comparison{{P: 0.6}, {P: 0.5}}
	Holm(big)
	if big[0].PAdjusted != 1 || big[1].PAdjusted != 1 {
		t.Errorf("adjusted p-values are capped at 1: %+v", big)
	}
}

// TestVerdict checks the verdict against the 5% level on Holm-adjusted p-values: of two
// comparisons with raw p 0.03 and 0.04, Holm multiplies the smaller by 2 (0.06) and keeps the
// larger at max(0.06, 0.04), so neither is distinguishable although each alone would be.
func TestVerdict(t *testing.T) {
	cs := []Comparison{{A: "X", B: "Y", MeanDiff: 1, P: 0.03}, {A: "Z", B: "Y", MeanDiff: -1, P: 0.04}}
	Holm(cs)
	for _, c := range cs {
		if c.Distinguishable() || c.Verdict() != c.A+" and Y are not distinguishable" {
			t.Errorf("p %v, p_Holm %v: verdict %q", c.P, c.PAdjusted, c.Verdict())
		}
	}
	cs = []Comparison{{A: "X", B: "Y", MeanDiff: 1, P: 0.01}, {A: "Z", B: "Y", MeanDiff: -1, P: 0.02}}
	Holm(cs)
	if got := cs[0].Verdict() + "; " + cs[1].Verdict(); got != "X > Y; Z < Y" {
		t.Errorf("p_Holm %v, %v: verdicts %q, want \"X > Y; Z < Y\"", cs[0].PAdjusted, cs[1].PAdjusted, got)
	}
}
