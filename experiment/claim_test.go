package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/results/resultstest"
)

// TestAnotherExperimentIsRefused: a directory holding results of one experiment refuses another
// (named, or the same name with another spec) and keeps its results; the same spec resumes.
func TestAnotherExperimentIsRefused(t *testing.T) {
	dir := t.TempDir()
	a := small(1, 2, 20)
	a.Name = "first"
	if _, err := Execute(context.Background(), a, dir, 2, nil); err != nil {
		t.Fatal(err)
	}
	before := resultstest.DataFiles(t, dir)

	b := small(1, 2, 20)
	b.Name = "second"
	_, err := Execute(context.Background(), b, dir, 2, nil)
	var occupied *OccupiedError
	if !errors.As(err, &occupied) || !strings.Contains(err.Error(), `"first"`) || !strings.Contains(err.Error(), `"second"`) {
		t.Fatalf("another experiment into the directory: %v, want a refusal naming both", err)
	}
	c := a
	c.Runs, c.Seed = 2, 9
	if _, err := Execute(context.Background(), c, dir, 2, nil); !errors.As(err, &occupied) || !slices.Equal(occupied.Differs, []string{"runs", "seed"}) {
		t.Fatalf("another spec of the same experiment: %v, want a refusal naming runs and seed", err)
	}
	after := resultstest.DataFiles(t, dir)
	for name, bytes := range before {
		if string(after[name]) != string(bytes) {
			t.Errorf("%s changed after the refusals", name)
		}
	}

	// The same spec resumes from every cell.
	p, err := Build(a)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), p, results.At(dir), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !r.Resumed {
			t.Errorf("cell %d %s was run again", r.Run, r.Agent)
		}
	}
	if _, err := Execute(context.Background(), a, dir, 2, nil); err != nil {
		t.Errorf("the same experiment again: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, results.LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock outlived the run: %v", err)
	}
}

// TestDiscardLeavesNoForeignCell: after Discard the other experiment runs (with --force: the
// user's file is there), and cells/ holds its cells only; files that are not results stay.
func TestDiscardLeavesNoForeignCell(t *testing.T) {
	dir := t.TempDir()
	a := small(2, 1, 10)
	a.Name = "first"
	if err := runPoints(withSweep(a), dir); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := small(1, 1, 10)
	b.Name = "second"
	if err := results.Discard(results.At(dir), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Execute(context.Background(), b, dir, 2, nil); err == nil || !strings.Contains(err.Error(), "holds notes.txt") {
		t.Errorf("a directory with the user's notes.txt, without --force: %v, want a refusal naming it", err)
	}
	if _, err := Execute(context.Background(), b.WithDir(DirOptions{Force: true}), dir, 2, nil); err != nil { // as --force does
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "tau-") {
			t.Errorf("sweep point %s left behind", e.Name())
		}
	}
	cells, _ := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
	fp := fingerprintOf(t, b)
	if len(cells) != len(b.Agents) {
		t.Errorf("%d cells, want %d", len(cells), len(b.Agents))
	}
	for _, path := range cells {
		if got := cellFingerprint(t, path); got != fp {
			t.Errorf("%s has fingerprint %s, want %s", path, got, fp)
		}
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "mine" {
		t.Errorf("notes.txt: %q, %v", b, err)
	}
}

func withSweep(s Spec) Spec {
	s.Agents, s.Output.Baseline = s.Agents[:1], ""
	s.Sweep = []SweepParam{{Param: "tau", Values: Values(0.1, 0.2)}}
	return s
}

func fingerprintOf(t *testing.T, s Spec) string {
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return p.Fingerprint
}

func cellFingerprint(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c results.CellResult
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c.Fingerprint
}

// TestASpecWithoutResultsIsReplaced: a directory whose experiment was refused before any cell
// finished (here: by its memory estimate) takes the next spec.
func TestASpecWithoutResultsIsReplaced(t *testing.T) {
	dir := t.TempDir()
	big := small(1, 1, 10)
	big.MaxMemory = 1
	big.Tasks.Params.(*families.OnlineMazeParams).Width = 1000
	big.Tasks.Params.(*families.OnlineMazeParams).Height = 1000
	if _, err := Execute(context.Background(), big, dir, 2, nil); err == nil || !strings.Contains(err.Error(), "max_memory = 1") {
		t.Fatalf("a 1000x1000 maze under 1 MB: %v", err)
	}
	if _, err := Execute(context.Background(), small(1, 1, 10), dir, 2, nil); err != nil {
		t.Errorf("the next spec into the directory without results: %v", err)
	}
}

// TestCellsWithoutSpecAreRefused: a directory of an interrupted run of another spec (cells, no
// spec.yaml yet) is refused too.
func TestCellsWithoutSpecAreRefused(t *testing.T) {
	dir := t.TempDir()
	a := small(1, 1, 10)
	p, err := Build(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), p, results.At(dir), 2, nil); err != nil {
		t.Fatal(err)
	}
	b := a
	b.Seed = 5
	var occupied *OccupiedError
	if _, err := Execute(context.Background(), b, dir, 2, nil); !errors.As(err, &occupied) {
		t.Fatalf("cells of another spec: %v, want a refusal", err)
	}
	if _, err := Execute(context.Background(), a, dir, 2, nil); err != nil {
		t.Fatalf("cells of the same spec: %v", err)
	}
}

