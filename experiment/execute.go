package experiment

import (
	"context"
	"fmt"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/results"
)

// Execute runs a whole experiment into dir: it builds the plan, records the task sequences it
// used (tasks.json, including goals drawn from the seed), runs every cell on up to jobs workers —
// reusing cells already finished in dir by the same spec — and writes the cells and figures.
//
// A directory holding cells of another spec is refused (OccupiedError), and so is one in which
// another process is running an experiment (LockedError).
func Execute(ctx context.Context, s Spec, dir string, jobs int, progress Progress) (results.Summary, error) {
	_, sum, err := ExecuteCells(ctx, s, dir, jobs, progress)
	return sum, err
}

// ExecuteCells is Execute that returns the cells too, in (run, agent) order, for a caller that
// says more of them than their summary does (temple run's summary: what the template learners
// learned, the cells reused) without reading back the files just written.
func ExecuteCells(ctx context.Context, s Spec, dir string, jobs int, progress Progress) ([]results.CellResult, results.Summary, error) {
	s = s.ReadInputsOnce() // the plan, spec.yaml and setup.json from the same bytes
	p, err := Build(s)     // before dir is made: a spec that cannot run leaves nothing behind
	if err != nil {
		return nil, results.Summary{}, err
	}
	d, release, err := Claim(dir, s, progress)
	if err != nil {
		return nil, results.Summary{}, err
	}
	defer release()
	return runClaimed(ctx, s, p, d, jobs, progress)
}

// runClaimed runs plan p of s into the directory d claimed for it and writes its results: the
// task sequences and setup first (prepare), then every cell (Run), then the files of the
// results (Write). It returns the cells and their summary.
func runClaimed(ctx context.Context, s Spec, p *Plan, d results.Dir, jobs int, progress Progress) ([]results.CellResult, results.Summary, error) {
	if err := prepare(s, p, d); err != nil {
		return nil, results.Summary{}, err
	}
	cells, err := Run(ctx, p, d, jobs, progress)
	if err != nil {
		return nil, results.Summary{}, err
	}
	sum, err := Write(d, s, cells)
	return cells, sum, err
}

// RunPoint runs the experiment s of one point of a sweep or scaling study into its directory sub
// below top, which it claims, and returns its plan (for the tasks' true templates), its cells and
// their summary.
func RunPoint(ctx context.Context, top results.Dir, sub string, s Spec, jobs int, progress Progress) (*Plan, []results.CellResult, results.Summary, error) {
	plan, err := Build(s)
	if err != nil {
		return nil, nil, results.Summary{}, err
	}
	d, release, err := claimPoint(top, sub, s, progress)
	if err != nil {
		return nil, nil, results.Summary{}, err
	}
	defer release()
	cells, sum, err := runClaimed(ctx, s, plan, d, jobs, progress)
	return plan, cells, sum, err
}

// RunShardPoint runs the shard's cells of one experiment into top, the directory claimed for
// the shard, or, for a point of a sweep or scaling study, into its directory sub below top, which
// it claims first; it returns how many cells it ran and its plan. It writes no summary or
// figures: results.Merge joins the shards' directories and writes them.
func RunShardPoint(ctx context.Context, ps Spec, top results.Dir, sub string, jobs int, progress Progress, sh cluster.Shard) (int, *Plan, error) {
	p, err := Build(ps)
	if err != nil {
		return 0, nil, err
	}
	dir := top
	if sub != "" {
		point, release, err := claimPoint(top, sub, ps, progress)
		if err != nil {
			return 0, nil, err
		}
		defer release()
		dir = point
	}
	if err := prepare(ps, p, dir); err != nil {
		return 0, nil, err
	}
	p.Shard = sh
	res, err := Run(ctx, p, dir, jobs, progress)
	return len(res), p, err
}

// prepare writes the task sequences of plan p of s to dir's tasks.json and what the writer of its
// results needs (results.Setup) to its setup.json, before any cell runs: so every shard's
// directory can be merged without the runner.
func prepare(s Spec, p *Plan, dir results.Dir) error {
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
