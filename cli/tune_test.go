//go:build unix

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/tune"
)

// tuneConfig is three agents, a template learner over its base among them, on small mazes.
const tuneConfig = "name: tiny\nruns: 2\nepisodes: 120\ntasks:\n  family: online-maze\n  count: 4\n" +
	"agents:\n  - type: o-temple\n  - type: rmax\n  - type: q-learning\n"

// temple tune killed (SIGKILL) mid-search and run again writes the same bytes as a search never
// interrupted: trials, record and tuned config.
func TestTuneKilledAndRunAgainGivesTheSameBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and tunes twice")
	}
	bin := buildTemple(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte(tuneConfig), 0o644)
	args := func(out string) []string {
		return []string{"tune", config, "--out", out, "--budget", "6", "--runs", "1", "--seed", "5"}
	}
	whole, killed := filepath.Join(dir, "whole"), filepath.Join(dir, "killed")
	if out, err := exec.Command(bin, args(whole)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// Killed once the second agent's trials have begun, and again run to the end.
	killWhen(t, exec.Command(bin, args(killed)...), "the RMax trials", exists(filepath.Join(killed, "trials", "RMax", "cells", "*.json")))
	if _, err := os.Stat(filepath.Join(killed, results.TunedFile)); !os.IsNotExist(err) {
		t.Fatal("the killed search had written its tuned config")
	}
	if out, err := exec.Command(bin, args(killed)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sameResults(t, killed, whole)
}

// A tuned config is refused on the seeds of its tuning, naming the seed; on a fresh seed its
// summary.json, output and report.html say how each agent was tuned.
func TestTunedConfigIsJudgedOnFreshSeeds(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte(tuneConfig), 0o644)
	tuning := filepath.Join(dir, "tuning")
	text, err := temple(t, "tune", config, "--out", tuning, "--budget", "4", "--runs", "1", "--seed", "9")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for _, want := range []string{"O-TempLe", "Q-learning", "4 settings", "Tuned config: " + filepath.Join(tuning, "tuned.yaml")} {
		if !strings.Contains(text, want) {
			t.Errorf("temple tune's output lacks %q:\n%s", want, text)
		}
	}
	tuned := filepath.Join(tuning, results.TunedFile)
	for _, seed := range []uint64{9, tune.DesignSeed(9)} {
		s := strconv.FormatUint(seed, 10)
		_, err := temple(t, "run", tuned, "--seed", s, "--out", filepath.Join(dir, "refused"))
		if err == nil || !strings.Contains(err.Error(), "seed "+s+" was used to tune") {
			t.Errorf("temple run on seed %s: %v", s, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "refused")); !os.IsNotExist(err) {
			t.Errorf("a refused run wrote %s", filepath.Join(dir, "refused"))
		}
	}
	judged := filepath.Join(dir, "judged")
	if text, err = temple(t, "run", tuned, "--runs", "2", "--seed", "77", "--out", judged); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !strings.Contains(text, "Tuning: every agent tuned by temple tune --seed 9 with the same budget: 4 settings") {
		t.Errorf("temple run's output does not say how the agents were tuned:\n%s", text)
	}
	b, err := os.ReadFile(filepath.Join(judged, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Tuning struct {
			Seed        uint64   `json:"seed"`
			DesignSeeds []uint64 `json:"design_seeds"`
			Agents      []struct {
				Name      string `json:"name"`
				Settings  int    `json:"settings"`
				TrialRuns int    `json:"trial_runs"`
			} `json:"agents"`
		} `json:"tuning"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Tuning.Seed != 9 || len(sum.Tuning.DesignSeeds) != 1 || sum.Tuning.DesignSeeds[0] != tune.DesignSeed(9) || len(sum.Tuning.Agents) != 3 {
		t.Fatalf("summary.json's tuning: %+v", sum.Tuning)
	}
	for _, a := range sum.Tuning.Agents {
		if a.Settings != 4 || a.TrialRuns != 4+2*1 {
			t.Errorf("summary.json: %s tuned with %d settings, %d trial runs; want 4 and 6", a.Name, a.Settings, a.TrialRuns)
		}
	}
	html, _ := os.ReadFile(filepath.Join(judged, "report.html"))
	if !strings.Contains(string(html), "Tuning: every agent tuned by temple tune --seed 9") {
		t.Error("report.html does not say how the agents were tuned")
	}
	// --allow-design-seeds runs it, and says so.
	if text, err = temple(t, "run", tuned, "--runs", "2", "--seed", "9", "--allow-design-seeds", "--out", filepath.Join(dir, "allowed")); err != nil ||
		!strings.Contains(text, "--allow-design-seeds") {
		t.Errorf("--allow-design-seeds: %v\n%s", err, text)
	}
}

// Issue 51, case 8: the design seed is recognised by its tasks, not its number alone: the tuned
// config judged on family: file pointed at a tasks.json of the design seed's runs is refused
// (whatever the seed it runs with), unless --allow-design-seeds; on the tasks of its judging seed
// it runs. A family whose tasks do not depend on the seed (a custom MDP file) records no design
// tasks, and its tuned config runs.
func TestDesignTasksAreRecognisedByContent(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte(tuneConfig), 0o644)
	tuning := filepath.Join(dir, "tuning")
	if text, err := temple(t, "tune", config, "--out", tuning, "--budget", "2", "--runs", "1", "--seed", "9"); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	design := filepath.Join(dir, "design") // the design seed's runs 0 and 1, as an untuned experiment draws them
	if text, err := temple(t, "run", config, "--seed", strconv.FormatUint(tune.DesignSeed(9), 10), "--runs", "2", "--out", design); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	spec, err := experiment.Load(filepath.Join(tuning, results.TunedFile))
	if err != nil {
		t.Fatal(err)
	}
	spec.Tasks = families.FromFile(filepath.Join(design, "tasks.json"))
	onDesign, err := yaml.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "on-design.yaml")
	os.WriteFile(path, onDesign, 0o644)
	for _, seed := range []string{"77", "78"} {
		_, err := temple(t, "run", path, "--runs", "2", "--seed", seed, "--out", filepath.Join(dir, "refused"))
		if err == nil || !strings.Contains(err.Error(), "faces the task sequence of design run 0 of the tuning") {
			t.Errorf("the tuned config on the design seed's tasks (seed %s): %v, want a refusal", seed, err)
		}
	}
	if text, err := temple(t, "run", path, "--runs", "2", "--seed", "77", "--allow-design-seeds", "--out", filepath.Join(dir, "allowed")); err != nil {
		t.Errorf("--allow-design-seeds: %v\n%s", err, text)
	}
	if text, err := temple(t, "run", filepath.Join(tuning, results.TunedFile), "--runs", "2", "--out", filepath.Join(dir, "judged")); err != nil {
		t.Errorf("the tuned config on its judging seed: %v\n%s", err, text)
	}

	inv := filepath.Join(dir, "inv.yaml")
	os.WriteFile(inv, []byte("name: inv\nruns: 1\nepisodes: 20\ntasks:\n  family: custom\n  file: "+
		must(filepath.Abs(filepath.Join(repoRoot, "examples", "custom-mdp", "inventory.json")))+"\nagents:\n  - type: q-learning\n"), 0o644)
	if text, err := temple(t, "tune", inv, "--out", filepath.Join(dir, "inv-tuning"), "--budget", "2", "--runs", "1"); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "inv-tuning", results.TunedFile))
	if strings.Contains(string(b), "design_tasks") {
		t.Errorf("a tuning on a custom MDP file records design tasks, which every seed draws:\n%s", b)
	}
	if text, err := temple(t, "run", filepath.Join(dir, "inv-tuning", results.TunedFile), "--out", filepath.Join(dir, "inv-judged")); err != nil {
		t.Errorf("the tuned custom config: %v\n%s", err, text)
	}
}

// A search sharded in two, stage by stage (each round: both shards with --from the merged
// directory, then the merge), ends with the same tuned config, record and trials as one machine.
func TestShardedTuneMergesToTheUnshardedSearch(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte(tuneConfig), 0o644)
	flags := []string{"--budget", "5", "--runs", "1", "--seed", "4"}
	tuneWith := func(args ...string) string {
		t.Helper()
		text, err := temple(t, append(append([]string{"tune", config}, flags...), args...)...)
		if err != nil {
			t.Fatalf("temple tune %v: %v\n%s", args, err, text)
		}
		return text
	}
	whole, merged := filepath.Join(dir, "whole"), filepath.Join(dir, "merged")
	tuneWith("--out", whole)
	shards := []string{filepath.Join(dir, "s0"), filepath.Join(dir, "s1")}
	rounds := 0
	for ; rounds < 5 && !fileExists(filepath.Join(merged, results.TunedFile)); rounds++ {
		for i, s := range shards {
			if text := tuneWith("--shard", strconv.Itoa(i)+"/2", "--out", s, "--from", merged); !strings.Contains(text, "waits for") {
				t.Fatalf("shard %d, round %d: %s", i, rounds, text)
			}
		}
		tuneWith("--merge", "--from", shards[0], "--from", shards[1], "--out", merged)
	}
	if rounds != 3 { // stages of 5, 3 and 2 settings
		t.Errorf("%d rounds, want one per stage, 3", rounds)
	}
	for _, name := range []string{results.TunedFile, results.SearchFile} {
		a, _ := os.ReadFile(filepath.Join(whole, name))
		b, _ := os.ReadFile(filepath.Join(merged, name))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s: the merged shards' differs from one machine's", name)
		}
	}
	sameResults(t, filepath.Join(merged, "trials"), filepath.Join(whole, "trials"))
	if _, err := temple(t, "tune", config, "--merge", "--out", merged); err == nil || !strings.Contains(err.Error(), "--from") {
		t.Errorf("--merge without --from: %v", err)
	}
	// Issue 51, case 13: a --from shard of another seed is refused, naming it (it was ignored).
	other := filepath.Join(dir, "other-seed")
	if text, err := temple(t, "tune", config, "--budget", "5", "--runs", "1", "--seed", "5", "--shard", "0/2", "--out", other); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	_, err := temple(t, append(append([]string{"tune", config}, flags...), "--merge", "--from", other, "--out", filepath.Join(dir, "merged2"))...)
	if err == nil || !strings.Contains(err.Error(), "--from "+other+" holds results of another spec: spec.yaml differs in tune") {
		t.Errorf("--merge --from a shard of another seed: %v, want a refusal naming it", err)
	}
}

// A tuning directory holding another search (other options) is refused, naming them and what to
// do; --force replaces the search's own files (trials, record, tuned config: what its record
// lists) and leaves the rest: a user's file, a user's figures/mine.svg (issue 51, case 2) and an
// experiment moved below it (temple run refuses to run one there, issue 51, case 3). The
// replacing search is the one a fresh directory gets.
func TestTuneForceReplacesOnlyTheSearch(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte(tuneConfig), 0o644)
	tuning, fresh := filepath.Join(dir, "tuning"), filepath.Join(dir, "fresh")
	first := []string{"tune", config, "--out", tuning, "--budget", "4", "--runs", "1", "--seed", "2"}
	if text, err := temple(t, first...); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	notes, mine := filepath.Join(tuning, "notes.txt"), filepath.Join(tuning, "figures", "mine.svg")
	os.WriteFile(notes, []byte("mine"), 0o644)
	os.MkdirAll(filepath.Dir(mine), 0o755)
	os.WriteFile(mine, []byte("<svg/>"), 0o644)
	judged := filepath.Join(tuning, "judged")
	if _, err := temple(t, "run", config, "--runs", "1", "--out", judged); err == nil || !strings.Contains(err.Error(), "is inside the results directory "+tuning) {
		t.Errorf("an experiment inside the tuning directory: %v, want a refusal naming it", err)
	}
	if text, err := temple(t, "run", config, "--runs", "1", "--out", filepath.Join(dir, "judged")); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if err := os.Rename(filepath.Join(dir, "judged"), judged); err != nil {
		t.Fatal(err)
	}
	other := []string{"--budget", "3", "--runs", "1", "--seed", "8"}
	_, err := temple(t, append([]string{"tune", config, "--out", tuning}, other...)...)
	if err == nil || !strings.Contains(err.Error(), "differs in tune") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("another search into the directory: %v, want a refusal that names the options and --force", err)
	}
	if text, err := temple(t, append([]string{"tune", config, "--out", tuning, "--force"}, other...)...); err != nil {
		t.Fatalf("--force: %v\n%s", err, text)
	}
	if text, err := temple(t, append([]string{"tune", config, "--out", fresh}, other...)...); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for _, name := range []string{results.TunedFile, results.SearchFile} {
		a, _ := os.ReadFile(filepath.Join(tuning, name))
		b, _ := os.ReadFile(filepath.Join(fresh, name))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s after --force differs from a fresh directory's", name)
		}
	}
	sameResults(t, filepath.Join(tuning, "trials"), filepath.Join(fresh, "trials"))
	for path, want := range map[string]string{notes: "mine", mine: "<svg/>"} {
		if b, err := os.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("--force touched the user's file %s: %q, %v", path, b, err)
		}
	}
	if !fileExists(filepath.Join(tuning, "judged", "summary.json")) {
		t.Error("--force removed the experiment run below the tuning directory")
	}
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

// A bad --draws is refused before anything runs, naming the flag and the value.
func TestTuneRefusesBadDraws(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x")
	_, err := temple(t, "tune", "../examples/tuning/small.yaml", "--draws", "lucky", "--out", out)
	if err == nil || !strings.Contains(err.Error(), `--draws = "lucky"`) {
		t.Fatalf("error %v, want one naming --draws and its value", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("%s was written", out)
	}
}
