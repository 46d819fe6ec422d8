//go:build unix

package experiment

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) the process has used so far, GC workers included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
