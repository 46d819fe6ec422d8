package atomicfile

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A write that fails midway leaves the previous file as it was, and no temporary file.
func TestFailedWriteKeepsThePreviousFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.json")
	if err := Write(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	err := WriteWith(path, func(w *bufio.Writer) error {
		w.Write([]byte("half of the new"))
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("a failed write reported no error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the previous file became %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
}

// The temporary file of a write whose process was killed is removed by RemoveTemporaries, in
// subdirectories too; other files stay.
func TestRemoveTemporaries(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "cells"), 0o755)
	left := filepath.Join(dir, "cells", ".run-0.json"+tempMark+"123")
	for _, name := range []string{left, filepath.Join(dir, "cells", "run-0.json"), filepath.Join(dir, ".temple.lock")} {
		os.WriteFile(name, nil, 0o644)
	}
	if err := RemoveTemporaries(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); err == nil {
		t.Error("the temporary file is still there")
	}
	for _, name := range []string{"cells/run-0.json", ".temple.lock"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed", name)
		}
	}
}
