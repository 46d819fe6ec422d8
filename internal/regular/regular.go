// Package regular reads files that must be regular files: a config, a task file, a file of a
// results directory. A named pipe, a device (/dev/zero, /dev/urandom), a socket or a directory —
// or a symbolic link to one — is refused before anything is read from it, without blocking
// (opening a pipe for reading waits for a writer; Open opens without waiting and checks the
// opened file), and a file larger than the limit its reader gives is refused before it is read
// or hashed.
package regular

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is a path that names something other than a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: temple reads only regular files here", e.Path, Kind(e.Mode))
}

// TooLargeError is a file larger than its reader's limit.
type TooLargeError struct {
	Path       string
	Size, Most int64 // Size is -1 for a stream, read until it passed Most
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 { // a stream: its size is not known
		return fmt.Sprintf("%s holds more than the %s it may hold", e.Path, Bytes(e.Most))
	}
	return fmt.Sprintf("%s is %d bytes, more than the %s such a file may hold", e.Path, e.Size, Bytes(e.Most))
}

// Kind says what a file of mode m is, for a message.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// Bytes is a size limit in words: "256 MiB".
func Bytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Open opens the file at path for reading if it is a regular file (a symbolic link to one
// included), without blocking on a named pipe: the error is a *NotRegularError otherwise, or
// the error of os.Open (fs.ErrNotExist for a missing file).
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNonblocking(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return f, fi, nil
}

// ReadFile reads the regular file at path whole if it holds at most most bytes (Open): a larger
// one is a *TooLargeError, refused before it is read. A file that grows while it is read is
// refused too.
func ReadFile(path string, most int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > most {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Most: most}
	}
	return readAtMost(f, path, most)
}

// ReadAll reads r whole if it holds at most most bytes (standard input, whose size is not known
// beforehand): a *TooLargeError, naming it name, once it has given more.
func ReadAll(r io.Reader, name string, most int64) ([]byte, error) {
	return readAtMost(r, name, most)
}

// readAtMost reads r to its end, or fails once it has read more than most bytes.
func readAtMost(r io.Reader, name string, most int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, most+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > most {
		return nil, &TooLargeError{Path: name, Size: -1, Most: most}
	}
	return b, nil
}

// Check refuses path unless it is a regular file (a symbolic link to one included) of at most
// most bytes, without opening it: for a file another package reads or hashes itself.
func Check(path string, most int64) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	if fi.Size() > most {
		return &TooLargeError{Path: path, Size: fi.Size(), Most: most}
	}
	return nil
}
