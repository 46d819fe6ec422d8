package study

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/results/resultstest"
)

// With a budget large enough, RMax records exactly m samples of every pair: its exploring
// samples are m·S·A at every size, the fitted c is m and the slope 1 — the law's RMax term with
// its constant. O-TempLe, augmenting pairs from templates, explores with fewer.
func TestScalingMeasuresRMaxExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three maze sizes")
	}
	s, err := experiment.Parse([]byte(`
name: scaling-test
runs: 2
steps: 50
start: random-per-episode
tasks:
  family: online-maze
  count: 2
  pool: 2
agents:
  - type: rmax
    m: 30
    planning: incremental
  - type: o-temple
    m: 30
    m_s: 5
    planning: incremental
scaling:
  sizes: [4, 8]
  templates_size: 4
  landform_sets: [[0.2]]
  budget: 4
`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rows, fits, err := ExecuteScaling(context.Background(), s, dir, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Unfinished != 0 {
			t.Errorf("%s at n = %d left %d tasks unfinished; the budget should let every pair become known", r.Agent, r.Size, r.Unfinished)
		}
		if r.Agent == "RMax" && r.ExploringSamples.Mean != float64(30*r.SA) {
			t.Errorf("RMax at n = %d explored with %v samples, want m·S·A = %d", r.Size, r.ExploringSamples.Mean, 30*r.SA)
		}
		if r.Agent == "O-TempLe" && !(r.ExploringSamples.Mean < float64(30*r.SA)) {
			t.Errorf("O-TempLe at n = %d explored with %v samples, want fewer than RMax's %d", r.Size, r.ExploringSamples.Mean, 30*r.SA)
		}
	}
	if f := fits[0]; math.Abs(f.PerPair.Mean-30) > 1e-9 || math.Abs(f.Slope.Mean-1) > 1e-9 || f.PerTemplate != nil {
		t.Errorf("RMax fit %+v, want c = m = 30 and slope 1", f)
	}
	if fits[1].PerTemplate == nil {
		t.Error("O-TempLe's fit has no per-template term")
	}
	for _, f := range []string{"scaling.csv", "scaling_fit.csv", "figures/scaling.png", "size-8/per_task.csv", "landforms-0.2/summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// Two shards merged give the same bytes.
	shardDirs := twoShards(t, s)
	merged := t.TempDir()
	if err := results.Merge(merged, shardDirs); err != nil {
		t.Fatal(err)
	}
	want, got := resultstest.DataFiles(t, dir), resultstest.DataFiles(t, merged)
	if len(got) != len(want) {
		t.Errorf("merged %d files, unsharded %d", len(got), len(want))
	}
	for f, b := range want {
		if !strings.HasSuffix(f, ".png") && string(got[f]) != string(b) {
			t.Errorf("%s of the merged shards differs from the unsharded run", f)
		}
	}
}
