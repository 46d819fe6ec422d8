package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// temple runs the command line with args and returns what it printed and its error.
func temple(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := root()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestRunWithConfig(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 3\n"), 0o644)
	out, err := temple(t, "run", config, "--out", filepath.Join(dir, "results"), "--jobs", "2", "--seed", "7")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"experiment tiny, seed 7, 2 runs x 3 agents", "O-TempLe", "paired advantage over RMax", "progress: 18/18 tasks",
		"Against the optimal policy of each task's true model", "share of optimal", "ε-mistakes",
		"Paired differences (two-sided paired t-test over the 2 runs, Holm-adjusted p, significant below 0.05):"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"per_task.csv", "summary.json", "oracle.csv", "regret.csv", "figures/per_task_reward.png", "figures/per_task_reward.svg", "figures/eps_mistakes.png"} {
		if _, err := os.Stat(filepath.Join(dir, "results", f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
}

// TestResultsAreNeverReplacedSilently: a preset into a directory holding another experiment's
// results is refused, naming both and the flags; --force replaces them.
func TestResultsAreNeverReplacedSilently(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "results")
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 1\nepisodes: 20\ntasks:\n  count: 2\n"), 0o644)
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	before, err := os.ReadFile(filepath.Join(out, "per_task.csv"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = temple(t, "reproduce", "finite-model", "--out", out)
	for _, want := range []string{`experiment "tiny"`, `experiment "finite-model"`, "--out", "--force"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v, want it to contain %q", err, want)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(out, "per_task.csv")); !bytes.Equal(after, before) {
		t.Error("the refused run changed per_task.csv")
	}
	other := filepath.Join(dir, "other.yaml")
	os.WriteFile(other, []byte("name: other\nruns: 1\nepisodes: 10\ntasks:\n  count: 1\nagents:\n  - type: rmax\n"), 0o644)
	if text, err := temple(t, "run", other, "--out", out, "--force"); err != nil {
		t.Fatalf("--force: %v\n%s", err, text)
	}
	cells, _ := filepath.Glob(filepath.Join(out, "cells", "*.json"))
	if len(cells) != 1 || filepath.Base(cells[0]) != "run-000--RMax.json" {
		t.Errorf("cells after --force: %v, want RMax's only", cells)
	}
}

func TestConfigErrorsReachTheUser(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "bad.yaml")
	os.WriteFile(config, []byte("runs: 2\nepisods: 3\n"), 0o644)
	if _, err := temple(t, "run", config); err == nil || !strings.Contains(err.Error(), `line 2: a config has no key "episods"`) {
		t.Errorf("error = %v, want the misspelt key and its line", err)
	}
	if _, err := temple(t, "run", "--runs", "0", "--out", dir); err == nil || !strings.Contains(err.Error(), "runs = 0") {
		t.Errorf("error = %v, want runs = 0 named", err)
	}
	if _, err := temple(t, "run", filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("error = %v, want the missing file named", err)
	}
	if _, err := temple(t, "reproduce", "online-mace"); err == nil || !strings.Contains(err.Error(), `no preset "online-mace"`) {
		t.Errorf("error = %v, want the unknown preset named", err)
	}
}

func TestReproduceList(t *testing.T) {
	out, err := temple(t, "reproduce", "--list")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"online-maze", "finite-model", "finite-model-baselines", "gamma-sweep", "varying-size", "gaussian", "varying-actions", "tau-sweep"} {
		if !strings.Contains(out, name) {
			t.Errorf("--list lacks %s", name)
		}
	}
}

func TestInspect(t *testing.T) {
	out, err := temple(t, "inspect", "--preset", "finite-model")
	if err != nil {
		t.Fatal(err)
	}
	// Slip 0.4 everywhere: the sorted vectors are (0.6,0.2,0.2) and (0.8,0.2), with rewards by goal.
	for _, want := range []string{"experiment finite-model, run 0: 50 tasks", "template gap τ", "whole sequence:", "p = [0.6 0.2 0.2]", "p = [0.8 0.2]"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out)
		}
	}
}

