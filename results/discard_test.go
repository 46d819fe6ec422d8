package results

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
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

// Issue 51, case 2 (and issue 37's): --force (Discard) removes the files the experiment's record
// lists and the points its sweep.json lists, never a directory by its name: a user's files in
// figures/ and templates/, the user's files beside them and another experiment in cells/ stay,
// the notes naming what stays.
func TestDiscardRemovesOnlyWhatTheRecordLists(t *testing.T) {
	dir := t.TempDir()
	_, release, err := Claim(dir, "mine", []byte("name: mine\n"), ClaimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteCell(At(dir), fixtureCell(0, "A")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"summary.json": "{}", "figures/rewards.svg": "<svg/>"})
	if err := record(At(dir), "summary.json", "figures/rewards.svg"); err != nil {
		t.Fatal(err)
	}
	if err := WriteSweepSetup(At(dir), SweepSetup{Name: "mine", Runs: 1, Params: []string{"tau"}, Agents: []string{"A"},
		Points: []SweepPointSetup{{Dir: "tau-0.1", Values: []string{"0.1"}}}}); err != nil {
		t.Fatal(err)
	}
	point, releasePoint, err := At(dir).ClaimPoint("tau-0.1", "mine tau=0.1", []byte("name: mine tau=0.1\n"), ClaimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteCell(point, fixtureCell(0, "A")); err != nil {
		t.Fatal(err)
	}
	releasePoint()
	release()
	inner := filepath.Join(dir, "cells", "inner") // made by hand: Claim refuses it (TestNestedExperimentIsRefused)
	writeFiles(t, dir, map[string]string{"figures/mine.svg": "mine", "templates/notes.txt": "mine", "notes.txt": "mine",
		"data/cells/sample.json": "{}", "cells/inner/spec.yaml": "name: inner\n"})
	if err := record(At(inner), "spec.yaml"); err != nil {
		t.Fatal(err)
	}
	var notes []string
	if err := Discard(At(dir), func(s string) { notes = append(notes, s) }); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"spec.yaml", "summary.json", "cells/run-000--A.json", "figures/rewards.svg", sweepFile, "tau-0.1", ChecksumsFile} {
		if _, err := os.Lstat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	for _, kept := range []string{"figures/mine.svg", "templates/notes.txt", "notes.txt", "data/cells/sample.json", "cells/inner/spec.yaml", "cells/inner/checksums.json"} {
		if _, err := os.Stat(filepath.Join(dir, kept)); err != nil {
			t.Errorf("%s was removed", kept)
		}
	}
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, inner+` holds experiment "inner"`) || !strings.Contains(all, "notes.txt") {
		t.Errorf("notes %q, want them to name cells/inner and its experiment, and notes.txt", notes)
	}
}

// A record that names a file through a symbolic link (a directory of the experiment replaced by a
// link) does not make Discard remove a file outside the directory.
func TestDiscardDoesNotFollowLinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"figures/a.svg": "x"})
	if err := record(At(dir), "figures/a.svg"); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, outside, map[string]string{"a.svg": "x"})
	os.RemoveAll(filepath.Join(dir, "figures"))
	if err := os.Symlink(outside, filepath.Join(dir, "figures")); err != nil {
		t.Skip(err)
	}
	var notes []string
	if err := Discard(At(dir), func(s string) { notes = append(notes, s) }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, "a.svg")); err != nil {
		t.Errorf("the file outside was removed (notes %q)", notes)
	}
}

// Issue 51, case 3: a directory inside another experiment's (in its cells/ or figures/, or through
// a symbolic link into one) is refused, naming that experiment; a point of a sweep in its own
// directory is not.
func TestNestedExperimentIsRefused(t *testing.T) {
	root := t.TempDir()
	outer := filepath.Join(root, "outer")
	_, release, err := Claim(outer, "outer", []byte("name: outer\n"), ClaimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	release()
	if err := os.MkdirAll(filepath.Join(outer, "figures"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(filepath.Join(outer, "figures"), link); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(outer, "cells", "inner"), filepath.Join(outer, "figures", "x", "y"), filepath.Join(link, "inner")} {
		_, _, err := Claim(dir, "inner", []byte("name: inner\n"), ClaimOptions{})
		var nested *NestedError
		if !errors.As(err, &nested) || !strings.Contains(err.Error(), `inside the results directory `+outer+` of experiment "outer"`) {
			t.Errorf("%s: %v, want a NestedError naming %s", dir, err, outer)
		}
		if _, statErr := os.Stat(dir); statErr == nil {
			t.Errorf("%s was made", dir)
		}
	}
	_, release, err = At(outer).ClaimPoint("tau-0.1", "outer tau=0.1", []byte("name: outer tau=0.1\n"), ClaimOptions{})
	if err != nil {
		t.Fatalf("a point: %v", err)
	}
	release()
	if sums, err := readChecksums(At(outer)); err != nil || !slices.Contains(sums.Parts, "tau-0.1") {
		t.Errorf("the outer record's parts: %v (%v)", sums.Parts, err)
	}
}

// Issue 51, case 12: a directory with a user's own summary.json (no spec.yaml, no cells), or any
// file where temple has written none, is refused without --force, naming the files; with it, the
// run goes on. In an experiment's directory, a file of temple's names that its record does not
// list is refused the same way.
func TestForeignFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"summary.json": `{"mine": true}`})
	_, _, err := Claim(dir, "x", []byte("name: x\n"), ClaimOptions{})
	var foreign *ForeignError
	if !errors.As(err, &foreign) || !strings.Contains(err.Error(), dir+" holds summary.json, which temple did not write") {
		t.Errorf("a user's summary.json: %v, want a ForeignError naming it", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "summary.json")); string(b) != `{"mine": true}` {
		t.Errorf("summary.json holds %q", b)
	}
	_, release, err := Claim(dir, "x", []byte("name: x\n"), ClaimOptions{Force: true})
	if err != nil {
		t.Fatalf("with --force: %v", err)
	}
	release()

	exp := t.TempDir()
	_, release, err = Claim(exp, "x", []byte("name: x\n"), ClaimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	release()
	writeFiles(t, exp, map[string]string{"per_task.csv": "mine", "notes.txt": "mine"})
	if _, _, err := Claim(exp, "x", []byte("name: x\n"), ClaimOptions{}); !errors.As(err, &foreign) || !slices.Equal(foreign.Files, []string{"per_task.csv"}) {
		t.Errorf("a per_task.csv the record does not list: %v, want a ForeignError naming it alone", err)
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
	_, release, err := Claim(dir, "x", []byte("name: x\n"), ClaimOptions{Force: true}) // a directory of others' files
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

// A first claim killed while it wrote spec.yaml leaves its temporary and no record: the next
// claim takes the directory (the temporary is its own to remove), not refuses it as foreign.
func TestClaimAfterAKilledFirstClaim(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".spec.yaml.tmp-123": "name: x\n", ".checksums.json.tmp-9": "{"})
	_, release, err := Claim(dir, "x", []byte("name: x\n"), ClaimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := os.Stat(filepath.Join(dir, ".spec.yaml.tmp-123")); err == nil {
		t.Error("the temporary is still there")
	}
}
