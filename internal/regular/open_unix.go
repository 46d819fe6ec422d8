//go:build unix

package regular

import (
	"os"
	"syscall"
)

// openNonblocking opens path for reading with O_NONBLOCK, so that opening a named pipe does not
// wait for a writer; a regular file reads as it would without it.
func openNonblocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
