package study

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/results/resultstest"
)

// small is a quick online-maze experiment with the three default agents.
func small(runs, tasks, episodes int) experiment.Spec {
	s := experiment.Default()
	s.Name = "test"
	s.Runs, s.Episodes = runs, episodes
	s.Tasks.Params.(*families.OnlineMazeParams).Tasks = tasks
	s.Output.Episodes = true
	return s
}

// Three shards merged give the same bytes as one unsharded run, for an experiment and a sweep.
func TestShardsMergedEqualUnsharded(t *testing.T) {
	plain := small(3, 3, 40)
	sweep, err := experiment.Parse([]byte(sweepConfig))
	if err != nil {
		t.Fatal(err)
	}
	sweep.Output.Episodes = true
	for name, s := range map[string]experiment.Spec{"experiment": plain, "sweep": sweep} {
		t.Run(name, func(t *testing.T) {
			whole := t.TempDir()
			if len(s.Sweep) > 0 {
				_, err = ExecuteSweep(context.Background(), s, whole, 2, nil)
			} else {
				_, err = experiment.Execute(context.Background(), s, whole, 2, nil)
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
			want, got := resultstest.DataFiles(t, whole), resultstest.DataFiles(t, out)
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

// twoShards runs shards 0/2 and 1/2 of s, each into a directory of its own, and returns them.
func twoShards(t *testing.T, s experiment.Spec) []string {
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
