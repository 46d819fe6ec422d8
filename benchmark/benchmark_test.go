package benchmark

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/tune"
)

// tinyFile is the benchmark of docs/guides/benchmark.md's example.
const tinyFile = "../examples/benchmark/tiny.yaml"

// runTiny runs examples/benchmark/tiny.yaml into dir and writes its outputs, as temple benchmark does.
func runTiny(t *testing.T, dir string) Result {
	t.Helper()
	s, err := Load(tinyFile)
	if err != nil {
		t.Fatal(err)
	}
	fams, err := Run(context.Background(), s, Options{Seed: 7, Dir: dir, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := Result{Benchmark: s.Name, Seed: 7, Margin: s.Margin, Budget: s.Tuning, Families: fams}
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	return r
}

func outputs(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range []string{JSONFile, MarkdownFile, HTMLFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

// TestTinyBenchmark runs two families with four learners and two references at budget 2: it holds
// benchmark.json's schema, the seeds' derivation, the ranks, the verdicts' other side, the
// refusal of latent-psrl on tasks of different sizes, and that a second run reuses everything
// and writes the same bytes.
func TestTinyBenchmark(t *testing.T) {
	dir := t.TempDir()
	runTiny(t, dir)
	first := outputs(t, dir)

	var doc map[string]any
	if err := json.Unmarshal(first[JSONFile], &doc); err != nil {
		t.Fatal(err)
	}
	families, _ := doc["families"].([]any)
	if len(families) != 2 {
		t.Fatalf("families: %d, want 2", len(families))
	}
	for _, x := range families {
		f := x.(map[string]any)
		name := f["name"].(string)
		for _, key := range []string{"name", "design_seeds", "judging_seed", "measures", "learners", "references", "not_applicable", "best_single_task"} {
			if _, ok := f[key]; !ok {
				t.Errorf("family %s has no %q", name, key)
			}
		}
		seed := FamilySeed(7, name)
		if got := uint64(f["judging_seed"].(float64)); float64(got) != float64(tune.JudgingSeed(seed)) {
			t.Errorf("family %s: judging_seed %v, want tune.JudgingSeed(FamilySeed(7, %q))", name, f["judging_seed"], name)
		}
		if m, ok := f["measures"].(map[string]any); !ok || m["diameter"] == nil {
			t.Errorf("family %s: measures %v has no diameter", name, f["measures"])
		}
		refs := f["references"].([]any)
		if len(refs) != 2 || refs[0].(map[string]any)["rank"] != nil || refs[1].(map[string]any)["rank"] != nil {
			t.Fatalf("family %s: references %v: want the two references, unranked", name, refs)
		}
		// The identification oracle has nothing to search: it runs as given, with no budget.
		if o := refs[1].(map[string]any); o["name"] != "Identification-Oracle" || o["budget"].(map[string]any)["settings"].(float64) != 0 || o["regret"] == nil {
			t.Errorf("family %s: %v: want the identification oracle, untuned, with its regret", name, o)
		}
		learners := f["learners"].([]any)
		prev := math.Inf(-1)
		for i, y := range learners {
			l := y.(map[string]any)
			for _, key := range []string{"name", "type", "setting", "budget", "regret", "rank"} {
				if _, ok := l[key]; !ok {
					t.Errorf("family %s, learner %v has no %q", name, l["name"], key)
				}
			}
			if b := l["budget"].(map[string]any); b["settings"].(float64) != 2 {
				t.Errorf("family %s, learner %v: budget %v, want 2 settings", name, l["name"], b)
			}
			regret := l["regret"].(map[string]any)
			mean := regret["mean"].(float64)
			if _, ok := regret["ci95"]; !ok || mean < prev {
				t.Errorf("family %s: learner %d (%v) regret %v after %v: want ranked by mean regret, with ci95", name, i, l["name"], mean, prev)
			}
			prev = mean
			isBest := l["name"] == f["best_single_task"]
			if v, ok := l["verdict"].(map[string]any); ok == isBest || ok && v["against"] != f["best_single_task"] {
				t.Errorf("family %s, learner %v: verdict %v; want one against %v for all but it", name, l["name"], l["verdict"], f["best_single_task"])
			}
		}
		// The verdicts' other side is the single-task learner of least regret on the design seed.
		best, bestScore := "", math.Inf(1)
		for _, y := range learners {
			l := y.(map[string]any)
			score, ok := l["design_score"].(float64)
			if !ok {
				t.Errorf("family %s, learner %v: design_score %v, want its tuning's score", name, l["name"], l["design_score"])
			}
			if l["single_task"] == true && score < bestScore {
				best, bestScore = l["name"].(string), score
			}
		}
		if f["best_single_task"] != best {
			t.Errorf("family %s: best_single_task %v, want %s, the single-task learner of least design_score", name, f["best_single_task"], best)
		}
		na := f["not_applicable"].([]any)
		if name == "sizes" {
			if len(na) != 1 || na[0].(map[string]any)["name"] != "Latent-PSRL" || !strings.Contains(na[0].(map[string]any)["reason"].(string), "one size") {
				t.Errorf("sizes: not_applicable %v: want Latent-PSRL, refused for tasks of different sizes", na)
			}
			if len(learners) != 3 {
				t.Errorf("sizes: %d learners ranked, want 3", len(learners))
			}
		} else if len(na) != 0 || len(learners) != 4 {
			t.Errorf("maze: %d ranked, not applicable %v; want 4 and none", len(learners), na)
		}
	}

	runTiny(t, dir) // everything reused: the same bytes
	second := outputs(t, dir)
	for name, b := range first {
		if !bytes.Equal(b, second[name]) {
			t.Errorf("%s changed on the second run", name)
		}
	}
}

// The best single-task learner is chosen on the design seed, not on the judged runs: the least
// design regret, or the most design reward when the family's objective is reward; learners
// that learn across tasks, and untuned ones, are never it.
func TestBestSingleTaskIsChosenOnTheDesignSeed(t *testing.T) {
	score := func(x float64) *num { n := num(x); return &n }
	judged := func(x float64) *Estimate { return &Estimate{Mean: num(x)} }
	f := Family{Objective: tune.Regret, Learners: []Learner{
		{Name: "Hybrid", DesignScore: score(1), Regret: judged(1)},
		{Name: "RMax", SingleTask: true, DesignScore: score(30), Regret: judged(10)}, // first on the judged runs
		{Name: "PSRL", SingleTask: true, DesignScore: score(20), Regret: judged(15)},
		{Name: "Untuned", SingleTask: true, Regret: judged(5)},
	}}
	if got := f.bestOnDesign(); got != "PSRL" {
		t.Errorf("regret: best %q, want PSRL, the least design regret", got)
	}
	f.Objective = tune.Reward
	if got := f.bestOnDesign(); got != "RMax" {
		t.Errorf("reward: best %q, want RMax, the most design reward", got)
	}
	if got := (&Family{Learners: f.Learners[:1]}).bestOnDesign(); got != "" {
		t.Errorf("no single-task learner: best %q, want none", got)
	}
}

func TestNonFiniteIsNull(t *testing.T) {
	b, err := json.Marshal([]num{num(math.Inf(1)), num(math.NaN()), 1.5})
	if err != nil || string(b) != "[null,null,1.5]" {
		t.Errorf("got %s, %v; want [null,null,1.5]", b, err)
	}
}

func TestLoadRefuses(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"name: x\nmargin: 0%\ntuning: {settings: 1, runs: 1}\n", "margin"},
		{"name: x\nmargin: 5%\ntuning: {settings: 0, runs: 1}\n", "tuning: settings = 0"},
		{"name: x\nmargin: 5%\ntuning: {settings: 1, runs: 1, draws: lucky}\n", `tuning: draws = "lucky", want per-agent`},
		{"name: x\nmargin: 5%\ntuning: {settings: 1, runs: 1}\nlearners: [{type: rmax}]\nfamilies: [{name: a, runs: 1, config: {episodes: 1}}]\n", "runs = 1"},
		{"name: x\nmargin: 5%\ntuning: {settings: 1, runs: 1}\nlearners: [{type: rmax}]\nfamilies: [{name: a, runs: 2, config: {seed: 1}}]\n", "seed is the benchmark's"},
		{"name: x\nmargin: 5%\ntuning: {settings: 1, runs: 1}\nlearners: [{type: rmax}]\nfamilies: [{name: a, runs: 2, config: {}, learners: {PSRL: {m: 1}}}]\n", `no learner or reference named "PSRL"`},
		{"name: x\nmargin: 5%\ntuning: {settings: 1, runs: 1}\nlearners: [{type: rmax}, {type: rmax}]\nfamilies: [{name: a, runs: 2, config: {}}]\n", "appears twice"},
	} {
		path := filepath.Join(t.TempDir(), "b.yaml")
		if err := os.WriteFile(path, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("Load(%q): %v; want an error naming %s and %q", c.yaml, err, path, c.want)
		}
	}
}

// TestAddOutsideWithoutSearch: a learner written outside temple without a search: block is listed
// as not tuned, not run.
func TestAddOutsideWithoutSearch(t *testing.T) {
	s, err := Load(tinyFile)
	if err != nil {
		t.Fatal(err)
	}
	add := filepath.Join(t.TempDir(), "add.yaml")
	if err := os.WriteFile(add, []byte("agents:\n  - {type: external, name: Mine, command: [\"/bin/false\"]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := LoadAddition(add)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(a, add); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(a, add); err == nil || !strings.Contains(err.Error(), "already in the benchmark") {
		t.Errorf("adding Mine twice: %v", err)
	}
	s.Learners, s.References = s.Learners[len(s.Learners)-1:], nil // Mine alone: nothing to tune
	fams, err := Run(context.Background(), s, Options{Seed: 7, Dir: t.TempDir(), Jobs: 1, Families: []string{"maze"}})
	if err != nil {
		t.Fatal(err)
	}
	if nt := fams[0].NotTuned; len(nt) != 1 || nt[0].Name != "Mine" || !strings.Contains(nt[0].Reason, "declare its search space") || len(fams[0].Learners) != 0 {
		t.Errorf("not tuned %v, learners %v: want Mine not tuned, and nothing run", nt, fams[0].Learners)
	}
	if _, err := Run(context.Background(), s, Options{Dir: t.TempDir(), Families: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), `--family "nope"`) {
		t.Errorf("--family nope: %v", err)
	}
}

// TestGuideAddFile: the --add file of docs/guides/benchmark.md is examples/own-learner's
// benchmark-add.yaml, word for word but its comments, and reads as --add reads it: the Python
// learner found beside the file, with its search space.
func TestGuideAddFile(t *testing.T) {
	const file = "../examples/own-learner/benchmark-add.yaml"
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var body []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(line, "#") {
			body = append(body, line)
		}
	}
	guide, err := os.ReadFile("../docs/guides/benchmark.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), "```yaml\n"+strings.Join(body, "\n")+"\n```") {
		t.Errorf("docs/guides/benchmark.md's yaml block is not %s:\n%s", file, strings.Join(body, "\n"))
	}
	a, err := LoadAddition(file)
	if err != nil {
		t.Fatal(err)
	}
	x, err := decodeAgent(&a.Agents[0])
	if err != nil || x.Name != "OptQ" || x.Type != "python" || len(a.Search["OptQ"]) != 3 {
		t.Fatalf("read %+v, search %v, %v: want OptQ, python, three searched keys", x, a.Search, err)
	}
	abs, _ := filepath.Abs("../examples/own-learner")
	if enc, _ := json.Marshal(x); !strings.Contains(string(enc), abs) && !strings.Contains(string(enc), "examples/own-learner") {
		t.Errorf("OptQ %s: want its path beside the file (%s)", enc, abs)
	}
}

// TestBenchmarkFilesLoad: the tiers and the example benchmark load, and every family's config
// reads with every learner and reference (its learners: keys merged in) as temple run reads a
// config.
func TestBenchmarkFilesLoad(t *testing.T) {
	paths, _ := filepath.Glob("../benchmarks/*.yaml")
	examples, _ := filepath.Glob("../examples/benchmark/*.yaml")
	if len(paths) != 2 || len(examples) == 0 {
		t.Fatalf("benchmark files %v and %v: want small.yaml, full.yaml and an example", paths, examples)
	}
	for _, path := range append(paths, examples...) {
		s, err := Load(path)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, f := range s.Families {
			es, err := entries(s, f)
			if err != nil {
				t.Errorf("%s: family %s: %v", path, f.Name, err)
				continue
			}
			for _, e := range es {
				if _, err := config(f, f.Name, 1, f.Runs, []*yaml.Node{e.node}, nil); err != nil {
					t.Errorf("%s: %s: %v", path, e.agent.Name, err)
				}
			}
		}
	}
}

// TestAddFilesOfTheRepositoryLoad: every --add file of the repository's examples reads as --add
// reads it and joins the small tier without a clash of names.
func TestAddFilesOfTheRepositoryLoad(t *testing.T) {
	for _, file := range []string{"../examples/own-learner/benchmark-add.yaml", "../examples/hybrid-prior/ablations.yaml", "../examples/hybrid-prior/merged-samples.yaml"} {
		a, err := LoadAddition(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Load("../benchmarks/small.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Add(a, file); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// TestTierFamiliesAreDistinct: no two families of a tier hold the same tasks (their configs, with
// every default filled in, differ beyond their names). base-learners once had online-maze's
// defaults spelled out, and the tier counted one family twice.
func TestTierFamiliesAreDistinct(t *testing.T) {
	for _, tier := range []string{"small", "full"} {
		s, err := Load("../benchmarks/" + tier + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, f := range s.Families {
			es, err := entries(s, f)
			if err != nil || len(es) == 0 {
				t.Fatalf("%s: family %s: entries %v", tier, f.Name, err)
			}
			c, err := config(f, "family", 1, 1, []*yaml.Node{es[0].node}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.Agents = nil
			b, err := yaml.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[string(b)]; ok {
				t.Errorf("%s tier: families %s and %s hold the same tasks", tier, other, f.Name)
			}
			seen[string(b)] = f.Name
		}
	}
}
