package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDeep(t *testing.T) {
	dir := t.TempDir()
	out, err := temple(t, "deep", "--envs", "cartpole-v1", "--out", dir, "--seeds", "2", "--sizes", "50,100", "--test", "200", "--steps", "40", "--kmax", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"progress: 16/16 models", "| CartPole-v1 | absolute |", "0.05893", "Absolute worst:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"deep.csv", "deep_summary.json", "table.md", "figures/deep_cartpole_v1.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	js, _ := os.ReadFile(filepath.Join(dir, "deep_summary.json"))
	for _, want := range []string{`"version"`, `"wall_seconds"`, `"seeds": 2`, `"env": "CartPole-v1"`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("deep_summary.json lacks %s", want)
		}
	}
}

func TestDeepErrors(t *testing.T) {
	for _, args := range [][]string{
		{"deep", "--envs", "Pong"},
		{"deep", "--seeds", "1"},
		{"deep", "--sizes", "100,50"},
		{"deep", "--lr", "-1"},
	} {
		if out, err := temple(t, args...); err == nil {
			t.Errorf("%v: no error\n%s", args, out)
		}
	}
}