// An unknown preset is an error with a did-you-mean, not a crash.
func TestInspectUnknownPreset(t *testing.T) {
	out, err := temple(t, "inspect", "--preset", "onlin-maze")
	if err == nil || !strings.Contains(err.Error()+out, `did you mean "online-maze"?`) {
		t.Errorf("inspect --preset onlin-maze: err %v, output %q; want an error with a did-you-mean", err, out)
	}
}

func TestInterruptSaysHowToResume(t *testing.T) {
	out := t.TempDir()
	cmd := root()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cmd.SetArgs([]string{"reproduce", "online-maze", "--runs", "2", "--out", out})
	cmd.SetOut(io.Discard)
	err := cmd.ExecuteContext(ctx)
	want := "interrupted: 0 finished cells are saved under " + out + "; run the same command again (temple reproduce online-maze --out " + out + " --runs 2) to resume"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v\nwant it to contain %q", err, want)
	}
}

func TestCompareTwoDirectoriesOfTheSameTasks(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, out := range []string{a, b} {
		if _, err := temple(t, "reproduce", "varying-actions", "--runs", "3", "--out", out); err != nil {
			t.Fatal(err)
		}
	}
	text, err := temple(t, "compare", a, b)
	if err != nil {
		t.Fatal(err)
	}
	// Same spec, same seed: every difference is exactly 0, so the t-test's p-value is 1 and the
	// TOST shows the two level at any margin.
	if !strings.Contains(text, "O-TempLe ("+a+")") || !strings.Contains(text, "0.00 ± 0.00") ||
		!strings.Contains(text, "O-TempLe ("+a+") and O-TempLe ("+b+") are level") {
		t.Errorf("output:\n%s", text)
	}
	if text, err = temple(t, "compare", a); err != nil || !strings.Contains(text, "O-TempLe") || !strings.Contains(text, "RMax") {
		t.Errorf("against the baseline: %v\n%s", err, text)
	}
	if _, err := os.Stat(filepath.Join(a, "compare.csv")); err != nil {
		t.Error(err)
	}
	if _, err := temple(t, "compare", a, t.TempDir()); err == nil {
		t.Error("a directory without results was accepted")
	}
}

// compare DIR without flags tests what temple run tested and printed (results.Verdicts): on an
// experiment with no agent named RMax, no baseline and no output.verdicts, every pair. It refused
// such a directory, asking for --pair, --baseline or --all.
func TestCompareWithoutFlagsTestsWhatTheRunTested(t *testing.T) {
	dir := t.TempDir()
	config, out := filepath.Join(dir, "norm.yaml"), filepath.Join(dir, "r")
	os.WriteFile(config, []byte("name: no-rmax\nruns: 3\nepisodes: 10\ntasks:\n  count: 2\n"+
		"agents:\n  - type: q-learning\n  - type: delayed-q\n  - type: mbie-eb\n"), 0o644)
	ran, err := temple(t, "run", config, "--out", out, "--jobs", "1")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, ran)
	}
	text, err := temple(t, "compare", out)
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, text)
	}
	verdicts := verdictLines(t, text)
	if len(verdicts) != 3 { // Q-learning, Delayed-Q and MBIE-EB: three pairs
		t.Fatalf("%d verdicts, want one for each of the 3 pairs:\n%s", len(verdicts), text)
	}
	for _, v := range verdicts {
		if !strings.Contains(ran, "  "+v+"  ") {
			t.Errorf("compare's verdict %q is not one temple run printed:\n%s", v, ran)
		}
	}
	// --baseline compares every other agent with the one named, and nothing else.
	if text, err = temple(t, "compare", out, "--baseline", "MBIE-EB"); err != nil {
		t.Fatalf("--baseline MBIE-EB: %v\n%s", err, text)
	}
	verdicts = verdictLines(t, text)
	if len(verdicts) != 2 || !strings.Contains(verdicts[0], "MBIE-EB") || !strings.Contains(verdicts[1], "MBIE-EB") {
		t.Errorf("--baseline MBIE-EB: verdicts %q, want Q-learning's and Delayed-Q's against MBIE-EB", verdicts)
	}
}

