package experiment

import (
	"context"
	"errors"
	"fmt"
	"github.com/temple-rl/temple/results"
	"strconv"
	"strings"
)

// Shard is a share of an experiment's cells, for spreading one experiment over the machines of a
// cluster: the cells are numbered in (point of a sweep, run, agent) order, and shard Index of
// Count runs cell c of each point when c mod Count = Index. The zero Shard runs everything.
// Seeds never depend on the shard, so merged shards give the same results as one machine.
type Shard struct{ Index, Count int }

// Has reports whether cell number c belongs to the shard.
func (sh Shard) Has(c int) bool { return sh.Count <= 1 || c%sh.Count == sh.Index }

func (sh Shard) String() string { return fmt.Sprintf("%d/%d", sh.Index, sh.Count) }

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(text string) (Shard, error) {
	is, ns, ok := strings.Cut(text, "/")
	i, errI := strconv.Atoi(is)
	n, errN := strconv.Atoi(ns)
	if !ok || errI != nil || errN != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q, want i/n with 0 <= i < n (for instance 0/4)", text)
	}
	return Shard{Index: i, Count: n}, nil
}

// ShardFromEnv reads the shard of a Slurm array job (SLURM_ARRAY_TASK_ID, less
// SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT) or of a Kubernetes Indexed Job
// (JOB_COMPLETION_INDEX of TEMPLE_SHARDS, which the Job sets to its completions); ok is false
// when neither is set. In a Slurm job TEMPLE_SHARDS, when set, is the count and
// SLURM_ARRAY_TASK_ID itself the index: a task resubmitted alone (sbatch --array=1) is an array
// of one, whose own count and minimum would make it shard 0 of 1.
func ShardFromEnv(getenv func(string) string) (sh Shard, ok bool, err error) {
	atoi := func(name string) (int, error) {
		v, err := strconv.Atoi(getenv(name))
		if err != nil {
			return 0, fmt.Errorf("environment variable %s = %q is not a whole number", name, getenv(name))
		}
		return v, nil
	}
	switch {
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		id, err := atoi("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return Shard{}, false, err
		}
		if getenv("TEMPLE_SHARDS") != "" {
			count, err := atoi("TEMPLE_SHARDS")
			if err != nil {
				return Shard{}, false, err
			}
			if sh, err = ParseShard(fmt.Sprintf("%d/%d", id, count)); err != nil {
				return Shard{}, false, fmt.Errorf("SLURM_ARRAY_TASK_ID = %d with TEMPLE_SHARDS = %d: %w; the array's indices must be 0 to TEMPLE_SHARDS-1", id, count, err)
			}
			return sh, true, nil
		}
		count, err := atoi("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, false, err
		}
		lo := 0
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = atoi("SLURM_ARRAY_TASK_MIN"); err != nil {
				return Shard{}, false, err
			}
		}
		sh, err = ParseShard(fmt.Sprintf("%d/%d", id-lo, count))
		return sh, err == nil, err
	case getenv("JOB_COMPLETION_INDEX") != "":
		id, err := atoi("JOB_COMPLETION_INDEX")
		if err != nil {
			return Shard{}, false, err
		}
		if getenv("TEMPLE_SHARDS") == "" {
			return Shard{}, false, errors.New("JOB_COMPLETION_INDEX is set but TEMPLE_SHARDS is not: set it to the Job's completions")
		}
		count, err := atoi("TEMPLE_SHARDS")
		if err != nil {
			return Shard{}, false, err
		}
		sh, err = ParseShard(fmt.Sprintf("%d/%d", id, count))
		return sh, err == nil, err
	case getenv("TEMPLE_SHARDS") != "":
		return Shard{}, false, fmt.Errorf("TEMPLE_SHARDS = %q is set but neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX says which shard this is; "+
			"give --shard i/n, or unset TEMPLE_SHARDS to run every cell", getenv("TEMPLE_SHARDS"))
	}
	return Shard{}, false, nil
}

// ExecuteShard runs the shard's share of the cells of s (of every point of a sweep) into dir,
// with the spec, task sequences and layout files, and returns how many cells the shard holds. It
// writes no summary or figures: `temple merge` (results.Merge) joins the shards' directories and
// writes them.
func ExecuteShard(ctx context.Context, s Spec, dir string, jobs int, progress Progress, sh Shard) (int, error) {
	s = s.ReadInputsOnce()
	if err := Check(s); err != nil {
		return 0, err
	}
	points, subdirs, err := s.experiments()
	if err != nil {
		return 0, err
	}
	d, release, err := claim(dir, s, progress)
	if err != nil {
		return 0, err
	}
	defer release()
	if len(s.Sweep) > 0 {
		if _, err := writeSweepSetup(s, d); err != nil {
			return 0, err
		}
	}
	var scalingPoints []scalingPoint
	if s.Scaling != nil {
		scalingPoints = s.Scaling.points(s) // in the order of points
	}
	var scaling []results.ScalingPointSetup
	cells := 0
	for k, ps := range points {
		n, pt, err := runShardPoint(ctx, ps, d, subdirs[k], jobs, progress, sh)
		cells += n
		if err != nil {
			return cells, err
		}
		if s.Scaling != nil {
			setup, err := scalingPoints[k].setup(pt)
			if err != nil {
				return cells, err
			}
			scaling = append(scaling, setup)
		}
	}
	if s.Scaling != nil {
		if _, err := writeScalingSetup(s, d, scaling); err != nil {
			return cells, err
		}
	}
	return cells, nil
}

// runShardPoint runs the shard's cells of one experiment into top, the directory claimed for the
// shard, or, for a point of a sweep or scaling study, into its directory sub below top, which it
// claims first; it returns how many cells it ran and its plan.
func runShardPoint(ctx context.Context, ps Spec, top results.Dir, sub string, jobs int, progress Progress, sh Shard) (int, *Plan, error) {
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
