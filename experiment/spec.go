package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/env/published"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/internal/regular"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/results"
)

// Spec is an experiment as written in a config file. Every field has a default (see Default and
// docs/reference/configuration.md); a file states only what it changes.
type Spec struct {
	Name      string    `yaml:"name" doc:"the experiment's name: its results directory runs/NAME" range:"a file name"`
	Seed      uint64    `yaml:"seed" doc:"every random stream (tasks, starts, agents) derives from it"`
	Runs      int       `yaml:"runs" doc:"task sequences (the paper's runs), each with its own tasks" range:">= 1"`
	Episodes  int       `yaml:"episodes" doc:"episodes per task" range:">= 1"`
	Steps     int       `yaml:"steps" doc:"steps per episode: an episode ends here (truncated) or at a terminal state" range:">= 1"`
	Gamma     float64   `yaml:"gamma" doc:"discount γ of every agent" range:"[0, 1)"`
	Start     StartRule `yaml:"start" doc:"where episodes start: one random state per task, per episode, or a fixed one" range:"random-per-task | random-per-episode | fixed"`
	StartCell [2]int    `yaml:"start_cell" doc:"with start: fixed, the start cell [x, y] of grid tasks (mazes, grids, FourRoom)"`
	// StartState, with start: fixed, is the start state of tasks that are not grids (for grids
	// start_cell says it as a cell); nil unless given.
	StartState *int          `yaml:"start_state,omitempty" doc:"with start: fixed, the start state of any task (a state number); wins over start_cell" range:">= 0"`
	Tasks      families.Spec `yaml:"tasks" doc:"the task family (family: NAME) and its keys: temple describe families"`
	Agents     []AgentSpec   `yaml:"agents" doc:"the agents, each type: NAME and its keys: temple describe types" range:"at least one"`
	Output     OutputSpec    `yaml:"output" doc:"what the results directory holds besides the per-task results (output.*)"`
	Oracle     OracleSpec    `yaml:"oracle" doc:"measuring against the optimal policy of each task's true model (oracle.*)"`
	// Sweep runs the experiment at every value of one parameter, or every combination of several.
	Sweep []SweepParam `yaml:"sweep,omitempty" doc:"run at every value of a parameter, or every combination of several (sweep[].*)"`
	// Scaling runs the experiment at growing maze sizes and template counts and fits the
	// sample-complexity law (see Scaling).
	Scaling *Scaling `yaml:"scaling,omitempty" doc:"run at growing maze sizes and template counts and fit the sample-complexity law (scaling.*)"`
	// MaxMemory, in MB, is the memory an experiment may need by its estimate (task models and the
	// agents running at once); a larger one is refused before anything is built. 0: the
	// machine's memory.
	MaxMemory int64 `yaml:"max_memory,omitempty" doc:"MB the experiment may need by its estimate (0: the machine's memory)" range:">= 0"`
	// Inputs is written by temple (fingerprint.go): the SHA-256 of every file the tasks read, by
	// path, so that results record the content they were made from; a config's own is replaced.
	Inputs map[string]string `yaml:"inputs,omitempty" doc:"written by temple into spec.yaml: the SHA-256 of every file the tasks read, by path (a config's own is replaced)"`
	// Search narrows or fixes, by agent name and key, what temple tune searches (package tune).
	Search map[string]map[string]any `yaml:"search,omitempty" doc:"temple tune only: by agent name, the keys it searches narrowed to a range [low, high] or a list of choices, or fixed to a value (docs/guides/tuning.md)"`
	// Tuning, in a config temple tune wrote, records how its agents were tuned; its seeds are
	// refused (results.Tuning.CheckSeed).
	Tuning *results.Tuning `yaml:"tuning,omitempty" doc:"written by temple tune into a tuned config: how its agents were tuned (seeds, budget, objective); temple run refuses its seeds"`

	// dir says how a run treats what its results directory holds (WithDir); inputs holds the
	// files the tasks read, each read once (ReadInputsOnce); source names the config it was read
	// from, for Check's messages ("config PATH", "config (standard input)"; "" for a spec built in
	// code).
	dir    DirOptions
	inputs *families.ReadOnce
	source string
}

