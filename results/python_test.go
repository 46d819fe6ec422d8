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
	var want []string
	for _, name := range append(slices.Clone(resultFiles), "compare.csv") {
		if strings.Contains(name, ".") && name != ChecksumsFile { // files, not directories
			want = append(want, name)
		}
	}
	slices.Sort(python)
	slices.Sort(want)
	if !slices.Equal(python, want) {
		t.Errorf("results.py's _TEMPLE_FILES %q, want %q", python, want)
	}
	for _, u := range uncheckedFiles {
		if !strings.Contains(src, `"`+u+`"`) {
			t.Errorf("results.py does not know the unchecked file %s", u)
		}
	}
}
