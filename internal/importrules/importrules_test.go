package importrules

import (
	"os/exec"
	"slices"
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
	// The readers of a results directory (temple compare, report, merge) need results alone.
	{"results", []string{"agent", "template", "report", "internal/atomicfile"},
		[]string{"experiment", "episode", "oracle", "families", "agents", "env", "stream", "memory"}},
	{"report", []string{}, nil},
	// The task families are what the C library's environment suite builds on: no runner, no plots.
	{"families", []string{"env", "continuous", "mdp", "internal"},
		[]string{"experiment", "results", "report", "gonum.org/v1/plot"}},
	{"episode", []string{"agent", "mdp", "stream"}, []string{"experiment", "results", "env", "families", "oracle"}},
	{"stream", []string{}, nil},
	{"agent", []string{"mdp", "internal"}, []string{"template", "temple", "baseline", "experiment"}},
	{"agents", []string{"agent", "temple", "baseline", "mdp", "internal"},
		[]string{"experiment", "results", "episode", "oracle", "families"}},
	{"template", []string{"mdp", "internal/lazy"}, nil},
	{"oracle", []string{"agent", "mdp", "results", "internal"}, []string{"experiment", "episode", "families", "agents"}},
	{"memory", []string{"agents", "env", "mdp", "oracle"}, []string{"experiment"}},
	{"mazepicture", []string{"env", "mdp", "template", "report"}, []string{"experiment", "results"}},
	{"experiment", []string{"agent", "agents", "env", "continuous", "mdp", "template", "families", "stream", "episode",
		"oracle", "memory", "report", "results", "internal"}, []string{"cmd", "capi"}},
}

// TestPackagesImportOnlyWhatTheirDocsAllow checks every rule against go list.
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

// listPackages are the direct imports and the dependencies of every package of the module.
func listPackages(t *testing.T) (imports, deps map[string][]string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports, deps = map[string][]string{}, map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Split(strings.TrimSpace(line), "|")
		if len(fields) != 3 {
			t.Fatalf("go list: line %q", line)
		}
		imports[fields[0]], deps[fields[0]] = strings.Fields(fields[1]), strings.Fields(fields[2])
	}
	return imports, deps
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
