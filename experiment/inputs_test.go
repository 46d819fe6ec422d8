package experiment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env"
)

// recordedInput is the digest spec.yaml of dir records for the file path.
func recordedInput(t *testing.T, dir, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Inputs map[string]string `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s.Inputs[path]
}

// runRewards is the largest |reward| of the tasks of each run of dir's tasks.json.
func runRewards(t *testing.T, dir string) []float64 {
	t.Helper()
	set, err := env.ReadSequences(filepath.Join(dir, "tasks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, seq := range set.Runs {
		most := 0.0
		for _, def := range seq {
			m, err := def.Model()
			if err != nil {
				t.Fatal(err)
			}
			most = max(most, m.MaxAbsReward())
		}
		out = append(out, most)
	}
	return out
}

func sha(b string) string {
	sum := sha256.Sum256([]byte(b))
	return hex.EncodeToString(sum[:])
}

// Issue 51, case 1: the task file is read once, and the bytes whose digest spec.yaml records are
// the bytes every run's tasks are built from. The file is replaced (rewards × 10) right after that
// read, before the digest is recorded and before any run draws its tasks: every run has the first
// content's tasks and spec.yaml that content's digest, and the file was read once for the whole
// experiment (Check, the plan, spec.yaml, setup.json and every run).
func TestTaskFileIsReadOnce(t *testing.T) {
	dir := t.TempDir()
	mdpFile := filepath.Join(dir, "m.yaml")
	a, b := customMDP("1"), customMDP("10")
	if err := os.WriteFile(mdpFile, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	s := customSpec(mdpFile)
	s.Runs = 3
	s = s.ReadInputsOnce()
	reads := 0
	s.inputs.AfterRead = func(path string) {
		reads++
		if err := os.WriteFile(path, []byte(b), 0o644); err != nil {
			t.Error(err)
		}
	}
	if err := Check(s); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, err := Execute(context.Background(), s, out, 2, nil); err != nil {
		t.Fatal(err)
	}
	if reads != 1 {
		t.Errorf("the task file was read %d times, want once", reads)
	}
	if got := recordedInput(t, out, mdpFile); got != sha(a) {
		t.Errorf("spec.yaml records %.12s…, want the digest of the content read (%.12s…), not the file's now (%.12s…)", got, sha(a), sha(b))
	}
	for run, r := range runRewards(t, out) {
		if r != 1 {
			t.Errorf("run %d was built from rewards up to %g, want the content read (1)", run, r)
		}
	}
}

// Issue 51, case 1, as the issue ran it: the task file replaced by a copy of A or of B (rewards
// × 10) every 0.5 ms while experiments start, 60 of them (10 with -short): every experiment's
// recorded digest is that of the tasks all its runs used (21 of 60 were not, before).
func TestTaskFileSwappedDuringStartUp(t *testing.T) {
	dir := t.TempDir()
	mdpFile := filepath.Join(dir, "m.yaml")
	contents := []string{customMDP("1"), customMDP("10")}
	copies := []string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")}
	if err := os.WriteFile(mdpFile, []byte(contents[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // rename a fresh copy of A or B over the file every 0.5 ms
		defer wg.Done()
		for k := 0; !stop.Load(); k++ {
			tmp := copies[k%2] + ".tmp"
			if os.WriteFile(tmp, []byte(contents[k%2]), 0o644) == nil {
				os.Rename(tmp, mdpFile)
			}
			time.Sleep(500 * time.Microsecond)
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	n := 60
	if testing.Short() {
		n = 10
	}
	seen := map[float64]int{}
	for i := range n {
		s := customSpec(mdpFile)
		s.Episodes = 20
		out := filepath.Join(dir, "out", string(rune('a'+i/26))+string(rune('a'+i%26)))
		if _, err := Execute(context.Background(), s, out, 2, nil); err != nil {
			t.Fatal(err)
		}
		digest := recordedInput(t, out, mdpFile)
		want := map[string]float64{sha(contents[0]): 1, sha(contents[1]): 10}[digest]
		for run, r := range runRewards(t, out) {
			if r != want {
				t.Errorf("experiment %d, run %d: tasks with rewards up to %g, but spec.yaml records the digest of the file with rewards %g (%.12s…)",
					i, run, r, want, digest)
			}
		}
		seen[want]++
	}
	t.Logf("%d experiments: %d read A, %d read B, every recorded digest that of the tasks used", n, seen[1], seen[10])
	if seen[0] > 0 {
		t.Errorf("%d experiments recorded a digest of neither content", seen[0])
	}
}

// A sweep reads the task file once for all its points: each point's spec.yaml records the digest
// of the same bytes.
func TestSweepReadsTheTaskFileOnce(t *testing.T) {
	dir := t.TempDir()
	mdpFile := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(mdpFile, []byte(customMDP("1")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := customSpec(mdpFile)
	s.Agents = s.Agents[:1]
	s.Sweep = []SweepParam{{Param: "epsilon", Values: Values(0.1, 0.2)}}
	s = s.ReadInputsOnce()
	reads := 0
	s.inputs.AfterRead = func(string) { reads++ }
	out := filepath.Join(dir, "out")
	if err := runPoints(s, out); err != nil {
		t.Fatal(err)
	}
	if reads != 1 {
		t.Errorf("the task file was read %d times for the sweep, want once", reads)
	}
	points, _ := filepath.Glob(filepath.Join(out, "epsilon-*", "spec.yaml"))
	if len(points) != 2 {
		t.Fatalf("points %q", points)
	}
	for _, p := range points {
		if got := recordedInput(t, filepath.Dir(p), mdpFile); got != sha(customMDP("1")) {
			t.Errorf("%s records %.12s…", p, got)
		}
	}
	if !strings.Contains(string(must(os.ReadFile(filepath.Join(out, "spec.yaml")))), sha(customMDP("1"))) {
		t.Error("the sweep's spec.yaml does not record the digest of the bytes its points read")
	}
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}
