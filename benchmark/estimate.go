package benchmark

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/tune"
)

// TimingFile is DIR/timing.json: the wall time spent on a benchmark's work, summed over the
// families (MeasuredSeconds) and so over every invocation that ran a part of it (an interrupted
// run and the run that resumed it, the Slurm array tasks of --family), and that work in
// agent-steps (Work), from which another tier's time is estimated.
const TimingFile = "timing.json"

// secondsFile is DIR/families/NAME/seconds.json: the wall time the invocations that worked on the
// family spent on it, added to by each (an interrupted one too).
const secondsFile = "seconds.json"

// familySeconds is seconds.json.
type familySeconds struct {
	Seconds float64 `json:"seconds"`
}

// addSeconds adds sec to the time family name of the benchmark in dir has taken.
func addSeconds(dir, name string, sec float64) error {
	path := filepath.Join(dir, "families", name, secondsFile)
	var t familySeconds
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &t); err != nil {
			return fmt.Errorf("benchmark: %s: %w", path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	t.Seconds += sec
	return writeJSON(path, t)
}

// MeasuredSeconds is the wall time the families of s in dir have taken, summed over the
// invocations that ran them; a family without a record (run by a temple before the record)
// counts nothing.
func MeasuredSeconds(dir string, s Spec) (float64, error) {
	total := 0.0
	for _, f := range s.Families {
		path := filepath.Join(dir, "families", f.Name, secondsFile)
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, err
		}
		var t familySeconds
		if err := json.Unmarshal(b, &t); err != nil {
			return 0, fmt.Errorf("benchmark: %s: %w", path, err)
		}
		total += t.Seconds
	}
	return total, nil
}

// Timing is timing.json.
type Timing struct {
	Seconds float64 `json:"seconds"`
	Steps   int64   `json:"agent_steps"`
	Jobs    int     `json:"jobs"`
}

// Work is the agent-steps a benchmark runs: for every family, every learner and reference
// (those that apply or not: an upper bound) times the trial runs of its tuning and the judged
// runs, times the tasks of a run, the episodes and the steps of an episode (a task's episodes may
// end early at a terminal state, so this bounds the steps from above), and again for every
// learner (not the references) under a second tuning (tuning: seeds: 2). It builds each family's
// tasks of one run to count them.
func Work(s Spec, only []string) (int64, error) {
	var total int64
	for _, f := range s.Families {
		if len(only) > 0 && !contains(only, f.Name) {
			continue
		}
		es, err := entries(s, f)
		if err != nil {
			return 0, err
		}
		one, err := config(f, f.Name, 0, 1, []*yaml.Node{es[0].node}, nil)
		if err != nil {
			return 0, err
		}
		p, err := experiment.BuildTasks(one)
		if err != nil {
			return 0, fmt.Errorf("benchmark: family %s: %w", f.Name, err)
		}
		runs := int64(tune.TrialRuns(s.Tuning.Settings, s.Tuning.Runs) + f.Runs)
		agents := int64(len(es))
		if s.Tuning.Tunings() > 1 {
			agents += int64(len(s.Learners))
		}
		total += agents * runs * int64(len(p.Runs[0])) * int64(p.Episodes) * int64(p.Steps)
	}
	return total, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// ReadTiming reads DIR/timing.json.
func ReadTiming(dir string) (Timing, error) { return ReadTimingFile(filepath.Join(dir, TimingFile)) }

// ReadTimingFile reads a timing.json by its path.
func ReadTimingFile(path string) (Timing, error) {
	var t Timing
	b, err := os.ReadFile(path)
	if err != nil {
		return t, err
	}
	if err := json.Unmarshal(b, &t); err != nil || t.Steps <= 0 || t.Seconds <= 0 {
		return t, fmt.Errorf("benchmark: %s: not a timing (%v)", path, err)
	}
	return t, nil
}

// WriteTiming writes DIR/timing.json.
func WriteTiming(dir string, t Timing) error { return writeJSON(filepath.Join(dir, TimingFile), t) }
