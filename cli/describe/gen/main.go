// Command gen writes docs/reference/configuration.md from the registries of agent types and task
// families (describe.Reference), and from results.Layout the tables of files of
// docs/reference/results-format.md (describe.SpliceResultsFiles) and the Python loader's names
// of python/temple/results.py (describe.SplicePythonFiles): go generate ./cli/describe.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/temple-rl/temple/cli/describe"
)

func main() {
	var b []byte
	var err error
	switch {
	case len(os.Args) == 2:
		var buf bytes.Buffer
		err = describe.Reference(&buf)
		b = buf.Bytes()
	case len(os.Args) == 3 && os.Args[1] == "-results":
		if b, err = os.ReadFile(os.Args[2]); err == nil {
			b, err = describe.SpliceResultsFiles(b)
		}
	case len(os.Args) == 3 && os.Args[1] == "-python":
		if b, err = os.ReadFile(os.Args[2]); err == nil {
			b, err = describe.SplicePythonFiles(b)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: gen PATH (docs/reference/configuration.md) | gen -results PATH (docs/reference/results-format.md) | "+
			"gen -python PATH (python/temple/results.py)")
		os.Exit(2)
	}
	if err == nil {
		err = os.WriteFile(os.Args[len(os.Args)-1], b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
