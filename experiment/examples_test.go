package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleConfigsLoad: every experiment config under examples/ loads and validates as a spec,
// so a renamed key or family cannot leave an example behind (the MDP files, format:
// temple-mdp/v1, and the Kubernetes Job are not configs; examples/own-learner-go's config names a
// learner that module registers, and .ci/run runs it there; examples/benchmark's are benchmark
// files, which package benchmark's TestBenchmarkFilesLoad loads).
func TestExampleConfigsLoad(t *testing.T) {
	paths, err := filepath.Glob("../examples/*/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no example configs found (%v)", err)
	}
	configs := 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if text := string(b); strings.Contains(text, "\nformat: temple-mdp/") || strings.Contains(text, "\napiVersion:") ||
			strings.HasPrefix(path, "../examples/own-learner-go/") || strings.HasPrefix(path, "../examples/benchmark/") {
			continue
		}
		configs++
		t.Run(path, func(t *testing.T) {
			if _, err := Load(path); err != nil {
				t.Error(err)
			}
		})
	}
	if configs < 10 {
		t.Errorf("%d example configs loaded, want every one of examples/*/*.yaml's (at least 10)", configs)
	}
}