// verdictLines are the verdicts temple compare printed in text, one a line.
func verdictLines(t *testing.T, text string) []string {
	t.Helper()
	_, verdicts, ok := strings.Cut(text, "\nVerdicts")
	if !ok {
		t.Fatalf("no verdicts:\n%s", text)
	}
	verdicts, _, _ = strings.Cut(verdicts, "\nWritten:")
	var lines []string
	for _, line := range strings.Split(verdicts, "\n")[1:] {
		if v := strings.TrimSpace(line); v != "" {
			lines = append(lines, v)
		}
	}
	return lines
}

// --margin sets the equivalence margin of every comparison, written into compare.csv; a margin
// that is not a positive number or percentage is refused, naming the flag.
func TestCompareMargin(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	if _, err := temple(t, "reproduce", "varying-actions", "--runs", "3", "--out", out); err != nil {
		t.Fatal(err)
	}
	text, err := temple(t, "compare", out, "--all", "--margin", "0.5")
	if err != nil || !strings.Contains(text, "Margins (--margin 0.5): absolute of each pair.") {
		t.Fatalf("--margin 0.5: %v\n%s", err, text)
	}
	b, err := os.ReadFile(filepath.Join(out, "compare.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !strings.HasSuffix(rows[0], ",verdict,margin,p_tost,p_tost_holm,mde") || len(rows) < 2 {
		t.Fatalf("compare.csv:\n%s", b)
	}
	for _, row := range rows[1:] {
		if fields := strings.Split(row, ","); fields[len(fields)-4] != "0.5" {
			t.Errorf("row %q: margin %q, want 0.5", row, fields[len(fields)-4])
		}
	}
	for _, bad := range []string{"abc", "0", "-5%", "%"} {
		if _, err := temple(t, "compare", out, "--all", "--margin", bad); err == nil || !strings.Contains(err.Error(), "--margin: margin \""+bad+"\"") {
			t.Errorf("--margin %s: %v", bad, err)
		}
	}
}

// The example Slurm script, run three times as the array tasks of a job would, gives shards
// that merge into the bytes of an unsharded run.
func TestSlurmScriptShardsMergeToTheUnshardedResults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs a small experiment four times")
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "temple"), "../cmd/temple").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "small.yaml")
	os.WriteFile(config, []byte("name: small\nruns: 3\nepisodes: 50\ntasks:\n  family: online-maze\n  count: 3\n"+
		"sweep:\n  - parameter: tau\n    values: [0.1, 0.3]\n"), 0o644)
	script, _ := filepath.Abs("../examples/cluster/slurm.sbatch")
	var shards []string
	for i := range 3 {
		cmd := exec.Command("bash", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "CONFIG="+config, "OUT="+filepath.Join(dir, "r"),
			fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_CPUS_PER_TASK=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, out)
		}
		shards = append(shards, filepath.Join(dir, fmt.Sprintf("r-shard-%d", i)))
	}
	merged := filepath.Join(dir, "merged")
	if _, err := temple(t, append([]string{"merge", merged}, shards...)...); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole")
	if _, err := temple(t, "run", config, "--out", whole); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"sweep.csv", "tau-0.1/per_task.csv", "tau-0.3/metrics.csv", "tau-0.3/summary.json", "tau-0.1/tasks.json"} {
		a, errA := os.ReadFile(filepath.Join(merged, file))
		b, errB := os.ReadFile(filepath.Join(whole, file))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: merged and unsharded differ (%v, %v)", file, errA, errB)
		}
	}
}

