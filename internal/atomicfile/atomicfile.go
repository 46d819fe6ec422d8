// Package atomicfile writes files so that a reader never sees a partial one.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Write writes data to a temporary file next to path, creating the parent directories, and
// renames it to path: a failed write leaves no file behind and an old file intact.
func Write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return WriteWith(path, func(w *bufio.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith is Write of what write writes into w (which it flushes), for a file written as a
// stream (a CSV file, a page, a figure) without holding it whole, into a directory that exists.
func WriteWith(path string, write func(w *bufio.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+tempMark+"*")
	if err != nil {
		return NotWritable(filepath.Dir(path), err)
	}
	tmp := f.Name()
	w := bufio.NewWriter(f)
	err = write(w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// tempMark is in the name of every temporary file of Write, after a dot that starts it.
const tempMark = ".tmp-"

// Temporary reports whether name is the name of a temporary file of Write (left when its process
// was killed), and if so the base name of the file that write was writing.
func Temporary(name string) (target string, ok bool) {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok {
		return "", false
	}
	target, _, ok = strings.Cut(rest, tempMark)
	return target, ok && target != ""
}

// NotWritable is err, of writing into dir, with what to do when dir cannot be written (a
// read-only file system, or no permission); other errors it returns as they are.
func NotWritable(dir string, err error) error {
	if errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("%s is not writable (%w): use a writable directory, or copy the results to one", dir, err)
	}
	return err
}
