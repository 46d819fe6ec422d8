// Package agenttypestest holds what the tests of the registry and of the programs built on it
// share: the module's Go files, and the check that every file registering an agent type is
// linked into the program under test (the agenttypes tests, the C library's). It is for _test
// files.
package agenttypestest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agenttypes"
)

// ModuleFiles are the non-test Go files of the module under root, outside other modules
// (examples/own-learner-go) and testdata.
func ModuleFiles(t testing.TB, root string) []string {
	t.Helper()
	var out []string
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
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil { // another module
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// SameFile reports whether registered, a file as the compiler saw it (absolute, or
// module-relative under -trimpath), is path, a file under the module's root.
func SameFile(registered, root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && strings.HasSuffix(filepath.ToSlash(registered), "/"+filepath.ToSlash(rel))
}

// RegisteringFilesAreLinked fails t for every file of the module under root that registers agent
// types (a call of the registry's Register) but none of whose types this program holds: a learner
// in a package alllearners does not import is missing from every program.
func RegisteringFilesAreLinked(t testing.TB, root string) {
	t.Helper()
	for _, path := range ModuleFiles(t, root) {
		if !registers(t, path) {
			continue
		}
		if !slices.ContainsFunc(agenttypes.Types(), func(typ agenttypes.Type) bool {
			return SameFile(agenttypes.RegisteredBy(typ), root, path)
		}) {
			t.Errorf("%s registers agent types, but this program has none of them: import its package from alllearners", path)
		}
	}
}

// registers reports whether the Go file at path calls the registry's Register: agenttypes.Register,
// or Register within package agenttypes.
func registers(t testing.TB, path string) bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fun.X.(*ast.Ident); ok && x.Name == "agenttypes" && fun.Sel.Name == "Register" {
				found = true
			}
		case *ast.Ident:
			found = found || (f.Name.Name == "agenttypes" && fun.Name == "Register")
		}
		return !found
	})
	return found
}
