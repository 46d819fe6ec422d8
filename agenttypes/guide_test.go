package agenttypes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestTheNewLearnerGuideNamesEveryTable: the files of this package that list learners by their
// type names (a table a new learner needs an entry in: its type, its base entry, its search space)
// are the files docs/guides/new-learner.md tells a new learner to touch, so that following the
// guide cannot leave a type without an entry (as a guide that left out search.go did).
func TestTheNewLearnerGuideNamesEveryTable(t *testing.T) {
	guide, err := os.ReadFile("../docs/guides/new-learner.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	names := Names()
	var tables []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		listed := 0
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(names, s) {
					listed++
				}
			}
			return true
		})
		if listed >= 3 { // a table, not a mention
			tables = append(tables, f)
			if !strings.Contains(string(guide), "agenttypes/"+f) {
				t.Errorf("agenttypes/%s lists learners by type name (%d of them), but the new-learner guide does not name it", f, listed)
			}
		}
	}
	if len(tables) < 3 {
		t.Errorf("found the tables %v; want at least types.go, bases.go and search.go", tables)
	}
}
