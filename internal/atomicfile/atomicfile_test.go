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
