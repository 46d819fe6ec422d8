package describe

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/temple-rl/temple/results"
)

// The tables of files of docs/reference/results-format.md are generated from results.Layout and
// results.TuningLayout, each between its first line and the end line of the page.
const (
	resultsBegin = "<!-- the table below is generated from results.Layout (results/layout.go): go generate ./cli/describe -->"
	tuningBegin  = "<!-- the table below is generated from results.TuningLayout (results/layout.go): go generate ./cli/describe -->"
	resultsEnd   = "<!-- end of the generated table -->"
)

// ResultsFiles writes the Markdown table of the files of a results directory (results.Layout):
// each file's name, what it holds, the function of package results that writes it, whether
// checksums.json holds its checksum, how temple merge makes it and whether temple run --force
// removes it.
func ResultsFiles(w io.Writer) {
	fmt.Fprintln(w, "| file | content | written by | checksum | `temple merge` | removed by `--force` |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, f := range results.Layout {
		fmt.Fprintf(w, "| `%s` | %s | `%s` | %s | %s | %s |\n", shown(f), f.Content, f.Writer, yesNo(f.Checksummed), f.Merge, yesNo(f.Forced))
	}
}

// TuningFiles writes the Markdown table of the files of a tuning's directory
// (results.TuningLayout): each file's name, what it holds, the function that writes it, whether
// checksums.json holds its checksum and whether temple tune --force removes it.
func TuningFiles(w io.Writer) {
	fmt.Fprintln(w, "| file | content | written by | checksum | removed by `--force` |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, f := range results.TuningLayout {
		fmt.Fprintf(w, "| `%s` | %s | `%s` | %s | %s |\n", shown(f), f.Content, f.Writer, yesNo(f.Checksummed), yesNo(f.Forced))
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// SpliceResultsFiles is page (docs/reference/results-format.md) with the lines between its
// markers replaced by ResultsFiles and TuningFiles.
func SpliceResultsFiles(page []byte) ([]byte, error) {
	text, err := splice(string(page), resultsBegin, ResultsFiles)
	if err != nil {
		return nil, err
	}
	text, err = splice(text, tuningBegin, TuningFiles)
	if err != nil {
		return nil, err
	}
	return []byte(text), nil
}

// splice is text (docs/reference/results-format.md) with the lines between the line begin and
// the next end line replaced by what table writes.
func splice(text, begin string, table func(io.Writer)) (string, error) {
	out, err := spliceBetween(text, begin, resultsEnd, table)
	if err != nil {
		return "", fmt.Errorf("the results format: %w", err)
	}
	return out, nil
}

// spliceBetween is text with the lines between the line begin and the next line end replaced
// by what table writes.
func spliceBetween(text, begin, end string, table func(io.Writer)) (string, error) {
	from := strings.Index(text, begin+"\n")
	if from < 0 {
		return "", fmt.Errorf("no line %q", begin)
	}
	from += len(begin) + 1
	to := strings.Index(text[from:], end)
	if to < 0 {
		return "", fmt.Errorf("no line %q after %q", end, begin)
	}
	var b bytes.Buffer
	b.WriteString(text[:from])
	table(&b)
	b.WriteString(text[from+to:])
	return b.String(), nil
}

// shown is a file's name as the tables show it: a directory's with a slash.
func shown(f results.File) string {
	if f.Dir {
		return f.Name + "/"
	}
	return f.Name
}
