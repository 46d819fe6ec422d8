package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/results"
)

// damage rewrites the cell file path with change applied to its cell; with reseal the checksum is
// computed again, as by someone who edits a cell knowing the format, otherwise the old one stays.
func damage(t *testing.T, path string, reseal bool, change func(*results.CellResult)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c results.CellResult
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	change(&c)
	if reseal {
		b, err = results.EncodeCell(c)
	} else {
		b, err = json.Marshal(c)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// resultFiles are the files of a results directory that must not change when a damaged cell is
// run again.
var resultFiles = []string{"per_task.csv", "metrics.csv", "summary.json", "oracle.csv", "regret.csv"}

func readFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, f := range resultFiles {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = b
	}
	return files
}

// A damaged cell of a finished directory — cut to fewer tasks and sealed again, or with a reward
// changed under its checksum, or cut mid-file — is run again on resume, and the terminal says
// which and why; the results are those of the run before.
func TestResumeRunsDamagedCellsAgain(t *testing.T) {
	s := small(2, 3, 20)
	dir := t.TempDir()
	if _, err := Execute(context.Background(), s, dir, 1, nil); err != nil {
		t.Fatal(err)
	}
	before := readFiles(t, dir)
	cell := filepath.Join(dir, "cells", results.CellName(1, "O-TempLe")+".json")
	for _, c := range []struct {
		name   string
		damage func()
		why    string
	}{
		{"fewer tasks", func() { damage(t, cell, true, func(c *results.CellResult) { c.Tasks = c.Tasks[:1] }) }, "it holds 1 tasks, the run has 3"},
		{"a changed reward", func() { damage(t, cell, false, func(c *results.CellResult) { c.Tasks[2].Reward += 1 }) }, "its checksum does not match its content"},
		{"no oracle record", func() { damage(t, cell, true, func(c *results.CellResult) { c.Tasks[0].Oracle = nil }) }, "task 0 has no oracle record"},
		{"cut mid-file", func() {
			b, _ := os.ReadFile(cell)
			os.WriteFile(cell, b[:len(b)/2], 0o644)
		}, "not a cell's JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.damage()
			var n notes
			if _, err := Execute(context.Background(), s, dir, 1, &n); err != nil {
				t.Fatal(err)
			}
			if len(n.text) != 1 || !strings.Contains(n.text[0], cell) || !strings.Contains(n.text[0], c.why) ||
				!strings.Contains(n.text[0], "running the cell again") {
				t.Errorf("notes %q, want one naming %s and %q", n.text, cell, c.why)
			}
			for f, b := range readFiles(t, dir) {
				if !bytes.Equal(b, before[f]) {
					t.Errorf("%s differs from the run before", f)
				}
			}
		})
	}
}

// A damaged cell in a shard — cut to one task, or with a reward changed — is refused by the merge,
// which names it and what is wrong, and leaves no output directory behind.
func TestMergeRefusesDamagedShards(t *testing.T) {
	shards := twoShards(t, small(2, 3, 20))
	cells, _ := filepath.Glob(filepath.Join(shards[1], "cells", "*.json"))
	if len(cells) == 0 {
		t.Fatal("shard 1 has no cell")
	}
	cell := cells[0]
	original, _ := os.ReadFile(cell)
	for _, c := range []struct {
		name   string
		damage func()
		why    string
	}{
		{"one task", func() { damage(t, cell, true, func(c *results.CellResult) { c.Tasks = c.Tasks[:1] }) }, "it holds 1 tasks, the run has 3"},
		{"a changed reward", func() {
			damage(t, cell, false, func(c *results.CellResult) { c.Tasks[0].Reward = -c.Tasks[0].Reward - 1 })
		},
			"its checksum does not match its content"},
		{"no checksum", func() { damage(t, cell, false, func(c *results.CellResult) { c.Checksum = "" }) }, `it has no field "checksum"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(cell, original, 0o644)
			c.damage()
			out := filepath.Join(t.TempDir(), "merged")
			err := results.Merge(out, shards)
			if err == nil || !strings.Contains(err.Error(), cell) || !strings.Contains(err.Error(), c.why) {
				t.Errorf("merge: %v, want an error naming %s and %q", err, cell, c.why)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("the refused merge left its output directory behind")
			}
		})
	}
	os.WriteFile(cell, original, 0o644)
	if err := results.Merge(filepath.Join(t.TempDir(), "merged"), shards); err != nil {
		t.Errorf("the shards as written: %v", err)
	}
}
