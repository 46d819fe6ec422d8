package results

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Python's temple.results.load checks a results directory as this package does, with its own
// copy of what it needs (python/temple/results.py): the results format and the names temple
// writes at a directory's top must be this package's.
func TestPythonLoaderKnowsThisFormat(t *testing.T) {
	b, err := os.ReadFile("../python/temple/results.py")
	if err != nil {
		t.Skip("no Python package beside:", err)
	}
	src := string(b)
	m := regexp.MustCompile(`(?m)^_FORMAT_VERSION = (\d+)$`).FindStringSubmatch(src)
	if m == nil || m[1] != strconv.Itoa(FormatVersion) {
		t.Errorf("results.py's _FORMAT_VERSION is %v, want %d", m, FormatVersion)
	}
	block := regexp.MustCompile(`(?s)_TEMPLE_FILES = \((.*?)\)\n`).FindStringSubmatch(src)
	if block == nil {
		t.Fatal("results.py has no _TEMPLE_FILES")
	}
	var python []string
	for _, q := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(block[1], -1) {
		python = append(python, q[1])
	}
	var want []string // the files of Layout (not directories) but the record itself and the lock
	for _, f := range Layout {
		if !f.Dir && f.Name != ChecksumsFile && f.Name != LockFile {
			want = append(want, f.Name)
		}
	}
	slices.Sort(python)
	slices.Sort(want)
	if !slices.Equal(python, want) {
		t.Errorf("results.py's _TEMPLE_FILES %q, want %q", python, want)
	}
	// _TABLES names the CSV files the loader reads as tables: each a file of Layout.
	tables := regexp.MustCompile(`(?s)\n_TABLES = \[(.*?)\n\]`).FindStringSubmatch(src)
	if tables == nil {
		t.Fatal("results.py has no _TABLES")
	}
	rows := regexp.MustCompile(`\("(\w+)", "([^"]+)", (True|False)\)`).FindAllStringSubmatch(tables[1], -1)
	if len(rows) == 0 {
		t.Fatalf("results.py's _TABLES lists no table:\n%s", tables[1])
	}
	for _, row := range rows {
		if !slices.ContainsFunc(Layout, func(f File) bool { return f.Name == row[2] && !f.Dir && strings.HasSuffix(f.Name, ".csv") }) {
			t.Errorf("results.py's table %s reads %s, not a CSV file of results.Layout", row[1], row[2])
		}
	}
	for _, u := range uncheckedFiles {
		if !strings.Contains(src, `"`+u+`"`) {
			t.Errorf("results.py does not know the unchecked file %s", u)
		}
	}
}
