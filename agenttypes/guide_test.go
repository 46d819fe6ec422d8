package agenttypes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// stringsIn are the string literals of the Go file at path.
func stringsIn(t *testing.T, path string) []string {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(file, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// TestATypeNameIsSpelledOnce: each agent type's name is spelled, as a Go string, in one non-test
// Go file of the module: the learner's own file declares it as a constant (learners.RMaxType,
// temple.HybridPriorType; the registry's table for the types it composes, maxqinit-rmax), and the
// registry, the runner, the presets and the benchmark refer to the constant. A name spelled in a
// second file is a second list of learners that a new learner would have to join.
func TestATypeNameIsSpelledOnce(t *testing.T) {
	names := Names()
	files := map[string][]string{} // type name → the files that spell it
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil { // another module (examples/own-learner-go)
				return filepath.SkipDir
			}
			return nil
		}
		base := filepath.Base(path)
		if !strings.HasSuffix(base, ".go") || strings.HasSuffix(base, "_test.go") {
			return nil
		}
		for _, s := range stringsIn(t, path) {
			if slices.Contains(names, s) && !slices.Contains(files[s], path) {
				files[s] = append(files[s], path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if len(files[name]) != 1 {
			t.Errorf("agent type %s is spelled in %d files %v, want one: the file that declares the name, the others using its constant", name, len(files[name]), files[name])
		}
	}
}

// TestTheNewLearnerGuideNamesTheTable: docs/guides/new-learner.md sends a new learner to the file
// of this package that holds the registry's table, where its entry goes (as a guide that left out
// the search spaces' file once did not).
func TestTheNewLearnerGuideNamesTheTable(t *testing.T) {
	guide, err := os.ReadFile("../docs/guides/new-learner.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "registry" {
						tables = append(tables, f)
					}
				}
			}
			return true
		})
	}
	if len(tables) != 1 {
		t.Fatalf("the registry's table is made in %v, want one file", tables)
	}
	if !strings.Contains(string(guide), "agenttypes/"+tables[0]) {
		t.Errorf("agenttypes/%s holds the registry's table, but the new-learner guide does not name it", tables[0])
	}
}
