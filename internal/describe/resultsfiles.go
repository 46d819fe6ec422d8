package describe

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/temple-rl/temple/results"
)

// The table of files of docs/reference/results-format.md is generated from results.Layout, between
// these two lines of the page.
const (
	resultsBegin = "<!-- the table below is generated from results.Layout (results/layout.go): go generate ./internal/describe -->"
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
		name := f.Name
		if f.Dir {
			name += "/"
		}
		fmt.Fprintf(w, "| `%s` | %s | `%s` | %s | %s | %s |\n", name, f.Content, f.Writer, yesNo(f.Checksummed), f.Merge, yesNo(f.Forced))
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// SpliceResultsFiles is page (docs/reference/results-format.md) with the lines between its
// markers replaced by ResultsFiles.
func SpliceResultsFiles(page []byte) ([]byte, error) {
	text := string(page)
	begin := strings.Index(text, resultsBegin+"\n")
	end := strings.Index(text, resultsEnd)
	if begin < 0 || end < begin {
		return nil, fmt.Errorf("the results format has no lines %q and %q around its table of files", resultsBegin, resultsEnd)
	}
	var b bytes.Buffer
	b.WriteString(text[:begin+len(resultsBegin)+1])
	ResultsFiles(&b)
	b.WriteString(text[end:])
	return b.Bytes(), nil
}
