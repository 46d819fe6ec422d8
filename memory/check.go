package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/temple-rl/temple/internal/sysmem"
)

// Limit is the memory an experiment with max_memory maxMemory (MB) may take by its estimate, in
// bytes: max_memory, or the machine's memory when it is 0; 0 when that cannot be read (no
// limit). The runner refuses an experiment whose estimate exceeds it.
func Limit(maxMemory int64) int64 {
	limit, _ := limitOf(maxMemory)
	return limit
}

// limitOf is Limit with the words that say where it comes from.
func limitOf(maxMemory int64) (limit int64, source string) {
	if maxMemory > 0 {
		return maxMemory << 20, fmt.Sprintf("max_memory = %d", maxMemory)
	}
	total := sysmem.Total()
	return total, fmt.Sprintf("the machine's %d MB (max_memory = 0)", total>>20)
}

// Check refuses the experiment when its estimate on tasks of the given sizes per run exceeds the
// limit, with the estimate by part and, for each part, the fields that change it, largest part
// first.
func (x Experiment) Check(sizes [][]Task) error { return x.CheckRuns(sizes, len(sizes)) }

// CheckRuns is Check for runs runs whose tasks are sized as those of the sample of runs in sizes
// (EstimateRuns).
func (x Experiment) CheckRuns(sizes [][]Task, runs int) error {
	e := x.EstimateRuns(sizes, runs)
	limit, source := limitOf(x.MaxMemory)
	if limit == 0 || e.Total() <= limit {
		return nil
	}
	return fmt.Errorf("the experiment needs about %d MB — %s — more than %s; change the fields named, or raise max_memory (MB)",
		e.Total()>>20, strings.Join(e.parts(), ", "), source)
}

// parts are the estimate's non-zero parts in words, each with the fields that change it, largest
// first.
func (e Estimate) parts() []string {
	type part struct {
		bytes int64
		text  string
	}
	parts := []part{
		{e.Models, fmt.Sprintf("task models of %d runs: %d MB (tasks: width, height, sizes, count; runs)", e.Runs, e.Models>>20)},
		{e.Generation, fmt.Sprintf("drawing the runs' mazes, a run per core: %d MB (tasks: pool)", e.Generation>>20)},
		{e.Oracles, fmt.Sprintf("oracle solutions: %d MB (steps; oracle.enabled: false)", e.Oracles>>20)},
		{e.Agents, fmt.Sprintf("%d workers running %s: %d MB (agents; --jobs; the tasks' sizes: width, height, bins)", e.Workers, e.Agent, e.Agents>>20)},
		{e.Records, fmt.Sprintf("the finished cells' records, an episode sum per episode and a record per task: %d MB (runs; agents; episodes; tasks: count)", e.Records>>20)},
		{e.Sequences, fmt.Sprintf("the runs' task definitions: at least %d MB (runs; tasks: count)", e.Sequences>>20)},
	}
	slices.SortStableFunc(parts, func(a, b part) int { return cmp.Compare(b.bytes, a.bytes) })
	var texts []string
	for _, p := range parts {
		if p.bytes > 0 {
			texts = append(texts, p.text)
		}
	}
	return texts
}
