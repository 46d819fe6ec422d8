package experiment

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// A small study: RMax, once it knows every pair, has taken exactly m samples of each of the S·A
// pairs, so its exploring samples are 500·4·S and their slope against S is exactly 1; O-TempLe
// takes fewer. The files of the study are written.
func TestScalingSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a small scaling study")
	}
	c := DefaultScaling()
	c.Runs, c.Tasks, c.Sizes, c.TemplateSize = 2, 1, []int{4, 6}, 4
	c.LandformSets = [][]float64{{0}, {0, 0.2, 0.4}}
	dir := t.TempDir()
	rows, slopes, err := ExecuteScaling(context.Background(), c, dir, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4*3 {
		t.Fatalf("%d rows, want 4 points × 3 agents", len(rows))
	}
	for _, r := range rows {
		if r.Agent != "RMax" {
			continue
		}
		if want := 500.0 * 4 * float64(r.States); r.AllKnown != 1 || r.ExploringSamples != want {
			t.Errorf("%s: RMax knew every pair in %.0f%% of tasks, exploring samples %v; want 100%% and %v", r.Point.Dir(),
				100*r.AllKnown, r.ExploringSamples, want)
		}
	}
	for _, r := range rows {
		if r.Agent == "O-TempLe" && r.Point.Series == "size" && !(r.ExploringSamples < 500*4*float64(r.States)) {
			t.Errorf("%s: O-TempLe took %v exploring samples, not fewer than RMax", r.Point.Dir(), r.ExploringSamples)
		}
	}
	found := false
	for _, s := range slopes {
		if s.Series == "size" && s.Agent == "RMax" && s.Measure == "exploring_samples" {
			found = true
			if math.Abs(s.Slope-1) > 1e-9 {
				t.Errorf("RMax's slope against S = %v, want 1", s.Slope)
			}
		}
	}
	if !found {
		t.Error("no slope of RMax's exploring samples against S")
	}
	for _, f := range []string{"scaling.csv", "scaling_slopes.csv", "figures/scaling_size.png", "figures/scaling_templates.svg",
		"size-4/summary.json", "templates-3/regret.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestLeastSquaresSlope(t *testing.T) {
	// y = 3 + 2x exactly, and a vertical set of points.
	if b, ok := leastSquaresSlope([]float64{0, 1, 2}, []float64{3, 5, 7}); !ok || math.Abs(b-2) > 1e-12 {
		t.Errorf("slope %v, %v; want 2", b, ok)
	}
	if _, ok := leastSquaresSlope([]float64{1, 1}, []float64{0, 5}); ok {
		t.Error("a slope through one x value")
	}
}
