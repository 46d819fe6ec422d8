package describe

import (
	"fmt"
	"io"
	"strings"

	"github.com/temple-rl/temple/results"
)

// The Python loader (python/temple/results.py) reads a results directory with a copy of what it
// needs of its layout: the names of results.Layout and results.FormatVersion, generated between
// the line pythonBegin and the line pythonEnd.
const (
	pythonBegin = "# Generated from results.Layout (results/layout.go) by go generate ./cli/describe: edit that, not these lines."
	pythonEnd   = "# end of the generated names"
)

// PythonFiles writes the Python loader's names of a results directory (results.Layout): the
// format version it reads, a constant per file or directory named after it (spec.yaml is
// _SPEC_YAML), the files temple writes and records at a directory's top, and those the record
// lists without a checksum.
func PythonFiles(w io.Writer) error {
	consts := map[string]string{} // file name -> Python name
	seen := map[string]string{}   // Python name -> file name
	for _, f := range results.Layout {
		c := pythonName(f.Name)
		if other, ok := seen[c]; ok {
			return fmt.Errorf("results.Layout's %s and %s have the same Python name %s", other, f.Name, c)
		}
		consts[f.Name], seen[c] = c, f.Name
	}
	names := func(keep func(results.File) bool) []string {
		var out []string
		for _, f := range results.Layout {
			if keep(f) {
				out = append(out, consts[f.Name])
			}
		}
		return out
	}
	fmt.Fprintln(w, "# The results format this loader reads (results.FormatVersion).")
	fmt.Fprintf(w, "_FORMAT_VERSION = %d\n", results.FormatVersion)
	fmt.Fprintln(w, "# Every file and directory temple writes into a results directory (results.Layout).")
	for _, f := range results.Layout {
		fmt.Fprintf(w, "%s = %q\n", consts[f.Name], f.Name)
	}
	fmt.Fprintln(w, "# The files temple writes at the top of a directory and records there, all but the record and the")
	fmt.Fprintln(w, "# lock: one of them that checksums.json does not list is not temple's.")
	fmt.Fprintln(w, pythonTuple("_TEMPLE_FILES", names(func(f results.File) bool {
		return !f.Dir && f.Name != results.ChecksumsFile && f.Name != results.LockFile
	})))
	fmt.Fprintln(w, "# The files checksums.json lists without a checksum: they differ between identical runs.")
	fmt.Fprintln(w, pythonTuple("_UNCHECKED_FILES", names(func(f results.File) bool {
		return !f.Checksummed && f.Name != results.ChecksumsFile && f.Name != results.LockFile
	})))
	return nil
}

// pythonName is the Python constant of file name: its letters and digits in capitals, each run
// of other characters an underscore, after one (".temple.lock" is _TEMPLE_LOCK).
func pythonName(name string) string {
	var b strings.Builder
	under := true
	for _, r := range strings.ToUpper(name) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	return "_" + strings.TrimSuffix(b.String(), "_")
}

// pythonTuple is the assignment of the tuple of items to name, its lines at most 120 columns,
// the continuation lines aligned under the first item.
func pythonTuple(name string, items []string) string {
	head := name + " = ("
	if len(items) == 1 {
		return head + items[0] + ",)"
	}
	var b strings.Builder
	line := head
	for i, item := range items {
		piece := item + ","
		if i == len(items)-1 {
			piece = item + ")"
		}
		switch {
		case i == 0:
			line += piece
		case len(line)+1+len(piece) > 120:
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", len(head)) + piece
		default:
			line += " " + piece
		}
	}
	b.WriteString(line)
	return b.String()
}

// SplicePythonFiles is src (python/temple/results.py) with the lines between its markers replaced
// by PythonFiles.
func SplicePythonFiles(src []byte) ([]byte, error) {
	var err error
	text, spliceErr := spliceBetween(string(src), pythonBegin, pythonEnd, func(w io.Writer) { err = PythonFiles(w) })
	if spliceErr != nil {
		return nil, fmt.Errorf("the Python loader: %w", spliceErr)
	}
	if err != nil {
		return nil, err
	}
	return []byte(text), nil
}
