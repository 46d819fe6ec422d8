package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestMeanCI(t *testing.T) {
	// xs = {1,2,3,4}: mean 2.5; squared deviations 2.25+0.25+0.25+2.25 = 5,
	// s = sqrt(5/3) = 1.2909944487358056; t(0.975; 3) = 3.182446305284263;
	// half = 3.182446305284263 * 1.2909944487358056 / sqrt(4) = 2.0542602567605...
	mean, half := MeanCI([]float64{1, 2, 3, 4})
	if mean != 2.5 || !near(half, 2.05426025676, 1e-9) {
		t.Errorf("MeanCI({1,2,3,4}) = %v, %v; want 2.5, 2.05426025676", mean, half)
	}

	// xs = {0, 2}: s = sqrt(2), t(0.975; 1) = 12.706204736174707,
	// half = 12.7062047361747 * sqrt(2) / sqrt(2) = 12.7062047361747.
	mean, half = MeanCI([]float64{0, 2})
	if mean != 1 || !near(half, 12.7062047361747, 1e-9) {
		t.Errorf("MeanCI({0,2}) = %v, %v; want 1, 12.7062047361747", mean, half)
	}

	mean, half = MeanCI([]float64{7})
	if mean != 7 || half != 0 {
		t.Errorf("MeanCI({7}) = %v, %v; want 7, 0", mean, half)
	}

	mean, half = MeanCI(nil)
	if !math.IsNaN(mean) || !math.IsNaN(half) {
		t.Errorf("MeanCI(nil) = %v, %v; want NaN, NaN", mean, half)
	}

	mean, half = MeanCI([]float64{1, math.NaN(), 3})
	if !math.IsNaN(mean) || !math.IsNaN(half) {
		t.Errorf("MeanCI with NaN = %v, %v; want NaN, NaN", mean, half)
	}
}

func TestSmooth(t *testing.T) {
	// weight 0.5 on {0, 4, 2, 8}:
	// y0 = 0; y1 = .5*0 + .5*4 = 2; y2 = .5*2 + .5*2 = 2; y3 = .5*2 + .5*8 = 5.
	xs := []float64{0, 4, 2, 8}
	got := Smooth(xs, 0.5)
	want := []float64{0, 2, 2, 5}
	for k := range want {
		if !near(got[k], want[k], 1e-12) {
			t.Fatalf("Smooth(%v, 0.5) = %v; want %v", xs, got, want)
		}
	}
	if xs[1] != 4 || xs[3] != 8 {
		t.Errorf("Smooth modified its input: %v", xs)
	}

	cp := Smooth(xs, 0)
	cp[0] = 99
	if xs[0] != 0 || cp[1] != 4 || cp[3] != 8 {
		t.Errorf("Smooth(xs, 0) is not an independent copy: %v (input %v)", cp, xs)
	}

	if got := Smooth(nil, 0.9); len(got) != 0 {
		t.Errorf("Smooth(nil) = %v; want empty", got)
	}

	// A NaN stays a gap and the average resumes from the last finite value:
	// {NaN, 2, NaN, 4} -> {NaN, 2, NaN, .5*2+.5*4 = 3}.
	got = Smooth([]float64{math.NaN(), 2, math.NaN(), 4}, 0.5)
	if !math.IsNaN(got[0]) || got[1] != 2 || !math.IsNaN(got[2]) || got[3] != 3 {
		t.Errorf("Smooth with NaNs = %v; want [NaN 2 NaN 3]", got)
	}
}

func TestBandAcross(t *testing.T) {
	// Three runs at two points. Point 0: {1,2,3}, mean 2, s = 1,
	// half = t(0.975; 2) / sqrt(3) = 4.302652729749464 / 1.7320508075688772
	// = 2.4841377118...; point 1: {5,5,5}, mean 5, half 0.
	runs := [][]float64{{1, 5}, {2, 5}, {3, 5}}
	b, err := BandAcross(runs)
	if err != nil {
		t.Fatal(err)
	}
	const h = 2.48413771175033
	checks := []struct {
		name      string
		got, want float64
	}{
		{"Mean[0]", b.Mean[0], 2}, {"Lo[0]", b.Lo[0], 2 - h}, {"Hi[0]", b.Hi[0], 2 + h},
		{"Mean[1]", b.Mean[1], 5}, {"Lo[1]", b.Lo[1], 5}, {"Hi[1]", b.Hi[1], 5},
	}
	for _, c := range checks {
		if !near(c.got, c.want, 1e-9) {
			t.Errorf("%s = %v; want %v", c.name, c.got, c.want)
		}
	}

	one, err := BandAcross([][]float64{{1, 2}})
	if err != nil || one.Lo[1] != 2 || one.Hi[1] != 2 {
		t.Errorf("single run: %+v, %v; want Lo = Hi = Mean", one, err)
	}
}

func TestBandAcrossErrors(t *testing.T) {
	if _, err := BandAcross([][]float64{{1, 2}, {3}}); err == nil {
		t.Error("ragged runs: no error")
	}
	if _, err := BandAcross(nil); err == nil {
		t.Error("no runs: no error")
	}
}

func TestBandSmoothed(t *testing.T) {
	b := Band{Mean: []float64{0, 4}, Lo: []float64{-2, 2}, Hi: []float64{2, 6}}
	s := b.Smoothed(0.5)
	if s.Mean[1] != 2 || s.Lo[1] != 0 || s.Hi[1] != 4 {
		t.Errorf("Smoothed(0.5) = %+v; want Mean[1]=2 Lo[1]=0 Hi[1]=4", s)
	}
	if b.Mean[1] != 4 {
		t.Error("Smoothed modified the receiver")
	}
	if s := (Band{Mean: []float64{1}}).Smoothed(0.9); s.Lo != nil || s.Hi != nil {
		t.Errorf("Smoothed invented a band: %+v", s)
	}
}
