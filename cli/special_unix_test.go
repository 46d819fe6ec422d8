//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test when it has not returned after d (it hung on a named pipe or a
// device before issue 51).
func within(t *testing.T, d time.Duration, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
		return nil
	}
}

// Issue 51, cases 9 and 10: a config, a task file, spec.yaml or summary.json that is a named pipe
// or a device (or a link to one) is refused at once, naming it; a config on standard input is
// read up to its limit (temple run - < /dev/zero ran out of memory); a 1 GB sparse task file is
// refused before it is hashed (it was hashed for 11 s).
func TestSpecialFilesAreRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "/dev/zero"}, "/dev/zero is a character device, not a regular file"},
		{[]string{"run", fifo}, fifo + " is a named pipe (FIFO), not a regular file"},
		{[]string{"tune", "/dev/urandom"}, "/dev/urandom is a character device, not a regular file"},
	} {
		err := within(t, 10*time.Second, "temple "+strings.Join(c.args, " "), func() error { _, err := temple(t, c.args...); return err })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("temple %s: %v, want %q", strings.Join(c.args, " "), err, c.want)
		}
	}

	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	err = within(t, 30*time.Second, "temple run - < /dev/zero", func() error {
		cmd := root()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetIn(zero)
		cmd.SetArgs([]string{"run", "-", "--out", filepath.Join(dir, "x")})
		return cmd.ExecuteContext(context.Background())
	})
	if err == nil || !strings.Contains(err.Error(), "standard input holds more than the 4 MiB it may hold") {
		t.Errorf("temple run - < /dev/zero: %v", err)
	}

	config := func(name, file string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte("name: f\nruns: 1\nepisodes: 5\ntasks:\n  family: custom\n  file: "+file+"\nagents:\n  - type: q-learning\n"), 0o644)
		return path
	}
	sparse := filepath.Join(dir, "big.json")
	f, _ := os.Create(sparse)
	f.Truncate(1 << 30)
	f.Close()
	link := filepath.Join(dir, "link.json")
	os.Symlink("/dev/zero", link)
	for file, want := range map[string]string{fifo: "a named pipe (FIFO), not a regular file", link: "a character device, not a regular file",
		sparse: "is 1073741824 bytes, more than the 256 MiB"} {
		start := time.Now()
		err := within(t, 10*time.Second, "a task file "+file, func() error {
			_, err := temple(t, "run", config("c.yaml", file), "--out", filepath.Join(dir, "out"))
			return err
		})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("task file %s: %v, want %q", file, err, want)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("task file %s: refused after %v", file, d)
		}
	}

	good := config("good.yaml", must(filepath.Abs(filepath.Join(repoRoot, "examples", "custom-mdp", "inventory.json"))))
	for _, name := range []string{"spec.yaml", "summary.json"} {
		out := filepath.Join(dir, "r-"+name)
		if text, err := temple(t, "run", good, "--out", out); err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		os.Remove(filepath.Join(out, name))
		syscall.Mkfifo(filepath.Join(out, name), 0o644)
		args := []string{"run", good, "--out", out}
		if name == "summary.json" {
			args = []string{"compare", out}
		}
		err := within(t, 10*time.Second, "temple "+args[0]+" with "+name+" a named pipe", func() error { _, err := temple(t, args...); return err })
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("temple %s with %s a named pipe: %v", args[0], name, err)
		}
	}
}
