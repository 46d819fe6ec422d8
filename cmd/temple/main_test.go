package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// temple runs the command line with args and returns what it printed and its error.
func temple(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := root()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestRunWithConfig(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 3\n"), 0o644)
	out, err := temple(t, "run", config, "--out", filepath.Join(dir, "results"), "--jobs", "2", "--seed", "7")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"experiment tiny, seed 7, 2 runs x 3 agents", "O-TempLe", "paired advantage over RMax", "progress: 18/18 tasks",
		"Against the optimal policy of each task's true model", "share of optimal", "ε-mistakes"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"per_task.csv", "summary.json", "oracle.csv", "regret.csv", "figures/per_task_reward.png", "figures/per_task_reward.svg", "figures/eps_mistakes.png"} {
		if _, err := os.Stat(filepath.Join(dir, "results", f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
}

func TestConfigErrorsReachTheUser(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "bad.yaml")
	os.WriteFile(config, []byte("runs: 2\nepisods: 3\n"), 0o644)
	if _, err := temple(t, "run", config); err == nil || !strings.Contains(err.Error(), "line 2: field episods not found") {
		t.Errorf("error = %v, want the misspelt key and its line", err)
	}
	if _, err := temple(t, "run", "--runs", "0", "--out", dir); err == nil || !strings.Contains(err.Error(), "runs = 0") {
		t.Errorf("error = %v, want runs = 0 named", err)
	}
	if _, err := temple(t, "run", filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("error = %v, want the missing file named", err)
	}
	if _, err := temple(t, "reproduce", "online-mace"); err == nil || !strings.Contains(err.Error(), `no preset "online-mace"`) {
		t.Errorf("error = %v, want the unknown preset named", err)
	}
}

func TestReproduceList(t *testing.T) {
	out, err := temple(t, "reproduce", "--list")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"online-maze", "finite-model", "finite-model-baselines", "gamma-sweep", "varying-size", "gaussian", "varying-actions", "tau-sweep"} {
		if !strings.Contains(out, name) {
			t.Errorf("--list lacks %s", name)
		}
	}
}

func TestInspect(t *testing.T) {
	out, err := temple(t, "inspect", "--preset", "finite-model")
	if err != nil {
		t.Fatal(err)
	}
	// Slip 0.4 everywhere: the sorted vectors are (0.6,0.2,0.2) and (0.8,0.2), with rewards by goal.
	for _, want := range []string{"experiment finite-model, run 0: 50 tasks", "template gap τ", "whole sequence:", "p = [0.6 0.2 0.2]", "p = [0.8 0.2]"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out)
		}
	}
}