// OutputSpec says what the results directory holds besides the per-task results.
type OutputSpec struct {
	// Episodes writes every episode's return (one CSV per cell under episodes/).
	Episodes bool `yaml:"episodes" doc:"write every episode's return (episodes/)"`
	// Templates writes, for agents with a template library, each pair's template and the library
	// at the end of every task (one JSON-lines file per cell under templates/), for pictures.
	Templates bool `yaml:"templates,omitempty" doc:"write each template learner's pair templates and library after every task (templates/)"`
	// Smoothing is the weight of the exponential moving average in per-task figures (0 = raw;
	// the paper's figures use 0.9).
	Smoothing float64 `yaml:"smoothing" doc:"EMA weight of the per-task figures (0: raw; the paper's figures use 0.9)" range:"[0, 1)"`
	// Baseline is the agent the advantage figure subtracts; by default the agent named RMax if
	// there is one, else none (no advantage figure).
	Baseline string `yaml:"baseline" doc:"the agent the advantage figure subtracts; default RMax if there is one" range:"an agent's name"`
	// Verdicts are the comparisons that decide the experiment's question, each "A:B" (A − B),
	// named before it runs: temple run, report.html and temple compare test these alone, with
	// Holm's correction over them, and they are part of the spec the results are made from.
	Verdicts []string `yaml:"verdicts,omitempty" doc:"the comparisons that decide the question, each \"A:B\" (A − B), named before the run: temple run, report.html and temple compare test these alone, Holm-adjusted over them (default: every pair of up to 4 agents, else each against the baseline)" range:"A:B, agents' names"`
}

// OracleSpec says how learners are measured against the optimal policy of each task's true model
// (oracle.csv, regret.csv and the share of optimal in summary.json).
type OracleSpec struct {
	// Enabled computes the optimal values of every task and each agent's regret, ε-mistakes and
	// regret decomposition.
	Enabled bool `yaml:"enabled" doc:"oracle.csv, regret.csv, share of optimal, ε-mistakes and regret decomposition; simulators cannot be solved (false there)"`
	// Epsilon is the ε of ε-mistakes (steps t with Q*(s_t,a_t) < V*(s_t) − ε, γ-discounted) as a
	// fraction of the task's V_max = R_max/(1−γ), R_max the largest |reward| of the task.
	Epsilon float64 `yaml:"epsilon" doc:"ε of ε-mistakes as a fraction of V_max = max|r|/(1−γ)" range:">= 0"`
	// PolicyMistakes also counts Kakade's ε-mistakes: steps t with V^{π_t}(s_t) < V*(s_t) − ε,
	// π_t the learner's current policy evaluated exactly on the true model whenever it changes
	// (agent.PolicyInfo; learners without it are not measured). Off by default: it costs a
	// policy evaluation per policy change, and every exploring step of RMax changes it.
	PolicyMistakes bool `yaml:"policy_mistakes,omitempty" doc:"also count Kakade's ε-mistakes (a policy evaluation per policy change: slow)" range:"needs enabled"`
}

// DefaultEpsilon is the default oracle.epsilon: ε = 0.1·V_max. The paper's sample-complexity
// bounds depend on ε only through V_max/ε (Theoretical Analysis), so ε is given relative to V_max.
const DefaultEpsilon = 0.1

// Default is the spec a config starts from (Parse): the online 4×4 maze setting, sized to finish
// in seconds — 3 runs of 20 tasks of 3000 episodes × 30 steps with O-TempLe, RMax and Q-learning.
func Default() Spec {
	tasks, _ := families.New(families.OnlineMaze)
	tasks.Params.(*families.OnlineMazeParams).Tasks = 20
	s := Spec{
		Name: "online-maze-small", Seed: 1, Runs: 3, Episodes: 3000, Steps: 30, Gamma: 0.95,
		Start: StartPerTask, StartCell: [2]int{1, 1}, Tasks: tasks,
		Output: OutputSpec{Smoothing: 0.9, Baseline: "RMax"},
		Oracle: OracleSpec{Enabled: true, Epsilon: DefaultEpsilon},
	}
	for _, typ := range []string{TypeOTempLe, TypeRMax, TypeQLearning} {
		s.Agents = append(s.Agents, defaultAgent(typ))
	}
	return s
}

