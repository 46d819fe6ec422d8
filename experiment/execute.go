package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/temple-rl/temple/env"
)

// Execute runs a whole experiment into dir: it builds the plan, records the task sequences it
// used (tasks.json, including goals drawn from the seed), runs every cell on up to jobs workers —
// reusing cells already finished in dir by the same spec — and writes the results and figures.
func Execute(ctx context.Context, s Spec, dir string, jobs int, progress Progress) (Summary, error) {
	p, err := Build(s)
	if err != nil {
		return Summary{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Summary{}, fmt.Errorf("experiment: %w", err)
	}
	set := env.SequenceSet{Format: env.SequenceFormat, Description: "task sequences of experiment " + s.Name}
	for _, tasks := range p.Runs {
		var seq env.Sequence
		for _, t := range tasks {
			seq = append(seq, t.Def)
		}
		set.Runs = append(set.Runs, seq)
	}
	if err := env.WriteSequences(filepath.Join(dir, "tasks.json"), set); err != nil {
		return Summary{}, err
	}
	results, err := Run(ctx, p, dir, jobs, progress)
	if err != nil {
		return Summary{}, err
	}
	return Write(dir, s, results)
}
