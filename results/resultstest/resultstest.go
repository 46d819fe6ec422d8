// Package resultstest holds what tests of results directories share.
package resultstest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/temple-rl/temple/results"
)

// DataFiles are the files below dir whose bytes must depend only on the spec and the seed, by path
// relative to dir: all but the wall-clock timings (timings.json, and report.html, which shows them).
func DataFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || filepath.Base(path) == results.TimingsFile || filepath.Base(path) == results.ReportFile {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