// MaxConfigBytes bounds a config: 4 MiB (a config of thousands of lines is a few hundred KB; the
// YAML parser takes about 60 times the text in memory).
const MaxConfigBytes = 4 << 20

// Load reads a spec file: defaults first (those of the file's task family), then the file on
// top. Unknown or misspelt keys, and parameters of another family or agent type, fail with their
// line number. A relative path in the file (a task file, a learner's source) is read relative to
// the file's directory, not the working directory. Only a regular file of at most MaxConfigBytes
// is read.
func Load(path string) (Spec, error) {
	b, err := ReadConfig(path)
	if err != nil {
		return Spec{}, err
	}
	return LoadBytes(path, b)
}

// ReadConfig reads the config file at path: a regular file of at most MaxConfigBytes (a named
// pipe, a device or a directory is refused before it is read).
func ReadConfig(path string) ([]byte, error) {
	b, err := regular.ReadFile(path, MaxConfigBytes)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return b, nil
}

// LoadBytes is Load of the content b of the config file at path (ReadConfig).
func LoadBytes(path string, b []byte) (Spec, error) {
	s, err := Parse(b)
	if err != nil {
		return Spec{}, fmt.Errorf("config %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	s.mapPaths(func(p string) string { return filepath.Join(dir, p) })
	if err := checkInputFiles(configSource{path: path}, b, s); err != nil {
		return Spec{}, fmt.Errorf("config %s: %w", path, err)
	}
	s.source = "config " + path
	return s, nil
}

// LoadStdin is Load of the config b read from standard input: its relative paths are the
// working directory's, and a file they name that does not exist is refused as Load refuses it.
func LoadStdin(b []byte) (Spec, error) {
	s, err := Parse(b)
	if err == nil {
		err = checkInputFiles(configSource{}, b, s)
	}
	if err != nil {
		return Spec{}, fmt.Errorf("config (standard input): %w", err)
	}
	s.source = "config (standard input)"
	return s, nil
}

// Relocated is s, whose relative input paths (task files, learners' directories) are the
// working directory's, with those paths made relative to dir instead: the spec of a config
// written into dir (a tuned config), which Load reads from there. s is unchanged.
func (s Spec) Relocated(dir string) (Spec, error) {
	b, err := yaml.Marshal(s)
	if err != nil {
		return Spec{}, err
	}
	out, err := Parse(b)
	if err != nil {
		return Spec{}, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Spec{}, err
	}
	out.mapPaths(func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			if rel, err := filepath.Rel(abs, a); err == nil {
				return rel
			}
		}
		return p
	})
	return out, nil
}

// mapPaths replaces every relative input path of s by f of it: a custom MDP file, a
// task-sequence file (not published:NAME), those of a mixed family's parts, and the directories
// of learners written outside temple (where their files are read; "" is the config's).
func (s *Spec) mapPaths(f func(string) string) {
	var tasks func(t *families.Spec)
	resolve := func(path *string) {
		if *path != "" && !filepath.IsAbs(*path) {
			*path = f(*path)
		}
	}
	tasks = func(t *families.Spec) {
		switch p := t.Params.(type) {
		case *families.CustomParams:
			resolve(&p.File)
		case *families.FileParams:
			if !strings.HasPrefix(p.File, published.Prefix) {
				resolve(&p.File)
			}
		case *families.MixedParams:
			for i := range p.Parts {
				tasks(&p.Parts[i])
			}
		}
	}
	tasks(&s.Tasks)
	for _, a := range s.Agents {
		switch p := a.Params.(type) {
		case *agenttypes.Python:
			if !filepath.IsAbs(p.Path) {
				p.Path = f(p.Path)
			}
		case *agenttypes.External:
			if !filepath.IsAbs(p.Dir) {
				p.Dir = f(p.Dir)
			}
		}
	}
}

