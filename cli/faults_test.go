//go:build unix

package cli

// Faults a results directory survives: a process killed (SIGKILL) while it runs cells, while it
// merges shards and while it writes the summary, figures and report, then run again: the same
// bytes as a run never interrupted; and two merges into one directory at once: one is refused.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// faultConfig is a small τ̂ sweep: two points, each with its own cells, summary and figures.
const faultConfig = "name: faults\nruns: 4\nepisodes: 60\ntasks:\n  family: online-maze\n  count: 4\n" +
	"sweep:\n  - parameter: tau\n    values: [0.1, 0.3]\n"

// buildTemple builds the command into a temporary directory and returns its path.
func buildTemple(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "temple")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/temple").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// killWhen starts cmd, waits until ready reports true, and kills the process with SIGKILL; it
// fails the test when the process ended before it was killed.
func killWhen(t *testing.T, cmd *exec.Cmd, what string, ready func() bool) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for deadline := time.Now().Add(time.Minute); !ready(); time.Sleep(time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("the process ended (%v) before %s", err, what)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no %s within a minute", what)
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	err := <-done
	var exit *exec.ExitError
	if !errors.As(err, &exit) || !exit.Sys().(syscall.WaitStatus).Signaled() {
		t.Fatalf("the process ended (%v) before it was killed %s", err, what)
	}
}

// exists reports whether the pattern matches a file.
func exists(pattern string) func() bool {
	return func() bool {
		m, _ := filepath.Glob(pattern)
		return len(m) > 0
	}
}

// sameResults fails the test unless the directories hold the same files with the same bytes,
// but timings.json and the cell time report.html states (seconds measured, cells reused), and got
// holds no lock and no temporary file.
func sameResults(t *testing.T, got, want string) {
	t.Helper()
	files := func(dir string) map[string][]byte {
		m := map[string][]byte{}
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			if d.Name() == "timings.json" {
				m[rel] = nil
				return nil
			}
			b, err := os.ReadFile(path)
			if d.Name() == "report.html" {
				var kept [][]byte
				for _, line := range bytes.Split(b, []byte("\n")) {
					if !bytes.Contains(line, []byte(" s of cell time, each cell's as measured by the invocation that ran it")) {
						kept = append(kept, line)
					}
				}
				b = bytes.Join(kept, []byte("\n"))
			}
			m[rel] = b
			return err
		})
		return m
	}
	g, w := files(got), files(want)
	for name, b := range w {
		if gb, ok := g[name]; !ok {
			t.Errorf("%s: missing in %s", name, got)
		} else if !bytes.Equal(gb, b) {
			t.Errorf("%s: differs from the run never interrupted", name)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("%s: in %s but not in the run never interrupted", name, got)
		}
	}
}

func TestKilledAndRunAgainGivesTheSameBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs a small sweep eight times")
	}
	bin := buildTemple(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "faults.yaml")
	if err := os.WriteFile(config, []byte(faultConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	temple := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		return cmd
	}
	mustRun := func(args ...string) string {
		t.Helper()
		out, err := temple(args...).CombinedOutput()
		if err != nil {
			t.Fatalf("temple %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	mustRun("run", config, "--out", "whole", "--jobs", "1")
	whole := filepath.Join(dir, "whole")

	t.Run("during a run", func(t *testing.T) {
		killWhen(t, temple("run", config, "--out", "a", "--jobs", "1"), "during the cells",
			exists(filepath.Join(dir, "a", "tau-0.1", "cells", "*.json")))
		if exists(filepath.Join(dir, "a", "tau-0.3", "per_task.csv"))() {
			t.Fatal("killed after the cells: make the experiment larger")
		}
		out := mustRun("run", config, "--out", "a", "--jobs", "1")
		if !strings.Contains(out, "taking over the lock") {
			t.Errorf("the rerun did not say it took over the dead process's lock:\n%s", out)
		}
		sameResults(t, filepath.Join(dir, "a"), whole)
	})
	t.Run("during the summary, figures and report", func(t *testing.T) {
		killWhen(t, temple("run", config, "--out", "b", "--jobs", "1"), "while writing the results",
			exists(filepath.Join(dir, "b", "tau-0.1", "per_task.csv")))
		mustRun("run", config, "--out", "b", "--jobs", "1")
		sameResults(t, filepath.Join(dir, "b"), whole)
	})

	mustRun("run", config, "--out", "s0", "--shard", "0/2", "--jobs", "1")
	mustRun("run", config, "--out", "s1", "--shard", "1/2", "--jobs", "1")
	t.Run("during a merge", func(t *testing.T) {
		killWhen(t, temple("merge", "m", "s0", "s1"), "during the merge",
			exists(filepath.Join(dir, "m", "tau-0.1", "cells", "*.json")))
		mustRun("merge", "m", "s0", "s1")
		sameResults(t, filepath.Join(dir, "m"), whole)
	})
	t.Run("two merges into one directory", func(t *testing.T) {
		// The first merge is stopped (SIGSTOP) once it holds the directory's lock, so that the
		// second surely runs while it does. It holds the lock once the lock file names it: the
		// file is created before its flock is taken and named after. A merge can end between the
		// test's seeing its lock and stopping it: then the lock file is gone (a merge removes it
		// as it ends), and the test starts again in a fresh directory.
		var first *exec.Cmd
		locked := func() bool {
			b, err := os.ReadFile(filepath.Join(dir, "two", ".temple.lock"))
			var held struct{ PID int }
			return err == nil && json.Unmarshal(b, &held) == nil && held.PID == first.Process.Pid
		}
		for attempt := 0; ; attempt++ {
			if attempt == 20 {
				t.Fatal("in 20 attempts, every first merge ended before it could be stopped holding its lock")
			}
			if err := os.RemoveAll(filepath.Join(dir, "two")); err != nil {
				t.Fatal(err)
			}
			first = temple("merge", "two", "s0", "s1")
			if err := first.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(time.Minute); !locked(); time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					first.Process.Kill()
					t.Fatal("the first merge took no lock within a minute")
				}
			}
			first.Process.Signal(syscall.SIGSTOP)
			if locked() {
				break // stopped while it holds the lock
			}
			t.Logf("attempt %d: the first merge ended before it was stopped; again", attempt+1)
			first.Process.Signal(syscall.SIGCONT)
			if err := first.Wait(); err != nil {
				t.Fatalf("the first merge: %v", err)
			}
		}
		out, err := temple("merge", "two", "s0", "s1").CombinedOutput()
		first.Process.Signal(syscall.SIGCONT)
		if err == nil || !strings.Contains(string(out), "is in use: process") {
			t.Errorf("the second merge was not refused: %v\n%s", err, out)
		}
		if err := first.Wait(); err != nil {
			t.Fatalf("the first merge: %v", err)
		}
		sameResults(t, filepath.Join(dir, "two"), whole)
	})
}
