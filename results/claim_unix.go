//go:build unix

package results

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid exists on this machine (signal 0 checks without
// sending; EPERM means it exists under another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
