package importrules

import (
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/temple-rl/temple"

// rules are the import rules of the package docs. Paths are the module's packages (a path names
// the package and those below it) or, with a dot in their first element, another module's.
var rules = []struct {
	pkg string
	// mayImport are the module's packages pkg may import itself; nil leaves them unchecked.
	mayImport []string
	// mustNotDepend are packages that must not be among pkg's dependencies, however reached.
	mustNotDepend []string
}{
	// The readers of a results directory (temple compare, report, merge) need results alone, and
	// of the learners only the seam (metrics, phases): no learner comes along. oracle may come: a
	// task's record holds the oracle's (oracle.Record), and oracle brings the seam and the model.
	{"results", []string{"agent", "oracle", "template", "stats", "plots", "internal/atomicfile", "internal/regular"},
		[]string{"experiment", "episode", "families", "agenttypes", "learners", "temple", "baseline",
			"env", "stream", "memory"}},
	{"stats", []string{}, nil},
	{"plots", []string{"stats", "internal/atomicfile"}, nil},
	// The task families are what the C library's environment suite builds on: no runner, no plots.
	{"families", []string{"env", "continuous", "mdp", "stream", "internal"},
		[]string{"experiment", "results", "plots", "gonum.org/v1/plot"}},
	{"episode", []string{"agent", "mdp", "stream"},
		[]string{"experiment", "results", "env", "families", "oracle", "learners", "temple", "baseline"}},
	{"stream", []string{}, nil},
	{"cluster", []string{}, nil},
	// The seam: what a learner is to the rest of temple, and nothing of any learner.
	{"agent", []string{"mdp", "internal"}, []string{"learners", "template", "temple", "baseline", "experiment"}},
	{"learners", []string{"agent", "agenttypes", "mdp", "internal"}, []string{"template", "temple", "baseline", "experiment"}},
	// The learners' shared test loop and benchmark mazes: the seam and a task, nothing of a learner.
	{"agent/agenttest", []string{"agent", "env", "mdp"}, []string{"learners", "temple", "baseline", "agenttypes", "experiment"}},
	{"baseline", []string{"agent", "agenttypes", "learners", "mdp", "internal"}, []string{"temple", "experiment", "results"}},
	{"temple", []string{"agent", "agenttypes", "learners", "template", "mdp", "internal"}, []string{"baseline", "experiment", "results"}},
	// The registry sits below the learners, which register themselves from their own files: it
	// knows none of them. Package alllearners imports them for their registrations.
	{"agenttypes", []string{"agent", "external", "mdp", "internal"},
		[]string{"learners", "temple", "baseline", "experiment", "results", "episode", "oracle", "families"}},
	{"alllearners", []string{"learners", "baseline", "temple"}, nil},
	{"template", []string{"mdp"}, nil},
	// A family's measures read its true models and their templates, nothing of the runner.
	{"measures", []string{"mdp", "template"}, []string{"experiment", "results", "learners", "agenttypes", "families", "env"}},
	// The oracle computes its record (Record) and stores nothing: no results directory, no figures.
	{"oracle", []string{"agent", "mdp", "internal"},
		[]string{"experiment", "episode", "families", "agenttypes", "learners", "temple", "baseline", "results", "plots"}},
	{"memory", []string{"agenttypes", "env", "mdp", "oracle", "internal/sysmem"}, []string{"experiment"}},
	{"mazepicture", []string{"env", "mdp", "template", "stats", "plots"}, []string{"experiment", "results"}},
	// The C library carries the learners, the task families and the episode rules, and the
	// runner's cell for a Python learner's worker (temple_cell_run: the runner's own code, so that
	// a Python learner's results are those of any agent, a results.CellResult); not the commands
	// (capi's package doc).
	{"capi", []string{"agent", "agenttypes", "alllearners", "template", "stream", "episode", "families", "env", "mdp", "experiment", "results", "external", "stats",
		"internal/sysmem", "internal/yamlkeys"}, []string{"cli", "tune", "mazepicture", "presets"}},
	// Learners outside temple: the seam and the standard library alone.
	{"external", []string{"agent"}, []string{"experiment", "results", "agenttypes", "learners"}},
	{"experiment", []string{"agent", "agenttypes", "alllearners", "learners", "baseline", "temple", "env", "continuous", "mdp", "template", "families",
		"stream", "episode", "oracle", "memory", "stats", "plots", "results", "external", "cluster", "internal"}, []string{"cmd", "cli", "capi"}},
	// Sweeps, scaling studies and shards run their points through the runner and write results' files.
	{"study", []string{"experiment", "results", "cluster", "mdp", "template"}, []string{"cmd", "cli", "capi", "tune", "presets"}},
	// The presets are specs built on the runner and the registries; only the commands use them.
	{"presets", []string{"experiment", "agenttypes", "families", "learners", "baseline", "temple", "env", "internal"},
		[]string{"cmd", "cli", "capi", "tune"}},
	// Tuning is a client of the runner: its trials are the runner's cells.
	{"tune", []string{"experiment", "agenttypes", "results", "cluster", "internal"}, []string{"cmd", "capi", "presets"}},
	// The doc generator reads the registries, the spec and the results layout: it stands above
	// them, below the command line that prints what it reads.
	{"cli/describe", []string{"agenttypes", "experiment", "families", "results"}, nil},
}

// internalImportsUp are the packages of internal/ that import packages of the module outside it,
// with those imports: none, every package of internal/ is a low helper that imports nothing of
// the module but internal/ (the learners' shared test loop and benchmark mazes are
// agent/agenttest).
var internalImportsUp = map[string][]string{}

// TestInternalHoldsLowHelpers checks that the packages of internal/ import nothing of the module
// above internal/ but those of internalImportsUp: a package that reads the registries or the
// runner (a generator, say) lives above them.
func TestInternalHoldsLowHelpers(t *testing.T) {
	imports, _ := listPackages(t)
	for pkg, imps := range imports {
		rel, ok := strings.CutPrefix(pkg, module+"/")
		if !ok || !strings.HasPrefix(rel, "internal/") {
			continue
		}
		for _, imp := range imps {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if ok && !strings.HasPrefix(dep, "internal/") && !slices.Contains(internalImportsUp[rel], dep) {
				t.Errorf("%s imports %s, outside internal/: internal/ holds the low helpers the module builds on; "+
					"a package that imports %s lives above it", rel, dep, dep)
			}
		}
	}
}

// TestPackagesImportOnlyWhatTheirDocsAllow checks every rule against the module's imports.
func TestPackagesImportOnlyWhatTheirDocsAllow(t *testing.T) {
	imports, deps := listPackages(t)
	for _, r := range rules {
		path := full(r.pkg)
		if _, ok := imports[path]; !ok {
			t.Errorf("%s: no such package in the module", r.pkg)
			continue
		}
		if r.mayImport != nil {
			for _, imp := range imports[path] {
				if strings.HasPrefix(imp, module+"/") && !slices.ContainsFunc(r.mayImport, within(imp)) {
					t.Errorf("%s imports %s; it may import only %v of the module", r.pkg, imp, r.mayImport)
				}
			}
		}
		for _, banned := range r.mustNotDepend {
			if i := slices.IndexFunc(deps[path], func(dep string) bool { return within(dep)(banned) }); i >= 0 {
				t.Errorf("%s depends on %s, which it must not (%v)", r.pkg, deps[path][i], r.mustNotDepend)
			}
		}
	}
}

// listPackages are the direct imports and the dependencies of every package of the module, read
// from its Go files other than tests (whatever their build constraints: a rule holds on every
// platform). The files are read here rather than through go list so that go test's cache sees
// them: a change of imports runs the test again. A dependency is a package of the module reached
// through the module's imports, or another module's package that one of those imports.
func listPackages(t *testing.T) (imports, deps map[string][]string) {
	t.Helper()
	imports = map[string][]string{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := module + "/" + filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(imports[pkg], p) {
				imports[pkg] = append(imports[pkg], p)
			}
		}
		if _, ok := imports[pkg]; !ok {
			imports[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	deps = map[string][]string{}
	for pkg := range imports {
		deps[pkg] = closure(imports, pkg)
	}
	return imports, deps
}

// closure is every package pkg depends on, in sorted order.
func closure(imports map[string][]string, pkg string) []string {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(p string) {
		for _, imp := range imports[p] {
			if !seen[imp] {
				seen[imp] = true
				visit(imp)
			}
		}
	}
	visit(pkg)
	return slices.Sorted(maps.Keys(seen))
}

// full is the import path of a rule's path.
func full(path string) string {
	if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
		return path
	}
	return module + "/" + path
}

// within reports whether a rule's path names import path p: the package itself or one below it.
func within(p string) func(string) bool {
	return func(rule string) bool {
		f := full(rule)
		return p == f || strings.HasPrefix(p, f+"/")
	}
}
