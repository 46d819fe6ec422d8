package experiment

import (
	"context"
	"fmt"
	"os"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/results"
)

// Execute runs a whole experiment into dir: it builds the plan, records the task sequences it
// used (tasks.json, including goals drawn from the seed), runs every cell on up to jobs workers —
// reusing cells already finished in dir by the same spec — and writes the cells and figures.
//
// A directory holding cells of another spec is refused (OccupiedError), and so is one in which
// another process is running an experiment (LockedError).
func Execute(ctx context.Context, s Spec, dir string, jobs int, progress Progress) (Summary, error) {
	release, err := claim(dir, s, progress)
	if err != nil {
		return Summary{}, err
	}
	defer release()
	return execute(ctx, s, dir, jobs, progress)
}

// execute is Execute in a directory already claimed.
func execute(ctx context.Context, s Spec, dir string, jobs int, progress Progress) (Summary, error) {
	p, err := prepare(s, dir)
	if err != nil {
		return Summary{}, err
	}
	cells, err := Run(ctx, p, dir, jobs, progress)
	if err != nil {
		return Summary{}, err
	}
	return Write(dir, s, cells)
}

// prepare builds the plan of s and writes its task sequences to dir/tasks.json and what the
// writer of its results needs (results.Setup) to dir/setup.json, before any cell runs: so every
// shard's directory can be merged without the runner.
func prepare(s Spec, dir string) (*Plan, error) {
	p, err := Build(s)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	set := env.SequenceSet{Format: env.SequenceFormat, Description: "task sequences of experiment " + s.Name}
	for _, tasks := range p.Runs {
		var seq env.Sequence
		for _, t := range tasks {
			seq = append(seq, t.Def)
		}
		set.Runs = append(set.Runs, seq)
	}
	encoded, err := env.EncodeSequences(set)
	if err != nil {
		return nil, fmt.Errorf("experiment: the task sequences: %w", err)
	}
	if err := results.WriteTasks(dir, encoded); err != nil {
		return nil, err
	}
	setup, err := s.setup()
	if err != nil {
		return nil, err
	}
	if err := results.WriteSetup(dir, setup); err != nil {
		return nil, err
	}
	return p, nil
}
