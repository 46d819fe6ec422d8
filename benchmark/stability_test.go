package benchmark

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/tune"
)

// TestKendallTauB against hand counts of concordant (c), discordant (d) and tied pairs.
func TestKendallTauB(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		{[]float64{1, 2, 3}, []float64{1, 3, 2}, 1.0 / 3},                      // c 2, d 1, of 3
		{[]float64{1, 2, 2, 3}, []float64{1, 3, 2, 4}, 5 / math.Sqrt(5*6)},     // c 5; 1 pair tied in x
		{[]float64{1, 1, 2, 3}, []float64{1, 2, 2, 2}, 2 / math.Sqrt(5*3)},     // c 2; tied: 1 in x, 3 in y
		{[]float64{1, 2, 2, 4}, []float64{4, 2, 2, 1}, -5 / math.Sqrt(5*5)},    // d 5; the tie in both in neither
		{[]float64{1, 2, 3, 4, 5}, []float64{2, 1, 3, 5, 4}, (8.0 - 2) / 10.0}, // the example's
	} {
		if got := KendallTauB(c.x, c.y); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("KendallTauB(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	for _, c := range [][2][]float64{{{1}, {1}}, {{1, 1}, {1, 2}}, {{1, 2}, {1}}, {nil, nil}} {
		if got := KendallTauB(c[0], c[1]); !math.IsNaN(got) {
			t.Errorf("KendallTauB(%v, %v) = %v, want NaN (undefined)", c[0], c[1], got)
		}
	}
}

// TestSecondTuningSeed: the second tuning's seeds are none of the first's, for many benchmark
// seeds and names, and do not depend on anything else.
func TestSecondTuningSeed(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		for _, name := range []string{"maze", "finite-model", "riverswim"} {
			first := FamilySeed(seed, name)
			second := SecondTuningSeed(seed, name)
			used := []uint64{first, tune.DesignSeed(first), tune.JudgingSeed(first)}
			for _, s := range []uint64{second, tune.DesignSeed(second), tune.JudgingSeed(second)} {
				if slices.Contains(used, s) {
					t.Fatalf("seed %d, %s: second tuning's seed %d, design %d or judging %d among the first's %v", seed, name,
						second, tune.DesignSeed(second), tune.JudgingSeed(second), used)
				}
			}
			if second != SecondTuningSeed(seed, name) || second == SecondTuningSeed(seed+1, name) {
				t.Fatalf("seed %d, %s: SecondTuningSeed is not a function of the seed and name alone", seed, name)
			}
		}
	}
}

// TestTinyBenchmarkTwoTunings runs the tiny benchmark's maze with tuning: seeds: 2: the family's
// headline ranks are the first tuning's, the stability block gives every ranked learner's two
// ranks (the second those of the second tuning's own ranking), τ_b and the learners that moved
// as computed from those ranks, the second tuning at its own design seed, judged on the same
// tasks at the same judging seed; and the outputs say so.
func TestTinyBenchmarkTwoTunings(t *testing.T) {
	s, err := Load(tinyFile)
	if err != nil {
		t.Fatal(err)
	}
	s.Tuning.Seeds = 2
	dir := t.TempDir()
	fams, err := Run(context.Background(), s, Options{Seed: 7, Dir: dir, Jobs: 1, Families: []string{"maze"}})
	if err != nil {
		t.Fatal(err)
	}
	fam := fams[0]
	st := fam.Stability
	if st == nil {
		t.Fatal("no rank_stability with tuning: seeds: 2")
	}
	if st.TuningSeed != SecondTuningSeed(7, "maze") || st.JudgingSeed != fam.JudgingSeed || len(st.DesignSeeds) != 1 ||
		st.DesignSeeds[0] != tune.DesignSeed(st.TuningSeed) || st.DesignSeeds[0] == fam.DesignSeeds[0] {
		t.Errorf("stability seeds: tuning %d, design %v, judging %d; family's design %v, judging %d", st.TuningSeed, st.DesignSeeds,
			st.JudgingSeed, fam.DesignSeeds, fam.JudgingSeed)
	}
	if len(st.Ranks) != len(fam.Learners) || len(st.Learners) != len(fam.Learners) {
		t.Fatalf("ranks %v and second learners %d for %d learners", st.Ranks, len(st.Learners), len(fam.Learners))
	}
	var x, y []float64
	var moved []string
	for i, p := range st.Ranks {
		l := fam.Learners[i]
		k := slices.IndexFunc(st.Learners, func(m Learner) bool { return m.Name == p.Name })
		if p.Name != l.Name || p.First != l.Rank || k < 0 || p.Second != st.Learners[k].Rank {
			t.Errorf("ranks[%d] = %+v; want %s's first rank %d and its second tuning's rank", i, p, l.Name, l.Rank)
		}
		if st.Learners[k].Budget != l.Budget {
			t.Errorf("%s: second budget %+v, first %+v: want the same budget", p.Name, st.Learners[k].Budget, l.Budget)
		}
		x, y = append(x, float64(p.First)), append(y, float64(p.Second))
		if math.Abs(float64(p.First-p.Second)) > 1 {
			moved = append(moved, p.Name)
		}
	}
	if tau := KendallTauB(x, y); float64(st.KendallTauB) != tau || tau < -1 || tau > 1 {
		t.Errorf("kendall_tau_b %v, want %v from the ranks", st.KendallTauB, tau)
	}
	if !slices.Equal(st.Moved, moved) && (len(moved) > 0 || len(st.Moved) > 0) {
		t.Errorf("moved %v, want %v", st.Moved, moved)
	}
	// The second tuning was judged on the first's tasks: the two judged runs ran the same seed.
	var seeds []uint64
	for _, judged := range []string{"judged", "judged-2"} {
		c, err := experiment.Load(filepath.Join(dir, "families", "maze", judged, "spec.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, c.Seed)
	}
	if seeds[0] != fam.JudgingSeed || seeds[1] != fam.JudgingSeed {
		t.Errorf("judged runs at seeds %v, want both at the judging seed %d", seeds, fam.JudgingSeed)
	}
	if _, err := os.Stat(filepath.Join(dir, "families", "maze", "tuning-2", "search.json")); err != nil {
		t.Errorf("no second tuning's search: %v", err)
	}
	t.Logf("ranks %+v, tau_b %v, moved %v", st.Ranks, st.KendallTauB, st.Moved)

	r := Result{Benchmark: s.Name, Seed: 7, Margin: s.Margin, Budget: s.Tuning, Families: fams}
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	out := outputs(t, dir)
	var doc struct {
		Budget   map[string]any
		Families []map[string]json.RawMessage
	}
	if err := json.Unmarshal(out[JSONFile], &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Budget["seeds"] != 2.0 || doc.Families[0]["rank_stability"] == nil {
		t.Errorf("benchmark.json: budget %v, rank_stability %s: want seeds 2 and the stability", doc.Budget, doc.Families[0]["rank_stability"])
	}
	for name, text := range map[string]string{MarkdownFile: "Each family's ranked table is the first tuning's",
		HTMLFile: "each ranked table is the first tuning's"} {
		if page := string(out[name]); !strings.Contains(page, text) || !strings.Contains(page, "Rank stability: second tuning") {
			t.Errorf("%s does not say which tuning gives the table, or the stability:\n%s", name, out[name])
		}
	}
}
