package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/temple-rl/temple/results"
	"io"
	"os"
	"path/filepath"
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
// when neither is set.
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
	}
	return Shard{}, false, nil
}

// ExecuteShard runs the shard's share of the cells of s (of every point of a sweep) into dir,
// with the spec and task sequences, and returns how many cells the shard holds. It writes no
// summary or figures: `temple merge` (Merge) joins the shards' directories and writes them.
func ExecuteShard(ctx context.Context, s Spec, dir string, jobs int, progress Progress, sh Shard) (int, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	points, subdirs, err := s.experiments()
	if err != nil {
		return 0, err
	}
	var dirs []string
	for _, sub := range subdirs {
		dirs = append(dirs, filepath.Join(dir, sub))
	}
	release, err := claim(dir, s, progress)
	if err != nil {
		return 0, err
	}
	defer release()
	cells := 0
	for k, ps := range points {
		p, err := prepare(ps, dirs[k])
		if err != nil {
			return cells, err
		}
		p.Shard = sh
		res, err := Run(ctx, p, dirs[k], jobs, progress)
		cells += len(res)
		if err != nil {
			return cells, err
		}
	}
	return cells, nil
}

// Merge joins the results directories of the shards of one experiment into out: it checks that
// they ran the same spec, gathers their cells (and episode files), checks that every cell is
// there, and writes the results — byte for byte those of an unsharded run.
func Merge(ctx context.Context, out string, shards []string) (Summary, error) {
	if len(shards) == 0 {
		return Summary{}, errors.New("experiment: merge: no shard directories given")
	}
	spec, err := os.ReadFile(filepath.Join(shards[0], "spec.yaml"))
	if err != nil {
		return Summary{}, fmt.Errorf("experiment: merge: %w", err)
	}
	for _, d := range shards[1:] {
		other, err := os.ReadFile(filepath.Join(d, "spec.yaml"))
		if err != nil {
			return Summary{}, fmt.Errorf("experiment: merge: %w", err)
		}
		if !bytes.Equal(other, spec) {
			return Summary{}, fmt.Errorf("experiment: merge: %s and %s ran different specs (their spec.yaml differ)", shards[0], d)
		}
	}
	s, err := Parse(spec)
	if err != nil {
		return Summary{}, fmt.Errorf("experiment: merge: %s: %w", filepath.Join(shards[0], "spec.yaml"), err)
	}
	release, err := claim(out, s, nil)
	if err != nil {
		return Summary{}, err
	}
	defer release()
	points, subdirs, err := s.experiments()
	if err != nil {
		return Summary{}, err
	}
	for k, sub := range subdirs {
		for _, d := range shards {
			for _, kind := range cellOutputs {
				if err := copyFiles(filepath.Join(d, sub, kind), filepath.Join(out, sub, kind)); err != nil {
					return Summary{}, fmt.Errorf("experiment: merge: %w", err)
				}
			}
		}
		var missing []string
		for run := range points[k].Runs {
			for _, name := range points[k].AgentNames() {
				if _, err := os.Stat(filepath.Join(out, sub, "cells", results.CellName(run, name)+".json")); err != nil {
					missing = append(missing, filepath.Join(sub, "cells", results.CellName(run, name)+".json"))
				}
			}
		}
		if len(missing) > 0 {
			return Summary{}, fmt.Errorf("experiment: merge: %d cells are missing (%s…); merge the directories of every shard, after each has finished",
				len(missing), missing[0])
		}
	}
	switch {
	case len(s.Sweep) > 0:
		_, err := executeSweep(ctx, s, out, 1, silent{})
		return Summary{}, err
	case s.Scaling != nil:
		_, _, err := executeScaling(ctx, s, out, 1, silent{})
		return Summary{}, err
	}
	return execute(ctx, s, out, 1, silent{})
}

// copyFiles copies every file of from into to (a missing from is no error).
func copyFiles(from, to string) error {
	entries, err := os.ReadDir(from)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		src, err := os.Open(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		dst, err := os.Create(filepath.Join(to, e.Name()))
		if err == nil {
			_, err = io.Copy(dst, src)
			if cerr := dst.Close(); err == nil {
				err = cerr
			}
		}
		src.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
