package experiment

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/results/resultstest"
)

// small is a quick online-maze experiment with the three default agents.
func small(runs, tasks, episodes int) Spec {
	s := Default()
	s.Name = "test"
	s.Runs, s.Episodes = runs, episodes
	s.Tasks.Params.(*families.OnlineMazeParams).Tasks = tasks
	s.Output.Episodes = true
	return s
}

// buildAndRun builds s and runs every cell with the given workers, in a temporary directory.
func buildAndRun(t *testing.T, s Spec, jobs int) []results.CellResult {
	t.Helper()
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), p, results.At(t.TempDir()), jobs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return results
}

func TestSameSeedSameBytesAtAnyParallelism(t *testing.T) {
	s := small(3, 4, 60)
	var runs []map[string][]byte
	for _, jobs := range []int{1, 4} {
		dir := t.TempDir()
		if _, err := Execute(context.Background(), s, dir, jobs, nil); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, resultstest.DataFiles(t, dir))
	}
	for _, want := range []string{"per_task.csv", "metrics.csv", "summary.json", "spec.yaml", "tasks.json",
		"figures/per_task_reward.png", "figures/advantage_over_RMax.svg", "figures/cumulative_reward.png",
		"episodes/run-000--O-TempLe.csv", "cells/run-002--Q-learning.json"} {
		if _, ok := runs[0][want]; !ok {
			t.Errorf("results lack %s", want)
		}
	}
	if len(runs[0]) != len(runs[1]) {
		t.Fatalf("1 worker wrote %d files, 4 workers %d", len(runs[0]), len(runs[1]))
	}
	for name, b := range runs[0] {
		if strings.HasSuffix(name, ".png") {
			continue // rendered images are compared through the data they show
		}
		if !bytes.Equal(b, runs[1][name]) {
			t.Errorf("%s differs between 1 and 4 workers", name)
		}
	}
	// A different seed changes the results.
	s.Seed = 2
	dir := t.TempDir()
	if _, err := Execute(context.Background(), s, dir, 2, nil); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(resultstest.DataFiles(t, dir)["per_task.csv"], runs[0]["per_task.csv"]) {
		t.Error("seed 2 gave the same per-task results as seed 1")
	}
}

func TestPerTaskRewardIsTheSumOfEpisodeReturns(t *testing.T) {
	s := small(1, 2, 7)
	dir := t.TempDir()
	if _, err := Execute(context.Background(), s, dir, 2, nil); err != nil {
		t.Fatal(err)
	}
	perTask, err := os.ReadFile(filepath.Join(dir, "per_task.csv"))
	if err != nil {
		t.Fatal(err)
	}
	episodes, err := os.ReadFile(filepath.Join(dir, "episodes", "run-000--RMax.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(perTask)), "\n")[1:] {
		f := strings.Split(line, ",")
		if f[1] == "RMax" {
			want[f[2]], _ = strconv.ParseFloat(f[3], 64)
			if f[4] != "210" {
				t.Errorf("task %s ran %s steps, want 7 × 30", f[2], f[4])
			}
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(episodes)), "\n")[1:] {
		f := strings.Split(line, ",")
		if len(f) != 8 {
			t.Fatalf("episode line %q has %d fields, want task + 7 returns", line, len(f))
		}
		sum := 0.0
		for _, x := range f[1:] {
			v, _ := strconv.ParseFloat(x, 64)
			sum += v
		}
		if d := sum - want[f[0]]; d > 1e-9 || d < -1e-9 {
			t.Errorf("task %s: episodes sum to %v, per-task reward %v", f[0], sum, want[f[0]])
		}
	}
}

func TestResumeReusesFinishedCells(t *testing.T) {
	s := small(2, 2, 20)
	dir := t.TempDir()
	if _, err := Execute(context.Background(), s, dir, 2, nil); err != nil {
		t.Fatal(err)
	}
	first := resultstest.DataFiles(t, dir)
	// Losing a cell and the outputs, as an interrupted run would, then running again recomputes
	// only that cell and gives the same bytes.
	os.Remove(filepath.Join(dir, "cells", "run-001--RMax.json"))
	os.Remove(filepath.Join(dir, "per_task.csv"))
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Run(context.Background(), p, results.At(dir), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	recomputed := 0
	for _, c := range cells {
		if !c.Resumed {
			recomputed++
		}
	}
	if recomputed != 1 {
		t.Errorf("%d cells recomputed, want 1", recomputed)
	}
	if _, err := Write(results.At(dir), s, cells); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultstest.DataFiles(t, dir)["per_task.csv"], first["per_task.csv"]) {
		t.Error("resumed results differ")
	}
}