// Parse decodes a spec from YAML onto the defaults and validates it. The task family chooses the
// defaults of the tasks: block.
func Parse(b []byte) (Spec, error) {
	doc, err := checkMapping(b)
	if err != nil {
		return Spec{}, err
	}
	if err := yamlkeys.Check(doc, reflect.TypeFor[Spec](), "a config"); err != nil {
		return Spec{}, err
	}
	s := Default()
	s.Name, s.Output.Baseline = "", ""
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil && !errors.Is(err, io.EOF) {
		return Spec{}, yamlkeys.Words(err, doc)
	}
	if s.Name == "" {
		s.Name = "experiment"
	}
	if s.Output.Baseline == "" && slices.Contains(s.AgentNames(), "RMax") {
		s.Output.Baseline = "RMax"
	}
	if err := s.Validate(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// checkMapping rejects what cannot be a config before decoding: a binary file, an empty one (the
// defaults would run silently) and a YAML document that is not a mapping of keys. It returns the
// document's mapping.
func checkMapping(b []byte) (*yaml.Node, error) {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0 || r == utf8.RuneError && size == 1 {
			return nil, fmt.Errorf("not a text file (a NUL byte or invalid UTF-8 at byte %d); a config is a YAML mapping such as \"runs: 3\"", i)
		}
		i += size
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlkeys.Words(err, nil)
	}
	for { // a second document was ignored: refused, unless it is empty (a trailing ---)
		var next yaml.Node
		err := dec.Decode(&next)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, yamlkeys.Words(err, nil)
		}
		if len(next.Content) > 0 && !isNull(next.Content[0]) {
			return nil, fmt.Errorf("line %d: a second YAML document (after ---); a config is one document: "+
				"put every key in one, or each experiment in its own file", next.Content[0].Line)
		}
	}
	if line, ok := mergeKey(&doc); ok {
		return nil, fmt.Errorf("line %d: a YAML merge key (<<) is not read in a config; write the keys it would merge "+
			"out in full", line)
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("the config is empty; give at least one key (for instance \"runs: 3\"), or run without a config for the default experiment")
	}
	if root := doc.Content[0]; root.Kind != yaml.MappingNode {
		kind := map[yaml.Kind]string{yaml.SequenceNode: "a list", yaml.ScalarNode: "a single value", yaml.AliasNode: "an alias"}[root.Kind]
		return nil, fmt.Errorf("line %d: the config is %s; want a mapping of keys (runs, tasks, agents, ...)", root.Line, kind)
	}
	return doc.Content[0], nil
}

// isNull reports whether n is an empty value.
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// mergeKey finds a YAML merge key (<<) in n, and its line.
func mergeKey(n *yaml.Node) (int, bool) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.ShortTag() == "!!merge" {
				return k.Line, true
			}
		}
	}
	for _, c := range n.Content {
		if line, ok := mergeKey(c); ok {
			return line, true
		}
	}
	return 0, false
}

// Validate names the first field out of range.
func (s *Spec) Validate() error {
	if err := s.validateSettings(); err != nil {
		return err
	}
	if err := s.Tasks.Validate(); err != nil {
		return fmt.Errorf("tasks: %w", err)
	}
	if err := validateNames(s); err != nil { // names.go
		return err
	}
	if err := checkSizes(s); err != nil { // size.go
		return err
	}
	names := map[string]bool{}
	for k, a := range s.Agents {
		if names[a.Name] {
			return fmt.Errorf("agents[%d]: name %q used twice; give each agent its own name", k, a.Name)
		}
		names[a.Name] = true
	}
	if err := s.validateSearch(); err != nil {
		return err
	}
	if err := s.Tuning.CheckSeed(s.Seed); err != nil {
		return err
	}
	if err := s.validateOutput(names); err != nil {
		return err
	}
	if s.Scaling != nil {
		if err := s.Scaling.validate(*s); err != nil {
			return err
		}
	}
	return s.validateSweep()
}

