package experiment

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/results"
)

// Three shards merged give the same bytes as one unsharded run, for an experiment and a sweep.
func TestShardsMergedEqualUnsharded(t *testing.T) {
	plain := small(3, 3, 40)
	sweep, err := Parse([]byte(sweepConfig))
	if err != nil {
		t.Fatal(err)
	}
	sweep.Output.Episodes = true
	for name, s := range map[string]Spec{"experiment": plain, "sweep": sweep} {
		t.Run(name, func(t *testing.T) {
			whole := t.TempDir()
			if len(s.Sweep) > 0 {
				_, err = ExecuteSweep(context.Background(), s, whole, 2, nil)
			} else {
				_, err = Execute(context.Background(), s, whole, 2, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			var shards []string
			total := 0
			for i := range 3 {
				d := t.TempDir()
				n, err := ExecuteShard(context.Background(), s, d, 1, nil, Shard{Index: i, Count: 3})
				if err != nil {
					t.Fatal(err)
				}
				total += n
				shards = append(shards, d)
			}
			out := t.TempDir()
			if err := results.Merge(out, shards[:2]); err == nil || !strings.Contains(err.Error(), "cells are missing") {
				t.Fatalf("merging two of three shards: %v", err)
			}
			if err := results.Merge(out, shards); err != nil {
				t.Fatal(err)
			}
			want, got := dataFiles(t, whole), dataFiles(t, out)
			if len(got) != len(want) {
				t.Fatalf("merged %d files, unsharded %d", len(got), len(want))
			}
			for file, b := range want {
				if strings.HasSuffix(file, ".png") || strings.HasSuffix(file, "compare.csv") {
					continue
				}
				if !bytes.Equal(got[file], b) {
					t.Errorf("%s differs between the merged shards and the unsharded run", file)
				}
			}
			if total == 0 {
				t.Error("the shards ran no cell")
			}
		})
	}
}

func TestShardParsingAndEnvironment(t *testing.T) {
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("shard %q accepted", bad)
		}
	}
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		env  map[string]string
		want string
		ok   bool
		err  string
	}{
		{map[string]string{}, "0/0", false, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "3"}, "1/3", true, ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "2", "TEMPLE_SHARDS": "4"}, "2/4", true, ""},
		// A Slurm array task resubmitted alone (sbatch --array=1) is told the count by TEMPLE_SHARDS.
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "1", "TEMPLE_SHARDS": "3"}, "1/3", true, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "TEMPLE_SHARDS": "3"}, "", false, "indices must be 0 to TEMPLE_SHARDS-1"},
		{map[string]string{"JOB_COMPLETION_INDEX": "2"}, "", false, "TEMPLE_SHARDS is not"},
		// Issue 37, case 8: TEMPLE_SHARDS alone ran every cell without a word.
		{map[string]string{"TEMPLE_SHARDS": "4"}, "", false, "neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "3"}, "", false, `SLURM_ARRAY_TASK_ID = "x"`},
	} {
		sh, ok, err := ShardFromEnv(env(c.env))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.env, err, c.err)
			}
			continue
		}
		if err != nil || ok != c.ok || fmt.Sprint(sh) != c.want {
			t.Errorf("%v: shard %v ok %v err %v, want %s %v", c.env, sh, ok, err, c.want, c.ok)
		}
	}
}

// A shard directory written before setup.json existed, or of another spec, is refused with a
// message that says what to do; nothing is merged.
func TestMergeRefusesOldAndForeignShards(t *testing.T) {
	shards := twoShards(t, small(2, 2, 20))
	if err := os.Remove(filepath.Join(shards[0], "setup.json")); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := results.Merge(out, shards); err == nil || !strings.Contains(err.Error(), "has no setup.json") ||
		!strings.Contains(err.Error(), "again with this version") {
		t.Errorf("merging a shard without setup.json: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err == nil {
		t.Error("a refused merge wrote summary.json")
	}
	other := small(2, 2, 20)
	other.Seed = 7
	d := t.TempDir()
	if _, err := ExecuteShard(context.Background(), other, d, 1, nil, Shard{Index: 1, Count: 2}); err != nil {
		t.Fatal(err)
	}
	if err := results.Merge(t.TempDir(), []string{shards[1], d}); err == nil || !strings.Contains(err.Error(), "ran another spec") ||
		!strings.Contains(err.Error(), "differs in seed") {
		t.Errorf("merging shards of two specs: %v", err)
	}
}

// twoShards runs shards 0/2 and 1/2 of s, each into a directory of its own, and returns them.
func twoShards(t *testing.T, s Spec) []string {
	t.Helper()
	var shards []string
	for i := range 2 {
		d := t.TempDir()
		if _, err := ExecuteShard(context.Background(), s, d, 1, nil, Shard{Index: i, Count: 2}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	return shards
}