// The example Kubernetes Job tells temple the number of shards it runs: TEMPLE_SHARDS must equal
// the Job's completions.
func TestKubernetesJobShardsMatchItsCompletions(t *testing.T) {
	b, err := os.ReadFile("../examples/cluster/job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Template       struct {
				Spec struct {
					Containers []struct {
						Command []string `yaml:"command"`
						Env     []struct{ Name, Value string }
					}
				}
			}
		}
	}
	if err := yaml.Unmarshal(b, &job); err != nil {
		t.Fatal(err)
	}
	c := job.Spec.Template.Spec.Containers[0]
	shards := ""
	for _, e := range c.Env {
		if e.Name == "TEMPLE_SHARDS" {
			shards = e.Value
		}
	}
	if job.Spec.CompletionMode != "Indexed" || shards != fmt.Sprint(job.Spec.Completions) || !strings.Contains(strings.Join(c.Command, " "), "$JOB_COMPLETION_INDEX") {
		t.Errorf("job: mode %q, completions %d, TEMPLE_SHARDS %q, command %v", job.Spec.CompletionMode, job.Spec.Completions, shards, c.Command)
	}
}

func TestReproduceListsDeep(t *testing.T) {
	text, err := temple(t, "reproduce", "--list")
	if err != nil || !strings.Contains(text, "deep ") || !strings.Contains(text, "Appendix F.6") {
		t.Errorf("reproduce --list: %v\n%s", err, text)
	}
}

// Inspecting simulator tasks estimates their templates and says how: samples, pairs counted,
// groups shared with earlier tasks, the error bound.
func TestInspectSimulatorTasks(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "sim.yaml")
	os.WriteFile(config, []byte(`name: sim
start: random-per-episode
oracle: {enabled: false}
tasks:
  family: mountaincar
  count: 2
  bins: [8, 8]
  variants: [{}, {gravity: 0.002}]
`), 0o644)
	out, err := temple(t, "inspect", config, "--samples", "20000", "--min-count", "20")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"MountainCar-v0 8x8 bins", "MountainCar-v0 (gravity=0.002) 8x8 bins", "of 195", "shared)", "L1 ≤",
		"templates estimated from 20000 uniformly random steps", "at least 20 samples", "not Markov", "whole sequence:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestHundredthsDropsTheSignOfZero(t *testing.T) {
	for x, want := range map[float64]string{-1e-15: "0.00", 1e-15: "0.00", -0.004: "0.00", -0.006: "-0.01", 2.5: "2.50"} {
		if got := fmt.Sprintf("%.2f", hundredths(x)); got != want {
			t.Errorf("hundredths(%g) prints %s, want %s", x, got, want)
		}
	}
}

// A run sets the Go runtime's soft memory limit to heapShare of its max_memory, unless
// GOMEMLIMIT is set: the collector then works harder near the limit instead of letting the heap
// grow to twice its live data.
func TestRunLimitsTheHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 5\nmax_memory: 500\ntasks:\n  count: 2\n"), 0o644)
	t.Setenv("GOMEMLIMIT", "") // restored after the test
	os.Unsetenv("GOMEMLIMIT")  // unset, not empty, for the first run
	if out, err := temple(t, "run", config, "--out", filepath.Join(dir, "a")); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(450<<20); got != want {
		t.Errorf("soft memory limit %d after a run with max_memory 500, want %d (90%%)", got, want)
	}
	debug.SetMemoryLimit(before)
	t.Setenv("GOMEMLIMIT", "1GiB") // read by the runtime at start only: the run must leave the limit alone
	if out, err := temple(t, "run", config, "--out", filepath.Join(dir, "b")); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("soft memory limit %d after a run under GOMEMLIMIT, want it unchanged (%d)", got, before)
	}
}

