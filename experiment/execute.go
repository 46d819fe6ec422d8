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
	s = s.ReadInputsOnce() // the plan, spec.yaml and setup.json from the same bytes
	p, err := Build(s)     // before dir is made: a spec that cannot run leaves nothing behind
	if err != nil {
		return Summary{}, err
	}
	release, err := claim(dir, s, progress)
	if err != nil {
		return Summary{}, err
	}
	defer release()
	if err := prepare(s, p, dir); err != nil {
		return Summary{}, err
	}
	cells, err := Run(ctx, p, dir, jobs, progress)
	if err != nil {
		return Summary{}, err
	}
	return Write(dir, s, cells)
}

// prepare writes the task sequences of plan p of s to dir/tasks.json and what the writer of its
// results needs (results.Setup) to dir/setup.json, before any cell runs: so every shard's
// directory can be merged without the runner.
func prepare(s Spec, p *Plan, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("experiment: %w", err)
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
		return fmt.Errorf("experiment: the task sequences: %w", err)
	}
	if err := results.WriteTasks(dir, encoded); err != nil {
		return err
	}
	setup, err := s.setup()
	if err != nil {
		return err
	}
	if err := results.WriteSetup(dir, setup); err != nil {
		return err
	}
	return nil
}
