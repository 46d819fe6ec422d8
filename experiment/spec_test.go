package experiment

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

func TestParseAppliesDefaults(t *testing.T) {
	s, err := Parse([]byte(`
name: tiny
runs: 2
tasks:
  family: finite-model
  count: 5
agents:
  - type: o-temple
    tau: 0.24
  - type: rmax
    name: RMax-optimistic
    action_rule: optimistic
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Runs != 2 || s.Episodes != 3000 || s.Gamma != 0.95 || s.Seed != 1 {
		t.Errorf("top-level defaults not applied: %+v", s)
	}
	// The finite-model family brings its own defaults: slip 0.4, two models, no lava.
	fm, ok := s.Tasks.Params.(*families.FiniteModelParams)
	if !ok || fm.Slip != 0.4 || fm.Models != 2 || len(fm.Lava) != 0 || fm.Tasks != 5 {
		t.Errorf("finite-model defaults: %+v", s.Tasks.Params)
	}
	if len(s.Agents) != 2 {
		t.Fatalf("agents = %+v, want the two listed (the list replaces the default)", s.Agents)
	}
	ot := s.Agents[0]
	if p := ot.Params.(*temple.OTempLeSpec); ot.Name != "O-TempLe" || p.Tau != 0.24 || p.Ms != 50 || p.Base.Name != "rmax" ||
		p.Base.Params.(*learners.RMaxParams).M != 500 || !p.Consolidate {
		t.Errorf("o-temple = %+v, want defaults with tau 0.24", ot)
	}
	if r := s.Agents[1]; r.Name != "RMax-optimistic" || r.Params.(*learners.RMaxParams).Rule != learners.Optimistic || r.Params.(*learners.RMaxParams).M != 500 {
		t.Errorf("rmax = %+v", r)
	}
	for _, a := range s.Agents { // O-TempLe's base's key too
		if planning, ok := agenttypes.Param(a.Params, "planning"); !ok || planning != learners.PlanDelta {
			t.Errorf("%s: planning %v by default (found: %v), want %q", a.Name, planning, ok, learners.PlanDelta)
		}
	}
}

func TestParseErrorsNameTheField(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"runs: 2\nepisods: 3\n", `line 2: a config has no key "episods" (it has name, seed, runs, episodes`},
		{"runs: 2\nepisods: 3\n", `; did you mean "episodes"?`},
		{"oracle:\n  enabeld: true\n", `line 2: oracle has no key "enabeld" (it has enabled, epsilon, policy_mistakes); did you mean "enabled"?`},
		{"output:\n  smothing: 0.5\n", `line 2: output has no key "smothing" (it has episodes, templates, smoothing, baseline, verdicts); did you mean "smoothing"?`},
		{"scaling:\n  budgte: 2\n", `line 2: scaling has no key "budgte" (it has sizes, templates_size, landform_sets, budget); did you mean "budget"?`},
		{"runs: two\n", `line 1: runs = "two", want an integer >= 1`},
		{"seed: -1\n", `line 1: seed = -1, want an integer >= 0`},
		{"gamma: high\n", `line 1: gamma = "high", want a number in [0, 1)`},
		{"oracle: 3\n", "line 1: oracle is a mapping of keys (enabled, epsilon, policy_mistakes), not the value 3"},
		{"oracle:\n  enabled: maybe\n", `line 2: oracle.enabled = "maybe", want true or false`},
		{"start_cell: [1, x]\n", "line 1: start_cell = [1, x], want a list of 2 integers"},
		{"scaling:\n  sizes: [a]\n", "line 2: scaling.sizes = [a], want a list of integers >= 2 each"},
		{"tasks:\n  family: online-maze\n  width: five\n", `line 3: width = "five", want an integer`},
		{"agents:\n  - type: rmax\n    m: lots\n", `line 3: m = "lots", want an integer`},
		{"tasks:\n  family: maze\n", `line 2: family = "maze", want one of`},
		{"tasks:\n  family: online-maze\n  sd: 0.1\n", `line 3: family online-maze has no parameter "sd"`},
		{"tasks:\n  family: finite-model\n  pool: 3\n", `line 3: family finite-model has no parameter "pool"`},
		{"tasks:\n  family: fourroom\n  size: 3\n", "tasks: size = 3, want at least 5"},
		{"tasks:\n  family: mixed\n  parts:\n    - family: grid\n      sizes: [3]\n", `line 5: family grid has no parameter "sizes"`},
		{"tasks:\n  family: mixed\n  parts:\n    - family: grid\n      count: 0\n", "tasks: parts[0] (grid): count = 0"},
		{"tasks:\n  family: mixed\n", "tasks: parts: none listed"},
		{"tasks:\n  family: grid\n  goals: [[1, 2, 3]]\n", "line 3: a cell is [x, y]"},
		{"start_state: -2\n", "start_state = -2"},
		{"runs: 0\n", "runs = 0, want at least 1"},
		{"gamma: 1\n", "gamma = 1, want 0 <= gamma < 1"},
		{"start: corner\n", `start = "corner"`},
		{"agents:\n  - type: rmax\n    tau: 0.1\n", "line 3: agent type rmax has no parameter \"tau\""},
		{"agents:\n  - type: sarsa\n", `agent type "sarsa", want one of`},
		{"agents:\n  - type: rmax\n  - type: rmax\n", `name "RMax" used twice`},
		{"output:\n  baseline: DQN\n", `output.baseline = "DQN" is not the name of an agent`},
		{"output:\n  verdicts: [O-TempLe:DQN]\n", `output.verdicts: pair "O-TempLe:DQN" is not A:B with A and B agents (the agents: "O-TempLe", `},
		{"output:\n  verdicts: [RMax:RMax]\n", `output.verdicts: pair "RMax:RMax" compares "RMax" with itself`},
		{"output:\n  verdicts: [RMax:Q-learning, Q-learning:RMax]\n", `output.verdicts: "Q-learning" and "RMax" are compared twice`},
		{"tasks:\n  family: online-maze\n  count: 0\n", "tasks: count = 0, want at least 1"},
		{"tasks:\n  family: file\n", `family "file" needs file: PATH`},
		{"runs: [1]\n", "line 1"},
		{"\x00\x01binary", "not a text file (a NUL byte or invalid UTF-8 at byte 0)"},
		{"runs: 3\n\xff\xfe", "not a text file (a NUL byte or invalid UTF-8 at byte 8)"},
		{"", "the config is empty"},
		{"# only a comment\n", "the config is empty"},
		{"- runs: 3\n", "line 1: the config is a list; want a mapping"},
		{"42\n", "line 1: the config is a single value"},
		// Issue 51, case 15: a fraction for an integer key is refused (m: 2.5 became m: 2).
		{"agents:\n  - type: rmax\n    m: 2.5\n", "line 3: m = 2.5, want an integer"},
		{"agents:\n  - type: o-temple\n    base: rmax\n    m_s: 1.5\n", "line 4: m_s = 1.5, want an integer"},
		{"tasks:\n  family: online-maze\n  count: 1.5\n", "line 3: count = 1.5, want an integer"},
		{"runs: 2.5\n", "line 1: runs = 2.5, want an integer >= 1"},
		{"start_cell: [1.5, 1]\n", "line 1: start_cell = [1.5, 1], want a list of 2 integers"},
		{"tasks:\n  family: mixed\n  parts:\n    - family: grid\n      count: 2.5\n", "line 5: count = 2.5, want an integer"},
		// Issue 51, LOW: a second YAML document was ignored; a merge key gave an unclear error.
		{"runs: 1\n---\nruns: 5\n", "line 3: a second YAML document (after ---); a config is one document"},
		{"base: &b {m: 10}\nagents:\n  - type: rmax\n    <<: *b\n", "line 4: a YAML merge key (<<) is not read in a config"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", c.yaml, err, c.want)
		}
		if err != nil && goTypeName.MatchString(err.Error()) {
			t.Errorf("Parse(%q) error = %v names a Go type", c.yaml, err)
		}
	}
}

// goTypeName matches what the YAML library says in Go's words: a user never sees them.
var goTypeName = regexp.MustCompile(`unmarshal|\b(int|int64|uint64|float64|bool)\b|!!|in type|experiment\.|families\.|agents\.`)

func TestAgentParameterErrorsSurfaceAtBuild(t *testing.T) {
	s := Default()
	s.Runs = 1
	s.Tasks.Params.(*families.OnlineMazeParams).Tasks = 1
	s.Agents[0].mustSet("m_s", 0)
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), "agents[0] (O-TempLe): o-temple: m_s = 0") {
		t.Errorf("Build error = %v, want it to name the agent and m_s", err)
	}
	// Issue 51, LOW: r_max 0 on tasks that pay a positive reward plans unknown pairs at no gain,
	// so RMax does not explore; refused, naming it. MountainCar's presets keep r_max 0, the tight
	// bound of rewards that are all ≤ 0 (TestEveryPresetBuilds).
	s = Default()
	s.Runs = 1
	s.Tasks.Params.(*families.OnlineMazeParams).Tasks = 1
	s.Agents[1].mustSet("r_max", 0)
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), "agents[1] (RMax): r_max = 0, but run 0, task 0") {
		t.Errorf("Build error = %v, want it to name the agent, r_max and the task", err)
	}
	s.Agents[1].mustSet("r_max", 1) // the mazes' goal pays 1: the tight bound
	if _, err := Build(s); err != nil {
		t.Errorf("r_max 1: %v", err)
	}
}

// An agent's parameter out of range in a config file is refused by Check naming the file, the
// agent's line, its place and its name, and the key and value; from standard input, naming that.
func TestCheckNamesTheConfigAndTheAgentsLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.yaml")
	config := "runs: 1\ntasks: {family: online-maze, count: 1}\nagents:\n  - {type: rmax}\n  - {type: psrl, reward_noise: -1}\n"
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "config " + path + ": line 5: agents[1] (PSRL): psrl: reward_noise = -1, want a finite number > 0"
	if err := Check(s); err == nil || err.Error() != want {
		t.Errorf("Check error = %v, want %q", err, want)
	}
	if s, err = LoadStdin([]byte(config)); err != nil {
		t.Fatal(err)
	}
	want = "config (standard input): line 5: agents[1] (PSRL): psrl: reward_noise = -1, want a finite number > 0"
	if err := Check(s); err == nil || err.Error() != want {
		t.Errorf("Check error = %v, want %q", err, want)
	}
}

// TestValidationDoesNotBuildWhatItChecks: a config's validation checks sizes and counts without
// building a sequence of count tasks or a model of a huge grid (a fuzzed count of a hundred
// million once held the parser for seconds and gigabytes).
func TestValidationDoesNotBuildWhatItChecks(t *testing.T) {
	for _, config := range []string{
		"tasks:\n  family: taxi\n  count: 1000000\n",       // families.MaxTasksPerRun
		"tasks:\n  family: riverswim\n  count: 1000000\n",  // families.MaxTasksPerRun
		"tasks:\n  family: frozenlake\n  count: 1000000\n", // families.MaxTasksPerRun
		"tasks:\n  family: grid\n  width: 2048\n  height: 2048\n",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Parse([]byte(config)); err != nil {
			t.Errorf("%q: %v", config, err)
		}
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
			t.Errorf("validating %q allocated %d MB", config, grew>>20)
		}
	}
	_, err := Parse([]byte("tasks:\n  family: grid\n  width: 2\n  height: 1\n  terminal_goals: true\n  goals: [[1, 1], [2, 1]]\n"))
	if err == nil || !strings.Contains(err.Error(), "every open cell is a terminal goal") {
		t.Errorf("a grid of terminal goals only: %v", err)
	}
}

// A task file's relative path is the config's directory's, not the working directory's: the
// custom-mdp example loads from another directory, and a published:NAME or absolute path is kept.
func TestLoadResolvesPathsAgainstTheConfig(t *testing.T) {
	config, err := filepath.Abs("../examples/custom-mdp/experiment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	s, err := Load(config)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(filepath.Dir(config), "inventory.json")
	if got := s.Tasks.Params.(*families.CustomParams).File; got != want {
		t.Errorf("file = %s, want %s", got, want)
	}
	if _, err := BuildTasks(s); err != nil {
		t.Errorf("the example's tasks from another directory: %v", err)
	}
	dir, abs := t.TempDir(), filepath.Join(t.TempDir(), "m.json")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	for _, file := range []string{abs, filepath.Join(dir, "sub", "m.json")} {
		os.WriteFile(file, nil, 0o644) // Load checks that they exist; building the tasks reads them
	}
	mixed := "tasks:\n  family: mixed\n  parts:\n    - family: file\n      file: published:online-maze-4x4\n    - family: custom\n      file: " +
		abs + "\n    - family: custom\n      file: sub/m.json\n"
	os.WriteFile(filepath.Join(dir, "c.yaml"), []byte(mixed), 0o644)
	s, err = Load(filepath.Join(dir, "c.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	parts := s.Tasks.Params.(*families.MixedParams).Parts
	got := []string{parts[0].Params.(*families.FileParams).File, parts[1].Params.(*families.CustomParams).File, parts[2].Params.(*families.CustomParams).File}
	if want := []string{"published:online-maze-4x4", abs, filepath.Join(dir, "sub/m.json")}; !slices.Equal(got, want) {
		t.Errorf("mixed parts' files = %v, want %v", got, want)
	}
}

// Issue 52: a learner's source file (files:), module directory (path:) or working directory (dir:)
// that does not exist is refused when the config is loaded as a missing task file is: the config,
// the key and its line, the path as written and as resolved, and the rule that resolved it (the
// config's directory; a learner's files its path: or dir:) — not "a file of the learner's source:
// open …" when the agents are built. A config read from standard input says that its relative
// paths are the working directory's.
func TestLoadNamesAMissingLearnerFile(t *testing.T) {
	dir := t.TempDir()
	work := t.TempDir()
	t.Chdir(work) // the working directory is not the config's
	os.WriteFile(filepath.Join(dir, "m.py"), []byte("class C: pass\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "lib"), 0o755)
	rule := " (a relative path in a config is read from the config's directory, " + dir + ", not the working directory)"
	for _, c := range []struct{ config, want string }{
		{"agents:\n  - {type: python, class: m:C, files: [m.py, nothere.py]}\n",
			`line 2: agents[0].files[1] = "nothere.py": no such file ` + filepath.Join(dir, "nothere.py") + rule},
		{"agents:\n  - type: rmax\n  - type: python\n    class: m:C\n    path: nodir\n",
			`line 5: agents[1].path = "nodir": no such directory ` + filepath.Join(dir, "nodir") + rule},
		{"agents:\n  - type: python\n    class: m:C\n    path: lib\n    files:\n      - gone.py\n",
			`line 6: agents[0].files[0] = "gone.py": no such file ` + filepath.Join(dir, "lib", "gone.py") +
				" (a relative path in files: is read from the learner's path:, " + filepath.Join(dir, "lib") + ")"},
		{"agents:\n  - {type: external, command: [./learner], dir: nodir}\n",
			`line 2: agents[0].dir = "nodir": no such directory ` + filepath.Join(dir, "nodir") + rule},
		{"agents:\n  - {type: external, command: [./learner], files: [/nonexistent/learner.c]}\n",
			`line 2: agents[0].files[0] = "/nonexistent/learner.c": no such file /nonexistent/learner.c`},
	} {
		config := filepath.Join(dir, "c.yaml")
		os.WriteFile(config, []byte(c.config), 0o644)
		_, err := Load(config)
		if want := "config " + config + ": " + c.want; err == nil || err.Error() != want {
			t.Errorf("%q:\nerror %v\nwant  %s", c.config, err, want)
		}
	}
	_, err := LoadStdin([]byte("tasks: {family: custom, file: nothere.json}\n"))
	if want := `config (standard input): line 1: tasks.file = "nothere.json": no such file ` + filepath.Join(work, "nothere.json") +
		" (a relative path in a config read from standard input is read from the working directory, " + work + ")"; err == nil || err.Error() != want {
		t.Errorf("standard input:\nerror %v\nwant  %s", err, want)
	}
	os.WriteFile(filepath.Join(work, "m.py"), []byte("class C: pass\n"), 0o644)
	if _, err := LoadStdin([]byte("agents:\n  - {type: python, class: m:C, files: [m.py]}\n")); err != nil {
		t.Errorf("standard input naming a file of the working directory: %v", err)
	}
}

// A task file that does not exist is refused when the config is loaded, naming the config, the
// key and its line, the path as written and as resolved, and the rule that resolved it (relative
// to the config's directory) — not a bare "open nothere.json" when the tasks are built.
func TestLoadNamesAMissingTaskFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir()) // the working directory is not the config's
	for _, c := range []struct{ config, want string }{
		{"runs: 1\ntasks:\n  family: file\n  file: nothere.json\n",
			`line 4: tasks.file = "nothere.json": no such file ` + filepath.Join(dir, "nothere.json") +
				" (a relative path in a config is read from the config's directory, " + dir + ", not the working directory)"},
		{"tasks: {family: custom, file: sub/nothere.yaml}\n",
			`line 1: tasks.file = "sub/nothere.yaml": no such file ` + filepath.Join(dir, "sub", "nothere.yaml") + " (a relative path"},
		{"tasks:\n  family: mixed\n  parts:\n    - family: file\n      file: published:online-maze-4x4\n" +
			"    - family: custom\n      file: /nonexistent/m.json\n",
			`line 7: tasks.parts[1].file = "/nonexistent/m.json": no such file /nonexistent/m.json`},
	} {
		config := filepath.Join(dir, "c.yaml")
		os.WriteFile(config, []byte(c.config), 0o644)
		_, err := Load(config)
		if want := "config " + config + ": " + c.want; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q:\nerror %v\nwant  %s", c.config, err, want)
		}
		if err != nil && strings.HasPrefix(c.want, "line 7") && strings.Contains(err.Error(), "relative path") {
			t.Errorf("an absolute path is told the rule of relative ones: %v", err)
		}
	}
}