// temple2 is temple with standard output and standard error apart.
func temple2(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := root()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	err = cmd.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

// Every flag error reads alike, names the flag and comes before anything is printed.
func TestFlagErrorsInOneStyle(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--seed", "-1"}, "--seed = -1, want an integer >= 0"},
		{[]string{"run", "--runs", "-1"}, "--runs = -1, want at least 1"},
		{[]string{"run", "--jobs", "0"}, "--jobs = 0, want at least 1"},
		{[]string{"run", "--jobs", "two"}, "--jobs = two, want an integer"},
		{[]string{"reproduce", "online-maze", "--runs", "0"}, "--runs = 0, want at least 1"},
		{[]string{"deep", "--lr", "0"}, "--lr = 0, want a number above 0"},
		{[]string{"deep", "--sizes", "10,x"}, "--sizes = 10,x, want integers separated by commas"},
		{[]string{"inspect", "--run", "-1"}, "--run = -1, want at least 0"},
		{[]string{"run", "--shard", "3/2"}, "--shard = 3/2, want i/n with 0 <= i < n"},
	} {
		stdout, stderr, err := temple2(t, append(c.args, "--out", out)...)
		if c.args[0] == "inspect" {
			stdout, stderr, err = temple2(t, c.args...)
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "strconv") {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
		if stdout != "" || stderr != "" {
			t.Errorf("%v: printed before its error:\n%s%s", c.args, stdout, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused command made %s", out)
	}
}

// A run that cannot start (a missing task file, a simulator with the oracle on) prints nothing
// and makes no directory.
func TestFailedRunLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	for name, config := range map[string]string{
		"missing":   "tasks:\n  family: custom\n  file: nothere.json\n",
		"simulator": "tasks:\n  family: mountaincar\n",
	} {
		path := filepath.Join(dir, name+".yaml")
		os.WriteFile(path, []byte(config), 0o644)
		out := filepath.Join(dir, "runs", name)
		stdout, stderr, err := temple2(t, "run", path, "--out", out)
		if err == nil || stdout != "" || stderr != "" {
			t.Errorf("%s: error %v, printed %q %q; want an error alone", name, err, stdout, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the failed run made %s", name, out)
		}
	}
}

// A missing task file is refused naming the config, the key and its line, and the path rule; once
// a run is done its task file may go: inspect --results takes the tasks from tasks.json (it read
// spec.yaml as a config, whose task file it then required beside the results).
func TestMissingTaskFileNamedAndNotNeededAfterTheRun(t *testing.T) {
	dir := t.TempDir()
	config, out := filepath.Join(dir, "c.yaml"), filepath.Join(dir, "r")
	os.WriteFile(config, []byte("runs: 1\nepisodes: 5\ntasks:\n  family: custom\n  file: inventory.json\n"), 0o644)
	_, err := temple(t, "run", config, "--out", out)
	if want := "config " + config + `: line 5: tasks.file = "inventory.json": no such file ` + filepath.Join(dir, "inventory.json") +
		" (a relative path in a config is read from the config's directory, " + dir; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v\nwant %s…", err, want)
	}
	b, err := os.ReadFile("../examples/custom-mdp/inventory.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "inventory.json"), b, 0o644)
	if text, err := temple(t, "run", config, "--out", out); err != nil {
		t.Fatalf("run: %v\n%s", err, text)
	}
	os.Remove(filepath.Join(dir, "inventory.json"))
	if text, err := temple(t, "inspect", "--results", out); err != nil || !strings.Contains(text, "tasks") {
		t.Errorf("inspect --results without the task file: %v\n%s", err, text)
	}
}

// Progress goes to standard error; standard output holds the header and the results.
func TestProgressOnStderr(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 3\n"), 0o644)
	stdout, stderr, err := temple2(t, "run", config, "--out", filepath.Join(dir, "r"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout, "progress:") || !strings.Contains(stderr, "progress: 18/18 tasks") {
		t.Errorf("progress lines on stdout or missing from stderr:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if !strings.HasPrefix(stdout, "temple ") || !strings.Contains(stdout, "Mean per-task reward") {
		t.Errorf("stdout lacks the header or the results:\n%s", stdout)
	}
}

// compare, report, merge and inspect --results say plainly when a directory is missing or is not
// a results directory.
func TestReadersNameAMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	os.Mkdir(plain, 0o755)
	missing := filepath.Join(dir, "missing")
	for _, args := range [][]string{{"compare", missing}, {"compare", missing, plain}, {"report", missing}, {"merge", filepath.Join(dir, "m"), missing},
		{"inspect", "--results", missing}} {
		if _, err := temple(t, args...); err == nil || !strings.Contains(err.Error(), missing+": no such directory") {
			t.Errorf("%v: error %v, want the missing directory named", args, err)
		}
	}
	for _, args := range [][]string{{"compare", plain}, {"report", plain}, {"inspect", "--results", plain}} {
		if _, err := temple(t, args...); err == nil || !strings.Contains(err.Error(), plain+" is not a results directory") {
			t.Errorf("%v: error %v, want it said that %s is not a results directory", args, err, plain)
		}
	}
}

// temple run - reads the config from standard input; its errors name standard input.
func TestRunReadsAConfigFromStdin(t *testing.T) {
	run := func(config string, args ...string) (string, error) {
		cmd := root()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetIn(strings.NewReader(config))
		cmd.SetArgs(append([]string{"run", "-"}, args...))
		err := cmd.ExecuteContext(context.Background())
		return out.String(), err
	}
	dir := t.TempDir()
	out, err := run("name: piped\nruns: 2\nepisodes: 10\ntasks:\n  count: 2\n", "--out", filepath.Join(dir, "r"), "--print")
	if err != nil || !strings.Contains(out, "name: piped") {
		t.Errorf("run - --print: %v\n%s", err, out)
	}
	if _, err := run("runs: two\n"); err == nil || !strings.Contains(err.Error(), `config (standard input): line 1: runs = "two"`) {
		t.Errorf("run - with a bad config: %v", err)
	}
	// A missing task file is named with the key, its line and the rule of standard input's paths
	// (issue 52: it was "tasks: custom: read nothere.json: open nothere.json: no such file").
	wd, _ := os.Getwd()
	_, err = run("name: piped\ntasks: {family: custom, file: nothere.json}\n", "--out", filepath.Join(dir, "missing"))
	if want := `config (standard input): line 2: tasks.file = "nothere.json": no such file ` + filepath.Join(wd, "nothere.json") +
		" (a relative path in a config read from standard input is read from the working directory, " + wd + ")"; err == nil || err.Error() != want {
		t.Errorf("run - with a missing task file:\nerror %v\nwant  %s", err, want)
	}
}

// The comparisons a config names (output.verdicts) are what temple run prints and what temple
// compare tests by default, with Holm's correction over them alone; --all still tests every pair.
func TestVerdictsNamedInTheConfig(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "named.yaml")
	os.WriteFile(config, []byte("name: named\nruns: 3\nepisodes: 20\ntasks:\n  count: 3\n"+
		"output:\n  verdicts: [\"O-TempLe:Q-learning\"]\n"), 0o644)
	out := filepath.Join(dir, "results")
	// lines are the lines of text's section that begins with the line holding heading.
	lines := func(text, heading string) []string {
		_, after, ok := strings.Cut(text, heading)
		if !ok {
			return nil
		}
		_, after, _ = strings.Cut(after, "\n")
		block, _, _ := strings.Cut(after, "\n\n")
		return strings.Split(strings.TrimSpace(block), "\n")
	}
	text, err := temple(t, "run", config, "--out", out, "--jobs", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if got := lines(text, "Holm-adjusted over the comparisons of output.verdicts alone"); len(got) != 1 || !strings.Contains(got[0], "Q-learning") {
		t.Errorf("temple run's verdicts %q, want the one named:\n%s", got, text)
	}
	text, err = temple(t, "compare", out)
	if got := lines(text, "Verdicts (paired"); err != nil || len(got) != 1 || !strings.Contains(got[0], "O-TempLe") || !strings.Contains(got[0], "Q-learning") {
		t.Errorf("temple compare's verdicts %q (%v), want the one named:\n%s", got, err, text)
	}
	if text, err = temple(t, "compare", out, "--all"); err != nil || len(lines(text, "Verdicts (paired")) != 3 {
		t.Errorf("--all: %v\n%s", err, text)
	}
}

// TestAnUnknownFlagIsSuggestedItsNeighbour: a mistyped flag names the command's closest one.
func TestAnUnknownFlagIsSuggestedItsNeighbour(t *testing.T) {
	_, err := temple(t, "run", "--runz", "2")
	if err == nil || err.Error() != `unknown flag: --runz; did you mean "--runs"?` {
		t.Fatalf("error %v", err)
	}
}
