package regular

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 51, case 9: a named pipe, a device or a symbolic link to one is refused at once (a pipe
// without a writer used to block its reader forever), and a file over the limit before it is
// read.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	link := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{fifo: "a named pipe", "/dev/zero": "a character device", "/dev/urandom": "a character device",
		link: "a character device", dir: "a directory"} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(path, 1<<20); done <- err }()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), path+" is "+kind) {
				t.Errorf("%s: %v, want a NotRegularError saying %s", path, err, kind)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("reading %s did not return within 5 s", path)
		}
	}
}

func TestSizeIsCheckedBeforeReading(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil { // sparse: no gigabyte on disk
		t.Fatal(err)
	}
	f.Close()
	start := time.Now()
	_, err = ReadFile(path, 256<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 1<<30 || !strings.Contains(err.Error(), "more than the 256 MiB") {
		t.Errorf("%v, want a TooLargeError of 1 GiB against 256 MiB", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing took %v: the file was read", d)
	}
	if err := Check(path, 256<<20); !errors.As(err, &tl) {
		t.Errorf("Check: %v, want a TooLargeError", err)
	}
	small := filepath.Join(t.TempDir(), "small.json")
	if err := os.WriteFile(small, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(small, 3); err != nil || string(b) != "{}\n" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	if _, err := ReadFile(small, 2); !errors.As(err, &tl) {
		t.Errorf("a byte over the limit: %v", err)
	}
}

func TestReadAllStopsAtTheLimit(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	_, err = ReadAll(zero, "standard input", 1<<20)
	if err == nil || err.Error() != "standard input holds more than the 1 MiB it may hold" {
		t.Errorf("%v", err)
	}
	b, err := ReadAll(strings.NewReader("runs: 2\n"), "standard input", 8)
	if err != nil || string(b) != "runs: 2\n" {
		t.Errorf("%q, %v", b, err)
	}
}
