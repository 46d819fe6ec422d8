package plots

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/stats"
)

// readPNG decodes the PNG file at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	fd, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	img, err := png.Decode(fd)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// checkFigureFiles asserts that base.png and base.svg exist and are sound.
func checkFigureFiles(t *testing.T, base string) {
	t.Helper()
	img := readPNG(t, base+".png")
	// 6 x 4 inches at 200 dpi.
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 800 {
		t.Errorf("%s.png is %dx%d; want 1200x800", base, b.Dx(), b.Dy())
	}

	svg, err := os.ReadFile(base + ".svg")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(svg, []byte("<?xml")) && !bytes.HasPrefix(svg, []byte("<svg")) {
		t.Errorf("%s.svg starts with %q", base, svg[:min(len(svg), 20)])
	}
	if !bytes.Contains(svg, []byte("</svg>")) {
		t.Errorf("%s.svg is not closed", base)
	}
}

func TestFigureSave(t *testing.T) {
	x := []float64{0, 1, 2, 3}
	f := Figure{
		Title: "Return", XLabel: "task", YLabel: "return",
		Series: []Series{
			{Label: "TempLe", X: x, Band: stats.Band{Mean: []float64{0, 1, 2, 3}, Lo: []float64{-1, 0, 1, 2}, Hi: []float64{1, 2, 3, 4}}},
			{Label: "single run", X: x, Band: stats.Band{Mean: []float64{0, 0.5, 1, 1.5}, Lo: []float64{0, 0.5, 1, 1.5}, Hi: []float64{0, 0.5, 1, 1.5}}},
		},
	}
	base := filepath.Join(t.TempDir(), "fig")
	if err := f.Save(base); err != nil {
		t.Fatal(err)
	}
	checkFigureFiles(t, base)
}

func TestFigureNaNAndSinglePoint(t *testing.T) {
	nan := math.NaN()
	v := 2.0
	f := Figure{
		Title:    "gaps",
		ZeroLine: true,
		VLine:    &v,
		Points:   true,
		Series: []Series{
			{Label: "with NaN", X: []float64{0, 1, 2, 3, 4, 5},
				Band: stats.Band{Mean: []float64{nan, 1, nan, 2, 3, nan}, Lo: []float64{0, nan, 1, 1, 2, 0}, Hi: []float64{1, 2, 3, 3, 4, nan}}},
			{Label: "one point", X: []float64{2.5}, Band: stats.Band{Mean: []float64{1}, Lo: []float64{0.5}, Hi: []float64{1.5}}},
			{Label: "no band", X: []float64{0, 5}, Band: stats.Band{Mean: []float64{0.5, 0.7}}},
			{Label: "all NaN", X: []float64{nan, 1}, Band: stats.Band{Mean: []float64{1, nan}}},
		},
	}
	dir := t.TempDir()
	if err := f.Save(filepath.Join(dir, "nan")); err != nil {
		t.Fatal(err)
	}
	checkFigureFiles(t, filepath.Join(dir, "nan"))

	// Nothing finite at all, and nothing at all, must still render.
	f.Series = f.Series[3:]
	if err := f.Save(filepath.Join(dir, "allnan")); err != nil {
		t.Fatal(err)
	}
	if err := (Figure{}).Save(filepath.Join(dir, "empty")); err != nil {
		t.Fatal(err)
	}
}

func TestFigureSaveErrors(t *testing.T) {
	base := filepath.Join(t.TempDir(), "missing-dir", "fig")
	err := Figure{}.Save(base)
	if err == nil || !strings.Contains(err.Error(), base+".png") || !strings.HasPrefix(err.Error(), "report: saving figure") {
		t.Errorf("Save into a missing directory: %v; want an error naming %s.png", err, base)
	}

	bad := Figure{Series: []Series{{Label: "x", X: []float64{1, 2}, Band: stats.Band{Mean: []float64{1}}}}}
	if err := bad.Save(filepath.Join(t.TempDir(), "bad")); err == nil {
		t.Error("len(X) != len(Mean): no error")
	}
	badRef := Figure{Reference: &Series{Label: "optimal", X: []float64{1, 2}, Band: stats.Band{Mean: []float64{1}}}}
	if err := badRef.Save(filepath.Join(t.TempDir(), "bad")); err == nil || !strings.Contains(err.Error(), `"optimal"`) {
		t.Errorf("reference with len(X) != len(Mean): %v, want an error naming it", err)
	}
}

