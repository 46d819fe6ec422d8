package agenttypes_test

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

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/agenttypes/agenttypestest"
	_ "github.com/temple-rl/temple/alllearners"
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
// Go file of the module, and it is the file that registers the type: the learner's own file
// declares it as a constant (learners.RMaxType, temple.HybridPriorType) and registers it
// (agenttypes.Register); the runner, the presets and the benchmark refer to the constant. A name
// spelled in a second file is a second list of learners that a new learner would have to join.
func TestATypeNameIsSpelledOnce(t *testing.T) {
	files := map[string][]string{} // type name → the files that spell it
	root := ".."
	for _, path := range agenttypestest.ModuleFiles(t, root) {
		for _, s := range stringsIn(t, path) {
			if slices.Contains(agenttypes.Names(), s) && !slices.Contains(files[s], path) {
				files[s] = append(files[s], path)
			}
		}
	}
	for _, typ := range agenttypes.Types() {
		if len(files[typ.Name]) != 1 {
			t.Errorf("agent type %s is spelled in %d files %v, want one: the file that declares the name, the others using its constant", typ.Name, len(files[typ.Name]), files[typ.Name])
		} else if !agenttypestest.SameFile(agenttypes.RegisteredBy(typ), root, files[typ.Name][0]) {
			t.Errorf("agent type %s is spelled in %s but registered by %s: a learner's file registers it", typ.Name, files[typ.Name][0], agenttypes.RegisteredBy(typ))
		}
	}
}

// TestEveryRegisteringFileIsLinked: every file of the module that calls agenttypes.Register
// registered its types in this test binary, which imports alllearners as the runner and the C
// library do: a learner in a package that alllearners does not import would be missing from
// every program.
func TestEveryRegisteringFileIsLinked(t *testing.T) {
	agenttypestest.RegisteringFilesAreLinked(t, "..")
}

// TestTheNewLearnerGuideShowsTheRegistration: docs/guides/new-learner.md sends a new learner to
// its own file alone, with a model of the call that registers it: the file it names as the model
// registers a type, and no file of this package lists a learner (its table starts empty: the
// types are what the learners' files register).
func TestTheNewLearnerGuideShowsTheRegistration(t *testing.T) {
	guide, err := os.ReadFile("../docs/guides/new-learner.md")
	if err != nil {
		t.Fatal(err)
	}
	const model = "learners/qlearning.go"
	if !strings.Contains(string(guide), "`"+model+"`") || !strings.Contains(string(guide), "agenttypes.Register") {
		t.Fatalf("the new-learner guide does not show the registration: it should name agenttypes.Register and its model, %s", model)
	}
	if !slices.ContainsFunc(agenttypes.Types(), func(typ agenttypes.Type) bool {
		return agenttypestest.SameFile(agenttypes.RegisteredBy(typ), "..", "../"+model)
	}) {
		t.Errorf("the guide's model %s registers no agent type", model)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
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
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "registry" && len(call.Args) == 3 {
						if id, ok := call.Args[2].(*ast.Ident); !ok || id.Name != "nil" {
							t.Errorf("%s makes the registry's table with entries: a central list of learners (they register from their own files)", f)
						}
					}
				}
			}
			return true
		})
	}
}
