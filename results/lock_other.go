//go:build !unix

package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/temple-rl/temple/internal/atomicfile"
)

// lock creates dir's lock file naming this process; one that exists is respected (this system
// cannot tell here whether its process is gone: the error names the file to remove).
func lock(dir Dir, name string, _ func(string)) (unlock func(), err error) {
	path := dir.Path(LockFile)
	host, _ := os.Hostname()
	me, err := json.Marshal(lockInfo{PID: os.Getpid(), Host: host, Experiment: name})
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		var held lockInfo
		b, _ := os.ReadFile(path)
		json.Unmarshal(b, &held)
		return nil, &LockedError{Dir: dir.path, PID: held.PID, Host: held.Host, Name: held.Experiment}
	}
	if err != nil {
		return nil, fmt.Errorf("results: locking %s: %w", dir, atomicfile.NotWritable(dir.path, err))
	}
	_, err = f.Write(me)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("results: writing the lock %s: %w", path, err)
	}
	return func() { os.Remove(path) }, nil
}