// TestFigureExamples renders the three kinds of figure an experiment makes
// (learning curves, advantage over a baseline, a parameter sweep) from
// realistic data. Set REPORT_LOOK_DIR to keep the files for inspection.
func TestFigureExamples(t *testing.T) {
	dir := os.Getenv("REPORT_LOOK_DIR")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))

	const tasks, seeds = 100, 10
	tasksX := make([]float64, tasks)
	for k := range tasksX {
		tasksX[k] = float64(k + 1)
	}
	// curve draws seeds noisy rising learning curves approaching top at rate.
	curve := func(top, rate, noise float64) stats.Band {
		runs := make([][]float64, seeds)
		for r := range runs {
			runs[r] = make([]float64, tasks)
			for k := range runs[r] {
				runs[r][k] = top*(1-math.Exp(-rate*float64(k))) + noise*rng.NormFloat64()
			}
		}
		b, err := stats.BandAcross(runs)
		if err != nil {
			t.Fatal(err)
		}
		return b.Smoothed(0.9)
	}
	temple, single, oracle := curve(0.9, 0.05, 0.15), curve(0.6, 0.02, 0.15), curve(0.95, 0.5, 0.05)

	learning := Figure{
		Title: "Average return per task", XLabel: "Task", YLabel: "Average return",
		Series: []Series{
			{Label: "TempLe", X: tasksX, Band: temple},
			{Label: "Single-task learner", X: tasksX, Band: single},
		},
		Reference: &Series{Label: "Optimal (known model)", X: tasksX, Band: oracle},
	}

	diff := func(a, b stats.Band) stats.Band {
		d := stats.Band{Mean: make([]float64, tasks), Lo: make([]float64, tasks), Hi: make([]float64, tasks)}
		for k := range d.Mean {
			d.Mean[k] = a.Mean[k] - b.Mean[k]
			h := math.Hypot(a.Hi[k]-a.Mean[k], b.Hi[k]-b.Mean[k])
			d.Lo[k], d.Hi[k] = d.Mean[k]-h, d.Mean[k]+h
		}
		return d
	}
	advantage := Figure{
		Title: "Advantage over single-task learning", XLabel: "Task", YLabel: "Return difference",
		ZeroLine: true,
		Series: []Series{
			{Label: "TempLe − single-task", X: tasksX, Band: diff(temple, single)},
			{Label: "Oracle − single-task", X: tasksX, Band: diff(oracle, single)},
		},
	}

	truth := 0.3
	sweepX := []float64{0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6}
	sweepBand := func(shift float64) stats.Band {
		runs := make([][]float64, seeds)
		for r := range runs {
			runs[r] = make([]float64, len(sweepX))
			for k, x := range sweepX {
				runs[r][k] = 1 - 2*math.Abs(x-truth-shift) + 0.1*rng.NormFloat64()
			}
		}
		b, err := stats.BandAcross(runs)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sweep := Figure{
		Title: "Sensitivity to the model-distance threshold", XLabel: "Threshold δ", YLabel: "Final average return",
		Points: true, VLine: &truth,
		Series: []Series{
			{Label: "TempLe", X: sweepX, Band: sweepBand(0)},
			{Label: "TempLe (no clustering)", X: sweepX, Band: sweepBand(0.1)},
		},
	}

	for name, f := range map[string]Figure{"learning": learning, "advantage": advantage, "sweep": sweep} {
		base := filepath.Join(dir, name)
		if err := f.Save(base); err != nil {
			t.Fatal(err)
		}
		checkFigureFiles(t, base)
	}
}

// TestFigureOfValuesThatDifferOnlyByRounding: a curve whose values differ only in their last
// bits (every run of a task earning −20, summed in different orders) is drawn around its value
// with readable ticks; it once made the tick loop run until memory ran out.
func TestFigureOfValuesThatDifferOnlyByRounding(t *testing.T) {
	lo, hi := pad(-20.000000000000004, -19.999999999999996, yPadFrac)
	if !(lo < -20.5 && hi > -19.5) {
		t.Errorf("pad of a rounding-wide range: [%v, %v], want about [−22, −18]", lo, hi)
	}
	ticks := niceTicks{}.Ticks(lo, hi)
	if len(ticks) < 3 || len(ticks) > 12 {
		t.Errorf("%d ticks on [%v, %v], want a handful", len(ticks), lo, hi)
	}
	if got := (niceTicks{}).Ticks(-20.000000000000004, -19.999999999999996); len(got) > 12 {
		t.Errorf("%d ticks on a rounding-wide range, want none or a handful", len(got))
	}
	f := Figure{Title: "flat", Series: []Series{{Label: "a", X: []float64{0, 1, 2},
		Band: stats.Band{Mean: []float64{-20, -20.000000000000004, -19.999999999999996}}}}}
	dir := t.TempDir()
	if err := f.Save(filepath.Join(dir, "flat")); err != nil {
		t.Fatal(err)
	}
	checkFigureFiles(t, filepath.Join(dir, "flat"))
}
