package experiment

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/cluster"
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
				n, err := ExecuteShard(context.Background(), s, d, 1, nil, cluster.Shard{Index: i, Count: 3})
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
	if _, err := ExecuteShard(context.Background(), other, d, 1, nil, cluster.Shard{Index: 1, Count: 2}); err != nil {
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
		if _, err := ExecuteShard(context.Background(), s, d, 1, nil, cluster.Shard{Index: i, Count: 2}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	return shards
}
