//go:build unix

package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/internal/regular"
)

// maxLockBytes bounds a lock file's content (a process, a host and an experiment's name).
const maxLockBytes = 64 << 10

// lock takes dir's lock file for this process: an exclusive flock(2) on it, held while the
// experiment runs, and the file's content naming this process (for the message of a refused
// run). The kernel drops the flock when its process dies, so a lock whose process is gone is free
// to take, and of any number of processes that try at once exactly one gets it: taking over a
// stale lock is as atomic as taking a free one. A lock whose content names a live process of this
// machine that holds no flock (an older temple), or a process of another machine (whose flock a
// network file system may not show here), is respected.
func lock(dir Dir, name string, note func(string)) (unlock func(), err error) {
	path := dir.Path(LockFile)
	host, _ := os.Hostname()
	me, err := json.Marshal(lockInfo{PID: os.Getpid(), Host: host, Experiment: name})
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	for {
		// Not through a symbolic link (a lock file made a link would write outside dir), and not
		// waiting on a named pipe: only a regular file is a lock.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("results: the lock file %s is a symbolic link, not temple's lock: remove it", path)
		}
		if err != nil {
			return nil, fmt.Errorf("results: locking %s: %w", dir, atomicfile.NotWritable(dir.path, err))
		}
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			f.Close()
			if err == nil {
				err = fmt.Errorf("%s, not temple's lock: remove it", regular.Kind(fi.Mode()))
			}
			return nil, fmt.Errorf("results: the lock file %s: %w", path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, heldLock(dir, path)
			}
			return nil, fmt.Errorf("results: locking %s: %w", path, err)
		}
		// The flock counts only if path still names the file locked: a holder that released
		// the lock removed the file after this process opened it.
		if !sameFile(f, path) {
			f.Close()
			continue
		}
		b, err := io.ReadAll(io.LimitReader(f, maxLockBytes+1))
		if err == nil && len(b) > maxLockBytes {
			err = fmt.Errorf("more than the %d bytes of a lock", maxLockBytes)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("results: reading the lock %s: %w", path, err)
		}
		if len(b) > 0 {
			var held lockInfo
			if err := json.Unmarshal(b, &held); err != nil || held.PID <= 0 {
				f.Close()
				return nil, fmt.Errorf("results: %s is locked by %s, which does not name a process (%q); "+
					"remove it if no experiment is running there", dir, path, b)
			}
			if held.Host != host || processAlive(held.PID) {
				f.Close()
				return nil, &LockedError{Dir: dir.path, PID: held.PID, Host: held.Host, Name: held.Experiment}
			}
			if note != nil {
				note(fmt.Sprintf("%s: taking over the lock of process %d (experiment %q), which is gone", dir, held.PID, held.Experiment))
			}
		}
		if err := writeLock(f, me); err != nil {
			f.Close()
			return nil, fmt.Errorf("results: writing the lock %s: %w", path, atomicfile.NotWritable(dir.path, err))
		}
		return func() {
			os.Remove(path) // before the flock goes, so that the next holder locks a new file
			f.Close()
		}, nil
	}
}

// writeLock replaces the content of the lock file f by me.
func writeLock(f *os.File, me []byte) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt(me, 0); err != nil {
		return err
	}
	return f.Sync()
}

// sameFile reports whether path names the open file f.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// heldLock is the refusal of the lock file path, which another process holds: it names that
// process once the holder has written its name (a holder that has just taken the lock may not
// have yet).
func heldLock(dir Dir, path string) error {
	var held lockInfo
	for range 100 {
		b, err := regular.ReadFile(path, maxLockBytes)
		if err == nil && json.Unmarshal(b, &held) == nil && held.PID > 0 && processAlive(held.PID) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return &LockedError{Dir: dir.path, PID: held.PID, Host: held.Host, Name: held.Experiment}
}
