package main

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestLibraryExampleRuns(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"run agent         n=6      n=8", "0   O-TempLe", "1   RMax", "O-TempLe's library after run 0", "p by rank               r  samples"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

// The templates are listed most samples first, each with its rank probabilities summing to 1; one
// not in descending order is marked, as the output explains.
func TestLibraryExampleMarksUnsortedTemplates(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(out.String(), "p by rank")
	last := int64(1 << 62)
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[1:] {
		open, close := strings.Index(line, "["), strings.Index(line, "]")
		var ps []float64
		for _, f := range strings.Fields(line[open+1 : close]) {
			x, _ := strconv.ParseFloat(f, 64)
			ps = append(ps, x)
		}
		fields := strings.Fields(line[close+1:])
		n, _ := strconv.ParseInt(fields[1], 10, 64)
		if n > last {
			t.Errorf("%q: more samples than the template above it", line)
		}
		last = n
		descending := slices.IsSortedFunc(ps, func(a, b float64) int { return cmp.Compare(b, a) })
		if marked := strings.HasSuffix(line, " *"); marked == descending {
			t.Errorf("%q: marked %v, but its probabilities are descending: %v", line, marked, descending)
		}
	}
}
