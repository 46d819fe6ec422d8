package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/results"
)

// report.html holds every figure, the summary, the comparison, the diagnostics and the spec.
func TestReportHoldsEveryFigureAndTable(t *testing.T) {
	dir := t.TempDir()
	s := small(3, 3, 40)
	if _, err := Execute(context.Background(), s, dir, 2, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
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
	for _, want := range []string{"<h2>Summary</h2>", "<td>O-TempLe</td>", "Paired comparison with RMax", "Holm",
		"<th>library_size</th>", "<h2>Distance to optimal</h2>", "<th>share of optimal</th>", "<h2>Resolved spec</h2>", "family: online-maze", "temple " + Version} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	// temple report rebuilds the same page.
	if err := results.WriteReport(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if string(again) != page {
		t.Error("rebuilding report.html changed it")
	}
}
