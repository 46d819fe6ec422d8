package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agenttypes"
)

// TestEveryBuiltInLearnerIsRegistered: every file of the module that registers an agent type
// (agenttypes.Register, from its init) is linked into the C library, which imports
// alllearners: the Python library drives every built-in learner.
func TestEveryBuiltInLearnerIsRegistered(t *testing.T) {
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
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil { // another module
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !strings.Contains(string(src), "agenttypes.Register(") && !strings.Contains(string(src), "\tRegister(Type{") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(agenttypes.Types(), func(typ agenttypes.Type) bool {
			return strings.HasSuffix(filepath.ToSlash(agenttypes.RegisteredBy(typ)), "/"+filepath.ToSlash(rel))
		}) {
			t.Errorf("%s registers agent types, but the C library has none of them: import its package from alllearners", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(agenttypes.BaseNames()) == 0 || agenttypes.BaseNames()[0] != "rmax" {
		t.Errorf("base learners %v, want the paper's rmax first", agenttypes.BaseNames())
	}
}
