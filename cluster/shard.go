package cluster

import (
	"errors"
	"fmt"
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
