//go:build !unix

package regular

import "os"

// openNonblocking checks path before it opens it, where O_NONBLOCK is not there: only a regular
// file is opened.
func openNonblocking(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return os.Open(path)
}
