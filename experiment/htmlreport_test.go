package experiment

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/results"
)

// report.html holds every figure, the summary, every verdict temple run prints, the diagnostics
// (a row per metric, so that no name is cut at the page's edge) and the spec.
func TestReportHoldsEveryFigureAndTable(t *testing.T) {
	s := small(3, 3, 40)
	dir, page := reportOf(t, s)
	figures, _ := filepath.Glob(filepath.Join(dir, "figures", "*.svg"))
	if len(figures) != 7 { // 5, and the regret by phase of O-TempLe and RMax
		t.Fatalf("%d figures, want 7", len(figures))
	}
	for _, f := range figures {
		name := strings.TrimSuffix(filepath.Base(f), ".svg")
		if !strings.Contains(page, `id="`+name+`"><svg`) {
			t.Errorf("the report lacks figure %s inline", name)
		}
	}
	for _, want := range []string{"<h2>Summary</h2>", "<td>O-TempLe</td>", "Paired comparisons: every pair of agents", "Holm",
		"<td>library_size</td>", "<td>samples_until_all_known</td>", "<h2>Distance to optimal</h2>", "<th>share of optimal</th>", "<h2>Resolved spec</h2>", "family: online-maze", "temple " + results.Version} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	sum, err := results.ReadSummary(results.At(dir))
	if err != nil {
		t.Fatal(err)
	}
	verdicts, _, err := results.Verdicts(sum, s.Output.Baseline, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(verdicts) != 3 { // every pair of the 3 agents
		t.Errorf("%d verdicts, want 3", len(verdicts))
	}
	for _, c := range verdicts {
		if !strings.Contains(page, `<td class="verdict">`+html.EscapeString(c.Verdict())+"</td>") {
			t.Errorf("the report lacks the verdict %q", c.Verdict())
		}
	}
	// temple report rebuilds the same page.
	if err := results.WriteReport(results.At(dir)); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if string(again) != page {
		t.Error("rebuilding report.html changed it")
	}
}

// With output.verdicts, temple run's verdicts and report.html's are the comparisons named, with
// Holm's correction over them alone.
func TestReportShowsTheVerdictsNamed(t *testing.T) {
	s := small(3, 3, 40)
	s.Output.Verdicts = []string{"O-TempLe:RMax"}
	dir, page := reportOf(t, s)
	sum, err := results.ReadSummary(results.At(dir))
	if err != nil {
		t.Fatal(err)
	}
	verdicts, tested, err := results.Verdicts(sum, s.Output.Baseline, s.Output.Verdicts)
	if err != nil || tested != results.TestedNamed || len(verdicts) != 1 || verdicts[0].A != "O-TempLe" || verdicts[0].B != "RMax" {
		t.Fatalf("verdicts %+v (%v), %v; want O-TempLe − RMax alone", verdicts, tested, err)
	}
	if verdicts[0].PAdjusted != verdicts[0].P {
		t.Errorf("one comparison: p %v adjusted to %v", verdicts[0].P, verdicts[0].PAdjusted)
	}
	if !strings.Contains(page, "Paired comparisons named in the spec (output.verdicts)") ||
		!strings.Contains(page, `<td class="verdict">`+html.EscapeString(verdicts[0].Verdict())+"</td>") ||
		strings.Count(page, `<td class="verdict">`) != 1 {
		t.Error("the report does not show the one verdict named, alone")
	}
}

// reportOf runs s with two workers into a new directory and returns it and its report.html.
func reportOf(t *testing.T, s Spec) (dir, page string) {
	t.Helper()
	dir = t.TempDir()
	if _, err := Execute(context.Background(), s, dir, 2, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(b)
}
