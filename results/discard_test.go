package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes each file (path relative to dir: content), creating directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Issue 37, case 2: --force (Discard) removes the experiment's own files and the points its
// sweep.json lists, and leaves another experiment in a subdirectory (it removed it before),
// with a note naming it, and the user's files.
func TestDiscardLeavesAnotherExperiment(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"spec.yaml":              "name: mine\n",
		"summary.json":           "{}",
		"cells/run-000--A.json":  "{}",
		sweepFile:                `{"points": [{"dir": "tau-0.1", "values": ["0.1"]}]}`,
		"tau-0.1/spec.yaml":      "name: mine tau=0.1\n",
		"tau-0.1/cells/x.json":   "{}",
		"expA/spec.yaml":         "name: clean\n",
		"expA/cells/x.json":      "{}",
		"notes.txt":              "mine",
		"data/cells/sample.json": "{}",
	})
	var notes []string
	if err := Discard(dir, func(s string) { notes = append(notes, s) }); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"spec.yaml", "summary.json", "cells", sweepFile, "tau-0.1"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	for _, kept := range []string{"expA/spec.yaml", "expA/cells/x.json", "notes.txt", "data/cells/sample.json"} {
		if _, err := os.Stat(filepath.Join(dir, kept)); err != nil {
			t.Errorf("%s was removed", kept)
		}
	}
	if len(notes) != 2 || !strings.Contains(strings.Join(notes, "\n"), filepath.Join(dir, "expA")+` holds experiment "clean"`) {
		t.Errorf("notes %q, want one naming expA and its experiment (and one for data)", notes)
	}
}

// Issue 37, case 8: the start-up clean-up (Claim) removes the temporaries of this experiment's
// own files only: not those of an experiment running in a subdirectory, nor a user's own file
// that looks like one.
func TestClaimRemovesOnlyItsOwnTemporaries(t *testing.T) {
	dir := t.TempDir()
	mine := []string{".summary.json.tmp-1", "cells/.run-000--A.json.tmp-2", "figures/.rewards.svg.tmp-3"}
	others := []string{".notes.txt.tmp-4", "sub/.summary.json.tmp-5", "sub/cells/.run-000--A.json.tmp-6", "cells-backup/.x.tmp-7"}
	files := map[string]string{}
	for _, name := range append(append([]string{}, mine...), others...) {
		files[name] = "x"
	}
	writeFiles(t, dir, files)
	release, err := Claim(dir, "x", []byte("name: x\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	release()
	for _, name := range mine {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s is still there", name)
		}
	}
	for _, name := range others {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed", name)
		}
	}
}
