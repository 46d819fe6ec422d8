package experiment

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/results/resultstest"
)

// customMDP is a temple-mdp/v1 file of one two-state task whose rewards are r.
func customMDP(r string) string {
	return `format: temple-mdp/v1
tasks:
  - name: t
    states: [a, b]
    actions: [x, y]
    start: {a: 1}
    transitions:
      - {state: a, action: x, outcomes: [{next: b, p: 1, r: ` + r + `}]}
      - {state: a, action: y, outcomes: [{next: a, p: 1, r: 0}]}
      - {state: b, action: x, outcomes: [{next: a, p: 1, r: 0}]}
      - {state: b, action: y, outcomes: [{next: b, p: 1, r: ` + r + `}]}
`
}

// customSpec is a small experiment on the custom MDP file at path.
func customSpec(path string) Spec {
	s := small(2, 1, 10)
	s.Name = "custom"
	s.Tasks = families.Spec{Family: families.Custom, Params: &families.CustomParams{File: path, Repeat: 2}}
	s.Agents, s.Output.Baseline = []AgentSpec{defaultAgent(TypeQLearning), defaultAgent(TypeRMax)}, ""
	s.Oracle.Enabled = false
	return s
}

// Issue 37, case 1: a shard run on a custom MDP file, the file changed, and the experiment run
// again into the same directory: refused, naming the file (it mixed old and new results before).
// Shards run against the two versions do not merge, naming the file; so do shards whose
// setup.json was edited, naming the field.
func TestChangedTaskFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	mdpFile := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(mdpFile, []byte(customMDP("1")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := customSpec(mdpFile)
	out := filepath.Join(dir, "D")
	if err := runShard(s, out, cluster.Shard{Index: 0, Count: 2}); err != nil {
		t.Fatal(err)
	}
	spec, _ := os.ReadFile(filepath.Join(out, "spec.yaml"))
	if !strings.Contains(string(spec), "inputs:") || !strings.Contains(string(spec), mdpFile) {
		t.Errorf("spec.yaml records no digest of the task file:\n%s", spec)
	}
	before := resultstest.DataFiles(t, out)
	if err := os.WriteFile(mdpFile, []byte(customMDP("100")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Execute(context.Background(), s, out, 1, nil)
	var occupied *OccupiedError
	if !errors.As(err, &occupied) || len(occupied.Inputs) != 1 || !strings.Contains(err.Error(), mdpFile+" (SHA-256") {
		t.Fatalf("resuming after the task file changed: %v, want a refusal naming %s", err, mdpFile)
	}
	if after := resultstest.DataFiles(t, out); len(after) != len(before) {
		t.Errorf("the refused run changed the directory: %d files, were %d", len(after), len(before))
	}

	other := filepath.Join(dir, "D2")
	if err := runShard(s, other, cluster.Shard{Index: 1, Count: 2}); err != nil {
		t.Fatal(err)
	}
	err = results.Merge(filepath.Join(dir, "M"), []string{out, other})
	if err == nil || !strings.Contains(err.Error(), "inputs") || !strings.Contains(err.Error(), mdpFile) {
		t.Errorf("merging shards of two versions of the task file: %v, want a refusal naming it", err)
	}

	// Both shards of one version, one's setup.json edited: refused by its checksum; with its
	// checksum recorded too (another writer's), refused naming the shard and field.
	if err := os.WriteFile(mdpFile, []byte(customMDP("1")), 0o644); err != nil {
		t.Fatal(err)
	}
	other = filepath.Join(dir, "D3")
	if err := runShard(s, other, cluster.Shard{Index: 1, Count: 2}); err != nil {
		t.Fatal(err)
	}
	setup := filepath.Join(other, "setup.json")
	b, _ := os.ReadFile(setup)
	os.WriteFile(setup, []byte(strings.Replace(string(b), `"epsilon": 0.1`, `"epsilon": 0.2`, 1)), 0o644)
	err = results.Merge(filepath.Join(dir, "M"), []string{out, other})
	if err == nil || !strings.Contains(err.Error(), setup+": its content is not what temple wrote") {
		t.Errorf("merging shards with an edited setup.json: %v, want a refusal naming it", err)
	}
	if err := results.Record(results.At(other), "setup.json"); err != nil {
		t.Fatal(err)
	}
	err = results.Merge(filepath.Join(dir, "M"), []string{out, other})
	if err == nil || !strings.Contains(err.Error(), "shard "+other+"'s setup.json") || !strings.Contains(err.Error(), "epsilon") {
		t.Errorf("merging shards with another setup.json: %v, want a refusal naming the shard and epsilon", err)
	}
	os.WriteFile(setup, b, 0o644)
	if err := results.Record(results.At(other), "setup.json"); err != nil {
		t.Fatal(err)
	}
	tasks := filepath.Join(other, "tasks.json")
	b, _ = os.ReadFile(tasks)
	os.WriteFile(tasks, []byte(strings.Replace(string(b), `"r":1`, `"r":2`, 1)), 0o644)
	if err := results.Record(results.At(other), "tasks.json"); err != nil {
		t.Fatal(err)
	}
	err = results.Merge(filepath.Join(dir, "M"), []string{out, other})
	if err == nil || !strings.Contains(err.Error(), "tasks.json differs") || !strings.Contains(err.Error(), "run 0, task 0") {
		t.Errorf("merging shards with another tasks.json: %v, want a refusal naming it", err)
	}
	os.WriteFile(tasks, b, 0o644)
	if err := results.Record(results.At(other), "tasks.json"); err != nil {
		t.Fatal(err)
	}
	if err := results.Merge(filepath.Join(dir, "M"), []string{out, other}); err != nil {
		t.Errorf("merging the shards of one version: %v", err)
	}
}

// A spec.yaml edited in comments only resumes (the message was "spec.yaml differs in ").
func TestSpecCommentResumes(t *testing.T) {
	dir := t.TempDir()
	s := small(1, 2, 10)
	if _, err := Execute(context.Background(), s, dir, 1, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "spec.yaml")
	b, _ := os.ReadFile(path)
	os.WriteFile(path, append([]byte("# my note\n"), b...), 0o644)
	var n notes
	sum, err := Execute(context.Background(), s, dir, 1, &n)
	if err != nil {
		t.Fatalf("resuming after a comment in spec.yaml: %v", err)
	}
	if len(n.text) != 0 || len(sum.Agents) == 0 {
		t.Errorf("notes %q: a cell ran again", n.text)
	}
	if after, _ := os.ReadFile(path); string(after) != string(b) {
		t.Errorf("spec.yaml was not rewritten")
	}
}

// Issue 37, case 4 and 8: experiment and agent names that are paths, too long, or that collide
// once sanitised are refused by Validate, before any work, with the rule.
func TestNamesAreChecked(t *testing.T) {
	long := strings.Repeat("a", 235)
	for _, c := range []struct {
		name   string
		agents []string
		want   string
	}{
		{"..", nil, "starts with a dot"},
		{"../../x", nil, "a path"},
		{"a/b", nil, "a path"},
		{`a\b`, nil, "a path"},
		{"", nil, "empty"},
		{long, nil, "235 bytes"},
		{"x\x00y", nil, "control character"},
		{"ok", []string{"A/B", "A_B"}, "a path"},
		{"ok", []string{"A B", "A_B"}, `both make the cell file name "A_B"`},
		{"ok", []string{long}, "235 bytes"},
	} {
		s := small(1, 2, 10)
		s.Name = c.name
		for k, a := range c.agents {
			if k >= len(s.Agents) {
				break
			}
			s.Agents[k].Name = a
		}
		s.Output.Baseline = ""
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "without / or") && !strings.Contains(err.Error(), "cell file name") {
			t.Errorf("name %q, agents %q: %v, want an error saying %q and the rule", c.name, c.agents, err, c.want)
		}
	}
	s := small(1, 2, 10)
	s.Name = "τ-sweep (retry, 2×)"
	if err := s.Validate(); err != nil {
		t.Errorf("a name with spaces and symbols: %v", err)
	}
}

// Issue 37, case 6: sizes no run can hold are refused before any work, with the fields named:
// episodes of 10^18 (a makeslice panic before), a run of 10^9 tasks (out of memory in the maze
// generator before), cells' records beyond the memory (with the estimate), rewards of 1e308 (a
// -Inf in summary.json after the computation before).
func TestSizesAreRefusedBeforeWork(t *testing.T) {
	s := small(1, 2, 10)
	s.Episodes = 1_000_000_000_000_000_000
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "episodes × steps = 1000000000000000000 × 30") {
		t.Errorf("episodes 10^18: %v", err)
	}
	s = small(1, 1_000_000_000, 10)
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "a run would hold 1000000000 tasks") {
		t.Errorf("count 10^9: %v", err)
	}
	s = small(2, 2, 10)
	s.Episodes, s.Steps, s.MaxMemory = 1_000_000_000_000, 1, 1000
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), "the finished cells' records") || !strings.Contains(err.Error(), "max_memory = 1000") {
		t.Errorf("episodes 10^12: %v, want the memory estimate naming the cells' records", err)
	}

	dir := t.TempDir()
	mdpFile := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(mdpFile, []byte(customMDP("1e308")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Execute(context.Background(), customSpec(mdpFile), filepath.Join(dir, "out"), 1, nil)
	if err == nil || !strings.Contains(err.Error(), "rewards up to 1e+308") {
		t.Errorf("rewards of 1e308: %v, want a refusal before the run", err)
	}
	if cells, _ := filepath.Glob(filepath.Join(dir, "out", "cells", "*")); len(cells) > 0 {
		t.Errorf("the refused experiment ran cells: %v", cells)
	}
}

// EstimateWork counts cells × tasks × episodes × steps over every point of a sweep.
func TestEstimateWork(t *testing.T) {
	s := small(2, 3, 100) // 3 agents, 30 steps
	w, err := EstimateWork(s, 2)
	if err != nil || w.Cells != 6 || w.Steps != 6*3*100*30 || w.Workers != 2 {
		t.Fatalf("EstimateWork = %+v, %v; want 6 cells, %d steps, 2 workers", w, err, 6*3*100*30)
	}
	if want := time.Duration(w.Steps / (2 * StepsPerCoreSecond) * 1e9); w.Time != want {
		t.Errorf("time %v, want %v", w.Time, want)
	}
	sw := withSweep(small(2, 3, 100)) // one agent, two points
	if w, _ := EstimateWork(sw, 2); w.Cells != 4 || w.Steps != 4*3*100*30 {
		t.Errorf("a sweep's estimate %+v, want 4 cells", w)
	}
}

// Issue 37, case 8: a directory where a cell's file goes is refused before any cell runs, naming
// it (every run failed after computing before); a file far larger than a cell can be is not read
// into memory: it is damaged, and the cell runs again.
func TestCellPathsAreChecked(t *testing.T) {
	dir := t.TempDir()
	s := small(1, 2, 10)
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	path := results.At(dir).Cell(0, p.Agents[1].Name)
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), p, results.At(dir), 1, nil); err == nil || !strings.Contains(err.Error(), path+" is not a file") {
		t.Fatalf("a directory as a cell: %v, want a refusal naming it", err)
	}
	if cells, _ := filepath.Glob(filepath.Join(dir, "cells", "*.json")); len(cells) != 1 {
		t.Errorf("cells written by the refused run: %v", cells)
	}
	os.Remove(path)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 30) // sparse: a gigabyte that takes no disk
	f.Close()
	var n notes
	if _, err := Run(context.Background(), p, results.At(dir), 1, &n); err != nil {
		t.Fatal(err)
	}
	if len(n.text) != 1 || !strings.Contains(n.text[0], "1073741824 bytes, more than a cell") {
		t.Errorf("notes %q, want one about the oversized cell", n.text)
	}
}
