package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeShLines are the command lines of the README's ```sh blocks, without their comments.
func readmeShLines(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "```sh":
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in && line != "":
			if k := strings.Index(line, " #"); k >= 0 {
				line = strings.TrimSpace(line[:k])
			}
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// readmeSkipped are the README lines this test does not run, and why.
var readmeSkipped = map[string]string{
	"go test ./...": "the test suite itself, of which this test is part",
	"go build -tags box2d,mujoco ./cmd/temple":                                           "needs Debian's Box2D and MuJoCo (cgo); .ci/run builds and tests them",
	"temple deep --envs Hopper-v5 --seeds 10 --sizes 250,1000,4000 --out results/hopper": "Hopper-v5 exists only in a build with -tags mujoco",
	"make python":      "needs a C compiler (cgo) and make; .ci/run installs them and runs it (through make python-test)",
	"make python-test": "needs a C compiler, make and python3; .ci/run runs it",
	"PYTHONPATH=python python3 examples/python/frozenlake_sequence.py": "needs the library make python builds; .ci/run runs it after make python-test",
	"PYTHONPATH=python python3 -m temple.bench":                        "needs the library make python builds; .ci/run runs it after make python-test",
}

// readmeSmall are the flags appended to a README line so that it runs in seconds: the same
// command on fewer runs, or a deep study on a few small models. A line not listed runs as shown.
var readmeSmall = map[string][]string{
	"temple reproduce online-maze":                                   {"--runs", "2"},
	"temple reproduce online-maze --tasks published:online-maze-4x4": {"--runs", "2", "--out", "results/online-maze-published"},
	"temple deep": {"--seeds", "2", "--sizes", "50,100", "--test", "200", "--steps", "40", "--kmax", "2"},
}

// TestReadmeCommands runs every command of the README's ```sh blocks, in order, in an empty
// directory standing for a fresh clone's working directory: the built temple binary for "temple"
// and "go run ./cmd/temple" lines, with the flags of readmeSmall. The files a line expects to
// exist — the config experiment.yaml of the cluster example, the results directories results/a
// and results/b that "temple compare" pairs — are made first, by the same binary.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds temple and runs every command of the README")
	}
	bin := filepath.Join(t.TempDir(), "temple")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("temple %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	config := "name: x\nruns: 3\nepisodes: 100\ntasks:\n  count: 5\n"
	if err := os.WriteFile(filepath.Join(work, "experiment.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, line := range readmeShLines(t) {
		if why, ok := readmeSkipped[line]; ok {
			t.Logf("skipped %q: %s", line, why)
			continue
		}
		args := strings.Fields(line)
		switch {
		case len(args) > 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/temple":
			args = append([]string{"temple"}, args[3:]...)
		case args[0] != "temple":
			t.Errorf("README line %q: neither a temple command nor listed in readmeSkipped", line)
			continue
		}
		if line == "temple compare results/a results/b" {
			run("run", "--runs", "2", "--out", "results/a")
			run("run", "--runs", "2", "--out", "results/b")
		}
		run(append(args[1:], readmeSmall[strings.Join(args, " ")]...)...)
		// The cluster example runs share 0/3 on one machine and 1/3, 2/3 on two others.
		if line == "temple run experiment.yaml --shard 0/3 --out results/x-0" {
			run("run", "experiment.yaml", "--shard", "1/3", "--out", "results/x-1")
			run("run", "experiment.yaml", "--shard", "2/3", "--out", "results/x-2")
		}
		ran++
	}
	if ran < 10 {
		t.Errorf("ran %d README commands, want the dozen or so of its sh blocks", ran)
	}
}
