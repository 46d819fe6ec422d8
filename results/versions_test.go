package results

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeShards writes the fixture's two shards below a fresh directory and returns their
// directories.
func writeShards(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range fixtureShards(t) {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{filepath.Join(dir, "shard", "0"), filepath.Join(dir, "shard", "1")}
}

// setVersion makes dir's record say it was written by temple tool, results format format.
func setVersion(t *testing.T, dir, tool string, format int) {
	t.Helper()
	if err := updateChecksums(At(dir), func(s *checksums) error { s.ToolVersion, s.FormatVersion = tool, format; return nil }); err != nil {
		t.Fatal(err)
	}
}

// Issue 51, case 6: a shard written by another temple version is refused by merge, naming the
// shard, its version and the flag; with the flag the merge goes on and the merged results record
// that version (checksums.json, setup.json, summary.json).
func TestMergeRefusesAnotherVersion(t *testing.T) {
	shards := writeShards(t)
	setVersion(t, shards[1], "0.0.9", FormatVersion)
	out := filepath.Join(t.TempDir(), "merged")
	err := Merge(out, shards)
	if err == nil || !strings.Contains(err.Error(), "shard "+shards[1]+" holds results of temple 0.0.9, format 4") ||
		!strings.Contains(err.Error(), "--allow-other-version") {
		t.Fatalf("merging a shard of temple 0.0.9: %v, want a refusal naming the shard, its version and the flag", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the refused merge made its directory")
	}
	if err := MergeWith(out, shards, MergeOptions{OtherVersions: true}); err != nil {
		t.Fatal(err)
	}
	want := []string{"0.0.9, format 4"}
	if got := OtherVersions(At(out)); !slices.Equal(got, want) {
		t.Errorf("the merged record's other versions %q, want %q", got, want)
	}
	sum, err := ReadSummary(At(out))
	if err != nil {
		t.Fatal(err)
	}
	var full Summary
	b, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	json.Unmarshal(b, &full)
	if !slices.Equal(full.OtherVersions, want) || sum.Runs != 2 {
		t.Errorf("summary.json's other versions %q, want %q", full.OtherVersions, want)
	}
}

// Issue 51, case 6: the same cell in two shards with different contents is a conflict that
// merge names, whatever the order of the shards (the last one won before).
func TestMergeNamesAConflictingCell(t *testing.T) {
	shards := writeShards(t)
	c := fixtureCell(0, "A")
	c.Tasks[0].Reward += 1
	if err := WriteCell(At(shards[1]), c); err != nil { // shard 1 holds run 0 of A too, with another reward
		t.Fatal(err)
	}
	for _, order := range [][]string{shards, {shards[1], shards[0]}} {
		err := Merge(filepath.Join(t.TempDir(), "merged"), order)
		if err == nil || !strings.Contains(err.Error(), "hold the same cell (run 0, agent A) with different results") ||
			!strings.Contains(err.Error(), filepath.Join(shards[0], "cells", "run-000--A.json")) ||
			!strings.Contains(err.Error(), filepath.Join(shards[1], "cells", "run-000--A.json")) {
			t.Errorf("merging %q: %v, want a conflict naming both files", order, err)
		}
	}
	if err := WriteCell(At(shards[1]), fixtureCell(0, "A")); err != nil { // the same content twice is no conflict
		t.Fatal(err)
	}
	if err := Merge(filepath.Join(t.TempDir(), "merged"), shards); err != nil {
		t.Errorf("the same cell in both shards: %v", err)
	}
}

// Issue 51, cases 6 and 7: results written by another temple version are not resumed unless
// OtherVersions says so, and then the record names that version; results of a newer results
// format are never resumed (they were rewritten as the older format before), and nothing of them
// changes.
func TestClaimChecksTheVersion(t *testing.T) {
	spec := []byte(fixtureSpec)
	dir := writeShards(t)[0]
	setVersion(t, dir, "0.0.9", FormatVersion)
	_, _, err := Claim(dir, "f", spec, ClaimOptions{})
	var version *VersionError
	if !errors.As(err, &version) || version.Newer || !strings.Contains(err.Error(), "holds results of temple 0.0.9, format 4") ||
		!strings.Contains(err.Error(), "--allow-other-version") {
		t.Fatalf("another version: %v, want a VersionError naming it and the flag", err)
	}
	_, release, err := Claim(dir, "f", spec, ClaimOptions{OtherVersions: true})
	if err != nil {
		t.Fatal(err)
	}
	release()
	if sums, _ := readChecksums(At(dir)); sums.ToolVersion != Version || !slices.Equal(sums.OtherVersions, []string{"0.0.9, format 4"}) {
		t.Errorf("the record after the resume: %s, other versions %q", sums.ToolVersion, sums.OtherVersions)
	}
	if err := WriteSetup(At(dir), fixtureSetup(t)); err != nil {
		t.Fatal(err)
	}
	if s, err := ReadSetup(At(dir)); err != nil || !slices.Equal(s.OtherVersions, []string{"0.0.9, format 4"}) {
		t.Errorf("setup.json's other versions: %q (%v)", s.OtherVersions, err)
	}

	newer := writeShards(t)[0]
	setVersion(t, newer, "9.0.0", FormatVersion+1)
	before, _ := os.ReadFile(filepath.Join(newer, ChecksumsFile))
	for _, other := range []bool{false, true} {
		_, _, err := Claim(newer, "f", spec, ClaimOptions{OtherVersions: other})
		if !errors.As(err, &version) || !version.Newer || !strings.Contains(err.Error(), "a newer results format") {
			t.Errorf("a newer format (OtherVersions %v): %v, want a refusal", other, err)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(newer, ChecksumsFile)); string(after) != string(before) {
		t.Error("the refused claim changed the newer directory's record")
	}
	// setup.json alone saying the newer format (a record of this one) is refused too.
	edited := writeShards(t)[0]
	b, _ := os.ReadFile(filepath.Join(edited, setupFile))
	os.WriteFile(filepath.Join(edited, setupFile), []byte(strings.Replace(string(b), `"format_version":4`, `"format_version":5`, 1)), 0o644)
	if _, _, err := Claim(edited, "f", spec, ClaimOptions{OtherVersions: true}); !errors.As(err, &version) || !version.Newer {
		t.Errorf("setup.json of format 5: %v, want a refusal", err)
	}
}
