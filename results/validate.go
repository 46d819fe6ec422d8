package results

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
)

// The checks of the layout files a reader uses before it writes anything from them: setup.json,
// tasks.json, sweep.json and scaling.json. Each returns a *DamagedError that names the file and
// what is wrong with it.

// maxTasksBytes bounds tasks.json, as the runner bounds a task-sequence file it reads
// (env.MaxSequenceBytes): 1 GiB.
const maxTasksBytes = 1 << 30

// checkSetup checks the setup.json at path.
func checkSetup(path string, s Setup) error {
	bad := func(format string, a ...any) error {
		return &DamagedError{Path: path, Problem: fmt.Sprintf(format, a...)}
	}
	switch {
	case s.Runs < 1:
		return bad("runs = %d, want at least 1", s.Runs)
	case s.Episodes < 1:
		return bad("episodes = %d, want at least 1", s.Episodes)
	case len(s.Agents) == 0:
		return bad("it names no agent")
	case s.Baseline != "" && !slices.Contains(s.Agents, s.Baseline):
		return bad("baseline %q is none of its agents %q", s.Baseline, s.Agents)
	case !(s.Smoothing >= 0 && s.Smoothing < 1):
		return bad("smoothing = %g, want 0 <= smoothing < 1", s.Smoothing)
	case !(s.Epsilon >= 0) || math.IsInf(s.Epsilon, 0):
		return bad("epsilon = %g, want a number >= 0", s.Epsilon)
	}
	seen := map[string]bool{}
	for _, a := range s.Agents {
		if a == "" || seen[SafeName(a)] {
			return bad("agent names %q: each must be there once, and not empty", s.Agents)
		}
		seen[SafeName(a)] = true
	}
	return nil
}

// readTaskCounts reads the number of tasks of each of the runs of dir's tasks.json (its task
// definitions are the runner's to check).
func readTaskCounts(dir Dir, runs int) ([]int, error) {
	b, err := readVerified(dir, TasksFile, maxTasksBytes)
	if err != nil {
		return nil, err
	}
	return parseTaskCounts(dir.Path(TasksFile), b, runs)
}

// parseTaskCounts is readTaskCounts of the content b of the tasks.json at path.
func parseTaskCounts(path string, b []byte, runs int) ([]int, error) {
	var set struct {
		Runs []json.RawMessage `json:"runs"`
	}
	if err := json.Unmarshal(b, &set); err != nil {
		return nil, &DamagedError{Path: path, Problem: fmt.Sprintf("not task sequences' JSON (%v)", err)}
	}
	if len(set.Runs) != runs {
		return nil, &DamagedError{Path: path, Problem: fmt.Sprintf("it holds %d runs, setup.json %d", len(set.Runs), runs)}
	}
	counts := make([]int, runs)
	for r, raw := range set.Runs {
		var tasks []json.RawMessage
		if err := json.Unmarshal(raw, &tasks); err != nil || len(tasks) == 0 {
			return nil, &DamagedError{Path: path, Problem: fmt.Sprintf("run %d is not a list of tasks, or an empty one", r)}
		}
		counts[r] = len(tasks)
	}
	return counts, nil
}

// checkPointDirs checks the points' directories of a sweep or scaling study: each a plain name
// below the study's directory, and each once.
func checkPointDirs(path string, dirs []string) error {
	if len(dirs) == 0 {
		return &DamagedError{Path: path, Problem: "it has no points"}
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if !filepath.IsLocal(d) || d != filepath.Clean(d) || d == "." || seen[d] {
			return &DamagedError{Path: path, Problem: fmt.Sprintf("point directory %q: each must be a directory below the study's, once", d)}
		}
		seen[d] = true
	}
	return nil
}

// checkSweep checks the sweep.json at path.
func checkSweep(path string, sw SweepSetup) error {
	dirs := make([]string, len(sw.Points))
	for k, pt := range sw.Points {
		if len(pt.Values) != len(sw.Params) {
			return &DamagedError{Path: path, Problem: fmt.Sprintf("point %d has %d values for %d parameters", k, len(pt.Values), len(sw.Params))}
		}
		dirs[k] = pt.Dir
	}
	if len(sw.Agents) == 0 {
		return &DamagedError{Path: path, Problem: "it names no agent"}
	}
	return checkPointDirs(path, dirs)
}

// checkScaling checks the scaling.json at path.
func checkScaling(path string, sc ScalingSetup) error {
	dirs := make([]string, len(sc.Points))
	for k, pt := range sc.Points {
		if pt.Series != "size" && pt.Series != "templates" {
			return &DamagedError{Path: path, Problem: fmt.Sprintf("point %d: series %q, want size or templates", k, pt.Series)}
		}
		dirs[k] = pt.Dir
	}
	if len(sc.Agents) == 0 {
		return &DamagedError{Path: path, Problem: "it names no agent"}
	}
	return checkPointDirs(path, dirs)
}
