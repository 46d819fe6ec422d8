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

// Temporary tells the temporary files of Write from other files, and names the file written.
func TestTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.json")
	var tmp string
	WriteWith(path, func(*bufio.Writer) error {
		entries, _ := os.ReadDir(dir)
		tmp = entries[0].Name()
		return errors.New("killed")
	})
	if target, ok := Temporary(tmp); !ok || target != "summary.json" {
		t.Errorf("Temporary(%q) = %q, %v; want summary.json, true", tmp, target, ok)
	}
	for _, name := range []string{"summary.json", ".temple.lock", ".tmp-1", "notes.tmp-1"} {
		if _, ok := Temporary(name); ok {
			t.Errorf("Temporary(%q) is true", name)
		}
	}
}
