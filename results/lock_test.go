package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// deadPID is the process id of a process that has exited (the test is skipped without one).
func deadPID(t *testing.T) int {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no process to outlive:", err)
	}
	return gone.Process.Pid
}

// writeStaleLock writes dir's lock file naming process pid of this machine.
func writeStaleLock(t *testing.T, dir string, pid int) {
	host, _ := os.Hostname()
	b, _ := json.Marshal(lockInfo{PID: pid, Host: host, Experiment: "gone"})
	if err := os.WriteFile(filepath.Join(dir, LockFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStaleLockHasOneWinner: 200 times, eight claims started at once over a lock left by a dead
// process: exactly one takes it, every other is refused with a LockedError that names the winner
// (this process), and the winner's lock is whole.
func TestStaleLockHasOneWinner(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a lock is never taken over there")
	}
	pid := deadPID(t)
	spec := []byte("name: x\n")
	for iter := range 200 {
		dir := t.TempDir()
		writeStaleLock(t, dir, pid)
		const n = 8
		var start, done sync.WaitGroup
		start.Add(1)
		done.Add(n)
		releases := make(chan func(), n)
		errs := make(chan error, n)
		for range n {
			go func() {
				defer done.Done()
				start.Wait()
				_, release, err := Claim(dir, "x", spec, ClaimOptions{})
				if err != nil {
					errs <- err
					return
				}
				releases <- release
			}()
		}
		start.Done()
		done.Wait()
		close(releases)
		close(errs)
		if len(releases) != 1 {
			t.Fatalf("iteration %d: %d of %d claims took the stale lock, want exactly 1", iter, len(releases), n)
		}
		for err := range errs {
			var locked *LockedError
			if !errors.As(err, &locked) || locked.PID != os.Getpid() {
				t.Fatalf("iteration %d: a losing claim: %v, want a LockedError naming this process", iter, err)
			}
		}
		var held lockInfo
		b, _ := os.ReadFile(filepath.Join(dir, LockFile))
		if err := json.Unmarshal(b, &held); err != nil || held.PID != os.Getpid() {
			t.Fatalf("iteration %d: the lock holds %q", iter, b)
		}
		(<-releases)()
	}
}

// TestStaleLockHasOneWinnerAcrossProcesses: the same with processes, as the users ran
// them: 200 times, three processes (this test's binary) claim at once over a dead process's lock;
// each says whether it won and holds its lock until told to go; exactly one wins.
func TestStaleLockHasOneWinnerAcrossProcesses(t *testing.T) {
	if dir := os.Getenv("TEMPLE_TEST_CLAIM_DIR"); dir != "" {
		_, release, err := Claim(dir, "x", []byte("name: x\n"), ClaimOptions{})
		if err != nil {
			fmt.Println("lost:", err)
			return
		}
		fmt.Println("won")
		bufio.NewReader(os.Stdin).ReadString('\n') // hold the lock until the parent says
		release()
		return
	}
	if runtime.GOOS == "windows" {
		t.Skip("a lock is never taken over there")
	}
	iterations := 200
	if testing.Short() {
		iterations = 20
	}
	pid := deadPID(t)
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	for iter := range iterations {
		dir := t.TempDir()
		writeStaleLock(t, dir, pid)
		const n = 3
		var cmds []*exec.Cmd
		var outs []*bufio.Reader
		var stdins []interface{ Close() error }
		for range n {
			cmd := exec.Command(exe, "-test.run=^TestStaleLockHasOneWinnerAcrossProcesses$")
			cmd.Env = append(os.Environ(), "TEMPLE_TEST_CLAIM_DIR="+dir)
			in, _ := cmd.StdinPipe()
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds, outs, stdins = append(cmds, cmd), append(outs, bufio.NewReader(out)), append(stdins, in)
		}
		won := 0
		var lines []string
		for _, out := range outs {
			line, _ := out.ReadString('\n')
			lines = append(lines, strings.TrimSpace(line))
			if strings.HasPrefix(line, "won") {
				won++
			} else if !strings.Contains(line, "is in use: process") {
				t.Errorf("iteration %d: a process said %q, want won or a refusal naming the holder", iter, line)
			}
		}
		for k := range cmds {
			stdins[k].Close()
			cmds[k].Wait()
		}
		if won != 1 {
			t.Fatalf("iteration %d: %d of %d processes took the stale lock, want exactly 1: %q", iter, won, n, lines)
		}
	}
}
