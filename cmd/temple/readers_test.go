package main

import (
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// temple compare, temple report and temple merge read results directories through package
// results alone: the file that holds them imports no runner.
func TestReadersImportOnlyResults(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "readers.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if rest, ok := strings.CutPrefix(path, "github.com/temple-rl/temple/"); ok && rest != "results" && rest != "report" {
			t.Errorf("readers.go imports %s; compare, report and merge may use only results and report", path)
		}
	}
}
