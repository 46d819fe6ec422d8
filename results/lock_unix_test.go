//go:build unix

package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 51, case 11: a lock file that is a symbolic link is not followed — neither a file outside
// the directory is written and left there, nor an outside file with a stale lock's content
// truncated — and a lock file that is a named pipe is refused at once; both name the file.
func TestLockFileIsNotFollowed(t *testing.T) {
	outside := t.TempDir()
	for _, content := range []string{"", staleLock(t)} {
		dir := t.TempDir()
		target := filepath.Join(outside, "target")
		os.Remove(target)
		if content != "" {
			if err := os.WriteFile(target, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(target, filepath.Join(dir, LockFile)); err != nil {
			t.Fatal(err)
		}
		_, _, err := Claim(dir, "x", []byte("name: x\n"), ClaimOptions{})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, LockFile)+" is a symbolic link") {
			t.Errorf("a lock linked to %q: %v, want a refusal naming the link", content, err)
		}
		b, statErr := os.ReadFile(target)
		if content == "" && statErr == nil || content != "" && string(b) != content {
			t.Errorf("the file outside holds %q (%v), want it as it was (%q)", b, statErr, content)
		}
	}
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, LockFile), 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, _, err := Claim(dir, "x", []byte("name: x\n"), ClaimOptions{}); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a named pipe (FIFO), not temple's lock") {
			t.Errorf("a named pipe as the lock: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a named pipe as the lock: Claim did not return within 5 s")
	}
}

// staleLock is the content of a lock left by a process that is gone.
func staleLock(t *testing.T) string {
	host, _ := os.Hostname()
	b, _ := json.Marshal(lockInfo{PID: deadPID(t), Host: host, Experiment: "gone"})
	return string(b)
}
