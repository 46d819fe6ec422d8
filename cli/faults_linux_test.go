package cli

// Faults of the disk under a results directory, on a small tmpfs of its own (mounted as root;
// the tests skip elsewhere): full while a finished directory's summary is rewritten, and
// read-only.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// smallDisk mounts a tmpfs of size bytes on a new directory and returns it; the test skips when
// it cannot (not root, or no mount allowed).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// snapshot reads every file under dir.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		files[path] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// finishedOnSmallDisk runs a small experiment into a directory of a 16 MB tmpfs (smallDisk) and
// returns the disk, the experiment's config and the results directory.
func finishedOnSmallDisk(t *testing.T) (disk, config, out string) {
	t.Helper()
	disk = smallDisk(t, "16m")
	config = filepath.Join(t.TempDir(), "disk.yaml")
	os.WriteFile(config, []byte("name: disk\nruns: 2\nepisodes: 20\ntasks:\n  count: 3\n"), 0o644)
	out = filepath.Join(disk, "r")
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return disk, config, out
}

// A disk that fills while a finished directory's results are written again (the same command
// run again): a clear error, and every file as it was — none truncated, no temporary file left.
func TestFullDiskKeepsThePreviousResults(t *testing.T) {
	disk, config, out := finishedOnSmallDisk(t)
	before := snapshot(t, out)
	// Fill the disk, then free 16 KiB: room for the lock and spec.yaml, not for the figures.
	filler, err := os.Create(filepath.Join(disk, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 64<<10)
	for {
		if _, err := filler.Write(block); err != nil {
			break
		}
	}
	fi, _ := filler.Stat()
	filler.Truncate(fi.Size() - 16<<10)
	filler.Close()

	text, err := temple(t, "run", config, "--out", out)
	if err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("rewriting on a full disk: %v\n%s", err, text)
	}
	t.Logf("error: %v", err)
	after := snapshot(t, out)
	for path, b := range before {
		switch a, ok := after[path]; {
		case !ok:
			t.Errorf("%s was removed", path)
		case filepath.Base(path) == "timings.json" || filepath.Base(path) == "report.html":
			// timings.json states the seconds of the last invocation (none: every cell was
			// resumed), and report.html shows them; each whole, old or new.
			if len(a) == 0 {
				t.Errorf("%s is empty", path)
			}
		case !bytes.Equal(a, b):
			t.Errorf("%s changed (%d bytes, was %d)", path, len(a), len(b))
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok {
			t.Errorf("%s was left behind", path)
		}
	}
}

// A read-only results directory: a clear error that names it and says what to do.
func TestReadOnlyResultsDirectory(t *testing.T) {
	disk, config, out := finishedOnSmallDisk(t)
	if err := syscall.Mount("", disk, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount the tmpfs read-only: %v", err)
	}
	for _, args := range [][]string{{"run", config, "--out", out}, {"report", out}, {"compare", out}} {
		_, err := temple(t, args...)
		if err == nil || !strings.Contains(err.Error(), "is not writable (") || !strings.Contains(err.Error(), "read-only file system") ||
			!strings.Contains(err.Error(), out) {
			t.Errorf("temple %s: %v", strings.Join(args, " "), err)
		} else {
			t.Logf("temple %s: %v", args[0], err)
		}
	}
}
