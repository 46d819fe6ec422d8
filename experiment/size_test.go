package experiment

import (
	"testing"

	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/memory"
)

// FuzzSizes: any runs, episodes, steps and task count: Validate, the memory check before the draw
// and EstimateWork never panic; what they accept fits the counters (episodes × steps at most
// 2^53, at most MaxTasksPerRun tasks) and the memory limit (the cells' episode sums within
// max_memory), and its time estimate is not negative.
func FuzzSizes(f *testing.F) {
	f.Add(int64(1), int64(1_000_000_000_000_000_000), int64(30), int64(2))
	f.Add(int64(1_000_000_000), int64(3000), int64(30), int64(20))
	f.Add(int64(2), int64(1_000_000_000_000), int64(1), int64(2))
	f.Add(int64(1), int64(10), int64(30), int64(1_000_000_000))
	f.Fuzz(func(t *testing.T, runs, episodes, steps, count int64) {
		s := small(1, 1, 1)
		s.Runs, s.Episodes, s.Steps, s.MaxMemory = int(runs), int(episodes), int(steps), 1000
		s.Tasks.Params.(*families.OnlineMazeParams).Tasks = int(count)
		if s.Validate() != nil {
			return
		}
		if float64(s.Episodes)*float64(s.Steps) > maxStepsPerTask || families.TasksPerRun(s.Tasks.Params) > families.MaxTasksPerRun {
			t.Fatalf("Validate accepted episodes %d, steps %d, count %d", s.Episodes, s.Steps, count)
		}
		w, err := EstimateWork(s, 2)
		if err != nil || w.Time < 0 || w.Steps < 0 {
			t.Fatalf("EstimateWork = %+v, %v", w, err)
		}
		if s.memory().Check(nil) != nil {
			return
		}
		if records := float64(s.Runs) * float64(len(s.Agents)) * float64(s.Episodes) * memory.EpisodeSumBytes; records > 1000<<20 {
			t.Fatalf("the memory check passed %.3g bytes of episode sums, max_memory 1000 MB", records)
		}
	})
}
