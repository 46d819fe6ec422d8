package results

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The results package sits below the runner: of the module it imports only agent, template,
// report and its atomic writer (the package doc), so that reading a results directory does not
// carry the runner.
func TestResultsImportsNoRunner(t *testing.T) {
	allowed := map[string]bool{"agent": true, "template": true, "report": true, "internal/atomicfile": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(path, "github.com/temple-rl/temple/"); ok && !allowed[rest] {
				t.Errorf("%s imports %s; results may import only %v of the module", file, path, allowed)
			}
		}
	}
}
