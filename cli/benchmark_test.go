package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/temple-rl/temple/benchmark"
)

func TestBenchmarkFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"benchmark", "--tier", "huge"}, `--tier "huge": want small or full`},
		{[]string{"benchmark", "--jobs", "0"}, "--jobs = 0, want at least 1"},
		{[]string{"benchmark", "--spec", "nope.yaml"}, "benchmark: open nope.yaml"},
		{[]string{"benchmark", "--spec", "../examples/benchmark/tiny.yaml", "--family", "nope", "--out", filepath.Join(t.TempDir(), "b")}, `--family "nope": no such family`},
	} {
		_, err := temple(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// --estimate scales a finished benchmark's measured seconds per agent-step, and runs nothing.
func TestBenchmarkEstimate(t *testing.T) {
	dir := t.TempDir()
	calib := filepath.Join(dir, "small")
	os.MkdirAll(calib, 0o755)
	os.WriteFile(filepath.Join(calib, "timing.json"), []byte(`{"seconds": 60, "agent_steps": 1000000, "jobs": 1}`), 0o644)
	out, err := temple(t, "benchmark", "--spec", "../examples/benchmark/tiny.yaml", "--estimate", "--calibrate", calib, "--out", filepath.Join(dir, "b"))
	if err != nil {
		t.Fatal(err)
	}
	// tiny.yaml: 6 agents × (2 trial runs + 2 judged) × 3 tasks × 10 episodes × 20 steps in the
	// maze family, 6 × 4 × 4 × 10 × 20 in the sizes family: 33 600 agent-steps, at 60 µs each (the
	// untuned identification oracle counted as if tuned: an upper bound).
	if !strings.Contains(out, "3.36e+04 agent-steps") || !strings.Contains(out, "Time estimate: 2s at most") {
		t.Errorf("printed:\n%s\nwant 3.36e+04 agent-steps and an estimate of 2s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); err == nil {
		t.Error("--estimate made the output directory")
	}
}

// With no timing measured on this machine, --tier full prints its reference run's time
// (benchmarks/full.timing.json, the run of docs/benchmark.md) scaled to its agent-steps.
func TestBenchmarkEstimateFallsBackToTheTiersReference(t *testing.T) {
	t.Chdir("..") // --tier reads benchmarks/TIER.yaml from the repository's root
	ref, err := benchmark.ReadTimingFile(filepath.Join("benchmarks", "full.timing.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := temple(t, "benchmark", "--tier", "full", "--estimate", "--calibrate", filepath.Join(t.TempDir(), "none"))
	if err != nil {
		t.Fatal(err)
	}
	took := time.Duration(ref.Seconds * float64(time.Second)).Round(time.Second).String()
	if !strings.Contains(out, "none measured on this machine") || !strings.Contains(out, "took "+took) || !strings.Contains(out, "about "+took+" for these") {
		t.Errorf("printed:\n%s\nwant the reference run's %s", out, took)
	}
}