// validateSettings names the first of the spec's own settings out of range: the counts, γ, the
// start rule, the smoothing, the oracle's, the agents' count and max_memory.
func (s *Spec) validateSettings() error {
	switch {
	case s.Runs < 1:
		return fmt.Errorf("runs = %d, want at least 1", s.Runs)
	case s.Episodes < 1:
		return fmt.Errorf("episodes = %d, want at least 1", s.Episodes)
	case s.Steps < 1:
		return fmt.Errorf("steps = %d, want at least 1", s.Steps)
	case !(s.Gamma >= 0 && s.Gamma < 1):
		return fmt.Errorf("gamma = %v, want 0 <= gamma < 1", s.Gamma)
	case s.Start != StartPerTask && s.Start != StartPerEpisode && s.Start != StartFixed:
		return fmt.Errorf("start = %q, want %q, %q or %q", s.Start, StartPerTask, StartPerEpisode, StartFixed)
	case !(s.Output.Smoothing >= 0 && s.Output.Smoothing < 1):
		return fmt.Errorf("output.smoothing = %v, want 0 <= smoothing < 1", s.Output.Smoothing)
	case s.Oracle.PolicyMistakes && !s.Oracle.Enabled:
		return fmt.Errorf("oracle.policy_mistakes = true needs oracle.enabled = true")
	case !(s.Oracle.Epsilon >= 0) || math.IsInf(s.Oracle.Epsilon, 0):
		return fmt.Errorf("oracle.epsilon = %v, want a finite number >= 0 (a fraction of V_max)", s.Oracle.Epsilon)
	case len(s.Agents) == 0:
		return fmt.Errorf("agents: none listed, want at least one")
	case s.MaxMemory < 0:
		return fmt.Errorf("max_memory = %d, want a number of MB >= 0 (0: the machine's memory)", s.MaxMemory)
	}
	if s.StartState != nil && *s.StartState < 0 {
		return fmt.Errorf("start_state = %d, want a state number >= 0", *s.StartState)
	}
	return nil
}

// validateOutput checks the output: block against the agents' names: the baseline is one of
// them, and the verdicts' pairs are of them.
func (s *Spec) validateOutput(names map[string]bool) error {
	if b := s.Output.Baseline; b != "" && !names[b] {
		return fmt.Errorf("output.baseline = %q is not the name of an agent (have %s)", b, strings.Join(s.AgentNames(), ", "))
	}
	if v := s.Output.Verdicts; len(v) > 0 { // none (or []): the default verdicts
		if _, err := results.SplitPairs(v, s.AgentNames()); err != nil {
			return fmt.Errorf("output.verdicts: %w", err)
		}
	}
	return nil
}

// AgentNames lists the agents' names in spec order.
func (s *Spec) AgentNames() []string {
	var out []string
	for _, a := range s.Agents {
		out = append(out, a.Name)
	}
	return out
}

// Check says whether s can run, before anything is written: every experiment of it (each point
// of a sweep or scaling block) validates, and the first one's first run is built — its task
// sequence drawn or read from its files, its models and simulators, its agents — so that a
// missing task file, a simulator with the oracle on or an agent that cannot run on the tasks
// fails before a results directory is made or --force clears one. Its errors name the config s
// was read from (Load), and an agent's its line.
func Check(s Spec) error {
	err := check(s)
	if err != nil && s.source != "" {
		return fmt.Errorf("%s: %w", s.source, err)
	}
	return err
}

// check is Check's work, its errors not yet named by the config.
func check(s Spec) error {
	s = s.ReadInputsOnce()
	if err := s.Validate(); err != nil {
		return err
	}
	points, err := Points(s)
	if err != nil {
		return err
	}
	for _, pt := range points {
		if err := pt.Spec.Validate(); err != nil {
			return err
		}
	}
	first := points[0].Spec
	first.Runs = 1
	_, err = Build(first)
	return err
}