type notes struct {
	silent
	text []string
}

func (n *notes) Note(text string) { n.text = append(n.text, text) }

// TestLockedDirectoryFailsAtOnce: a lock of a live process (this one) refuses a run naming the
// process; a lock of a process that is gone is taken over with a note, and released at the end.
func TestLockedDirectoryFailsAtOnce(t *testing.T) {
	dir := t.TempDir()
	s := small(1, 1, 10)
	host, _ := os.Hostname()
	writeLock := func(pid int) {
		b, _ := json.Marshal(map[string]any{"pid": pid, "host": host, "experiment": "other"})
		if err := os.WriteFile(filepath.Join(dir, results.LockFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeLock(os.Getpid())
	_, err := Execute(context.Background(), s, dir, 2, nil)
	var locked *LockedError
	if !errors.As(err, &locked) || !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), `"other"`) {
		t.Fatalf("locked directory: %v, want a refusal naming this process", err)
	}
	if cells, _ := filepath.Glob(filepath.Join(dir, "cells", "*")); len(cells) > 0 {
		t.Errorf("the refused run wrote %v", cells)
	}
	if err := results.Discard(results.At(dir), nil); !errors.As(err, &locked) {
		t.Errorf("Discard of a locked directory: %v", err)
	}

	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no process to outlive:", err)
	}
	writeLock(gone.Process.Pid)
	var n notes
	if _, err := Execute(context.Background(), s, dir, 2, &n); err != nil {
		t.Fatalf("stale lock: %v", err)
	}
	if len(n.text) != 1 || !strings.Contains(n.text[0], "process "+strconv.Itoa(gone.Process.Pid)) {
		t.Errorf("notes %q, want one about the stale lock", n.text)
	}
	if _, err := os.Stat(filepath.Join(dir, results.LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock outlived the run: %v", err)
	}
}

// TestConcurrentRunsIntoOneDirectory: of two experiments started into one directory at once,
// one runs and the other fails, naming the holder or the experiment it found.
func TestConcurrentRunsIntoOneDirectory(t *testing.T) {
	dir := t.TempDir()
	a, b := small(1, 2, 200), small(1, 2, 200)
	a.Name, b.Name = "first", "second"
	errs := make(chan error, 2)
	for _, s := range []Spec{a, b} {
		go func() {
			_, err := Execute(context.Background(), s, dir, 1, nil)
			errs <- err
		}()
	}
	var failed int
	for range 2 {
		err := <-errs
		var locked *LockedError
		var occupied *OccupiedError
		switch {
		case err == nil:
		case errors.As(err, &locked) || errors.As(err, &occupied):
			failed++
		default:
			t.Errorf("unexpected error %v", err)
		}
	}
	if failed != 1 {
		t.Errorf("%d of the two runs failed, want 1", failed)
	}
}
