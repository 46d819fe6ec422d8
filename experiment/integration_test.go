package experiment

import (
	"testing"

	"github.com/temple-rl/temple/families"
	resultspkg "github.com/temple-rl/temple/results"
)

// TestOTempLeLearnsTheOnlineMazes runs a small online-maze experiment end to end: O-TempLe must
// beat RMax with non-overlapping 95% confidence intervals, and its library must converge — at
// the last task nearly all of its visits sit in templates within τ̂ of a true template.
func TestOTempLeLearnsTheOnlineMazes(t *testing.T) {
	s := Default()
	s.Runs, s.Episodes = 6, 1000
	s.Tasks.Params.(*families.OnlineMazeParams).Tasks = 12
	results := buildAndRun(t, s, 0)
	set, err := s.setup()
	if err != nil {
		t.Fatal(err)
	}
	sum := resultspkg.Summarize(set, results)
	got := map[string]resultspkg.AgentSummary{}
	for _, a := range sum.Agents {
		got[a.Name] = a
		t.Logf("%-10s %9.1f ± %.1f", a.Name, a.MeanPerTaskReward, a.CI95)
	}
	ot, rmax := got["O-TempLe"], got["RMax"]
	if ot.MeanPerTaskReward-ot.CI95 <= rmax.MeanPerTaskReward+rmax.CI95 {
		t.Errorf("O-TempLe %.1f ± %.1f does not beat RMax %.1f ± %.1f", ot.MeanPerTaskReward, ot.CI95, rmax.MeanPerTaskReward, rmax.CI95)
	}
	for _, c := range results {
		if c.Agent != "O-TempLe" {
			continue
		}
		last, found := c.Tasks[len(c.Tasks)-1], false
		for _, m := range last.Metrics {
			if m.Name == "visits_within_tau" {
				found = true
				if m.Value < 0.95 {
					t.Errorf("run %d: only %.3f of the library's visits are within τ̂ of a true template", c.Run, m.Value)
				}
			}
		}
		if !found {
			t.Errorf("run %d: O-TempLe reported no visits_within_tau", c.Run)
		}
	}
}
