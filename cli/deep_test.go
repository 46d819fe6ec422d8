package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/dynamics/deep"
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

// tinyDeep makes temple deep's default study a small one for the test.
func tinyDeep(t *testing.T) {
	saved := deepDefault
	t.Cleanup(func() { deepDefault = saved })
	deepDefault = func() deep.Spec {
		s := saved()
		s.Seeds, s.Sizes, s.Test = 2, []int{50, 100}, 200
		s.Config.Steps, s.Config.KMax = 40, 2
		return s
	}
}

// TestReproduceDeepFlags: reproduce deep takes the common preset flags, --runs being the number
// of seeds, and runs the very study temple deep runs with the same settings.
func TestReproduceDeepFlags(t *testing.T) {
	tinyDeep(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "reproduce"), filepath.Join(dir, "deep")
	out, err := temple(t, "reproduce", "deep", "--runs", "3", "--seed", "5", "--jobs", "1", "--out", a)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "seed 5, 3 seeds"; !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if out, err := temple(t, "deep", "--seeds", "3", "--seed", "5", "--jobs", "2", "--out", b); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ra, rb := deepLosses(t, a), deepLosses(t, b)
	// 3 seeds × 2 sizes × 4 models for every environment of the build (CartPole, and LunarLander
	// and Hopper with -tags box2d,mujoco).
	if len(ra) != 3*2*4*len(deepDefault().Envs) || !slices.Equal(ra, rb) {
		t.Errorf("reproduce deep and deep disagree:\n%v\n%v", ra, rb)
	}
	js, _ := os.ReadFile(filepath.Join(a, "deep_summary.json"))
	for _, want := range []string{`"seed": 5`, `"seeds": 3`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("deep_summary.json lacks %s", want)
		}
	}
	for _, c := range []struct{ args, want string }{
		{"--runs 1", "--runs = 1"},
		{"--jobs 0", "--jobs = 0"},
		{"--shard 0/2", "--shard"},
		{"--tasks published:online-maze-4x4", "--tasks"},
	} {
		args := append([]string{"reproduce", "deep", "--out", filepath.Join(dir, "bad")}, strings.Fields(c.args)...)
		if _, err := temple(t, args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one naming %s", args, err, c.want)
		}
	}
}

// deepLosses reads deep.csv of dir without its timing column: env, method, λ, run, n, loss, k.
func deepLosses(t *testing.T, dir string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "deep.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, strings.Join(r[:7], ","))
	}
	return out
}
