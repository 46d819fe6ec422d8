package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/temple-rl/temple/families"
)

// A rerun that reuses every cell keeps each cell's time from the invocation that ran it, and the
// report says how many were reused; every figure's title says what it shows.
func TestRerunKeepsCellTimesAndFiguresSayWhatTheyShow(t *testing.T) {
	s := Default()
	s.Runs, s.Episodes = 2, 30
	s.Tasks.Params.(*families.OnlineMazeParams).Tasks = 3
	dir := t.TempDir()
	timings := func() (total float64, reused int) {
		var tm struct {
			Total  float64 `json:"total_cell_seconds"`
			Reused int     `json:"reused_cells"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "timings.json"))
		if err != nil || json.Unmarshal(b, &tm) != nil {
			t.Fatalf("timings.json: %v %s", err, b)
		}
		return tm.Total, tm.Reused
	}
	if _, err := Execute(context.Background(), s, dir, 1, nil); err != nil {
		t.Fatal(err)
	}
	first, reused := timings()
	if first <= 0 || reused != 0 {
		t.Fatalf("first run: %v s, %d reused; want > 0 s, none reused", first, reused)
	}
	if _, err := Execute(context.Background(), s, dir, 1, nil); err != nil {
		t.Fatal(err)
	}
	again, reused := timings()
	if again != first || reused != s.Runs*len(s.Agents) {
		t.Errorf("rerun: %v s, %d reused; want the first run's %v s and all %d cells reused", again, reused, first, s.Runs*len(s.Agents))
	}
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !strings.Contains(string(page), "(6 cells reused from earlier invocations)") || strings.Contains(string(page), ">0.0 s of cell time") {
		t.Errorf("report.html does not say the cells were reused, or says 0 s")
	}
	titles := map[string]string{}
	svgs, _ := filepath.Glob(filepath.Join(dir, "figures", "*.svg"))
	for _, svg := range svgs {
		b, _ := os.ReadFile(svg)
		title := regexp.MustCompile(`(?s)<text[^>]*>([^<]*mean of 2 runs[^<]*)</text>`).FindSubmatch(b)
		if title == nil {
			t.Errorf("%s: no title found", filepath.Base(svg))
			continue
		}
		if other, ok := titles[string(title[1])]; ok {
			t.Errorf("%s and %s share the title %q", filepath.Base(svg), other, title[1])
		}
		titles[string(title[1])] = filepath.Base(svg)
	}
	if len(svgs) < 4 {
		t.Errorf("%d figures, want at least 4", len(svgs))
	}
}
