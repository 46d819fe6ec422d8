package results

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/temple-rl/temple/template"
)

// The files of a cell read back as written: the cell (and nothing beside it), its episode
// returns line by line, its template snapshots; checksums.json lists the three.
func TestCellFilesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if err := MakeCellDirs(At(dir), true, true); err != nil {
		t.Fatal(err)
	}
	cell := CellResult{Fingerprint: "f", Run: 2, Agent: "O-TempLe+x", Tasks: []TaskRecord{{Task: 0, Reward: 1.5, Steps: 7, States: 3, Actions: 2}},
		EpisodeSums: []float64{0.5, 1}}
	if err := WriteCell(At(dir), cell); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCell(At(dir).Cell(2, "O-TempLe+x"), CellWant{Fingerprint: "f", Run: 2, Agent: "O-TempLe+x", Tasks: 1, Episodes: 2})
	if err != nil || got.Checksum == "" {
		t.Fatalf("ReadCell: %v, checksum %q", err, got.Checksum)
	}
	if got.Checksum = ""; !reflect.DeepEqual(got, cell) {
		t.Fatalf("ReadCell = %+v; want %+v", got, cell)
	}
	if names, _ := os.ReadDir(filepath.Join(dir, "cells")); len(names) != 1 || names[0].Name() != "run-002--O-TempLe_x.json" {
		t.Fatalf("cells/ holds %v, want the cell alone", names)
	}

	ep, err := CreateEpisodes(At(dir), 2, "O-TempLe+x", 2)
	if err != nil {
		t.Fatal(err)
	}
	for k, rets := range [][]float64{{0.5, 1}, {-0.25, 3}} {
		for _, r := range rets {
			ep.Add(r)
		}
		if err := ep.EndTask(k); err != nil {
			t.Fatal(err)
		}
	}
	if err := ep.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "episodes", "run-002--O-TempLe_x.csv"))
	if want := "task,e1,e2\n0,0.5,1\n1,-0.25,3\n"; err != nil || string(b) != want {
		t.Fatalf("episodes file %q (%v), want %q", b, err, want)
	}

	tw, err := CreateTemplates(At(dir), 2, "O-TempLe+x")
	if err != nil {
		t.Fatal(err)
	}
	snaps := []TaskSnapshot{{Task: 0}, {Task: 1, Snapshot: template.Snapshot{}}}
	for _, s := range snaps {
		if err := tw.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := WriteCell(At(dir), cell); err != nil { // after its streams, as the runner writes it: it records them
		t.Fatal(err)
	}
	if got, err := ReadSnapshots(At(dir), 2, "O-TempLe+x"); err != nil || !reflect.DeepEqual(got, snaps) {
		t.Fatalf("ReadSnapshots = %+v, %v; want %+v", got, err, snaps)
	}
	sums, err := readChecksums(At(dir))
	for _, name := range []string{"cells/run-002--O-TempLe_x.json", "episodes/run-002--O-TempLe_x.csv", "templates/run-002--O-TempLe_x.jsonl"} {
		if _, ok := sums.Files[name]; err != nil || !ok {
			t.Errorf("checksums.json does not list %s (%v)", name, err)
		}
	}
}

// A cell stored but not recorded (its process killed in between) is recorded when a run resumes
// from it, once: the record then equals that of a run never interrupted.
func TestResumedCellIsRecorded(t *testing.T) {
	stopped, whole := t.TempDir(), t.TempDir()
	cell := CellResult{Fingerprint: "f", Run: 0, Agent: "RMax", Tasks: []TaskRecord{{Task: 0, Reward: 1, Steps: 2, States: 3, Actions: 2}}}
	for _, dir := range []string{stopped, whole} {
		if err := MakeCellDirs(At(dir), false, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := StoreCell(At(stopped), cell); err != nil {
		t.Fatal(err)
	}
	if err := WriteCell(At(whole), cell); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := RecordResumed(At(stopped), cell); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(stopped, ChecksumsFile))
	want, _ := os.ReadFile(filepath.Join(whole, ChecksumsFile))
	if string(got) != string(want) {
		t.Fatalf("record after resuming:\n%s\nwant:\n%s", got, want)
	}
}
