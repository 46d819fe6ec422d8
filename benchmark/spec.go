package benchmark

import (
	"bytes"
	"fmt"
	"os"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/stats"
	"github.com/temple-rl/temple/tune"
)

// Spec is a benchmark file (benchmarks/small.yaml, benchmarks/full.yaml): the families, the
// learners run on every family, the references run beside them as headroom, the tuning budget
// every learner gets and the margin of the equivalence tests.
type Spec struct {
	Name string `yaml:"name"`
	// Margin is the equivalence margin of every verdict, as temple compare --margin reads it.
	Margin string `yaml:"margin"`
	// Tuning is the budget every learner of every family gets (temple tune --budget, --runs).
	Tuning Budget `yaml:"tuning"`
	// Learners are agents of a config (type:, name:, the type's keys), ranked on every family
	// they apply to.
	Learners []yaml.Node `yaml:"learners"`
	// References are agents shown apart as headroom (the true templates), never ranked.
	References []yaml.Node `yaml:"references"`
	// Search narrows or fixes, by learner name, what temple tune searches (a config's search:).
	Search   map[string]map[string]any `yaml:"search"`
	Families []FamilySpec              `yaml:"families"`
}

// Budget is a tuning budget: Settings settings per learner, Runs runs of each at the first stage
// of successive halving, and Seeds tunings of every family (1, the default when absent, or 2: a
// second tuning at another seed, judged at the same judging seed, to measure how stable the ranks
// are; the headline table is the first tuning's).
type Budget struct {
	Settings int `yaml:"settings" json:"settings"`
	Runs     int `yaml:"runs" json:"runs"`
	Seeds    int `yaml:"seeds" json:"seeds,omitempty"`
	// Draws is temple tune's --draws: per-agent (the default) or shared, each parameter's values
	// the same for every learner that has it (common random numbers: a learner and one built on
	// it are tried at the same values of what they share).
	Draws tune.Draws `yaml:"draws" json:"draws,omitempty"`
}

// SharedDraws says that the settings were drawn shared (tune.Shared).
func (b Budget) SharedDraws() bool { return b.Draws == tune.Shared }

// Tunings is the number of tunings of every family: Seeds, 1 when absent.
func (b Budget) Tunings() int { return max(b.Seeds, 1) }

// FamilySpec is one family: its name, the keys of a config that define its tasks (tasks:,
// episodes:, steps:, gamma:, start:, oracle:, …: anything but name, seed, runs, agents and
// search), its judging runs, and keys some learners need on it (by learner name: a reward
// range, UCRL2's r_max).
type FamilySpec struct {
	Name     string               `yaml:"name"`
	Runs     int                  `yaml:"runs"`
	Config   yaml.Node            `yaml:"config"`
	Learners map[string]yaml.Node `yaml:"learners"`
}

// Load reads and checks a benchmark file.
func Load(path string) (Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, fmt.Errorf("benchmark: %w", err)
	}
	var s Spec
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return Spec{}, fmt.Errorf("benchmark: %s: %w", path, err)
	}
	if err := s.check(); err != nil {
		return Spec{}, fmt.Errorf("benchmark: %s: %w", path, err)
	}
	return s, nil
}

// check refuses a benchmark file that cannot run, naming the field and the value.
func (s Spec) check() error {
	if _, err := stats.ParseMargin(s.Margin); err != nil {
		return fmt.Errorf("margin: %w", err)
	}
	if s.Tuning.Settings < 1 || s.Tuning.Runs < 1 {
		return fmt.Errorf("tuning: settings = %d, runs = %d: want at least 1 each", s.Tuning.Settings, s.Tuning.Runs)
	}
	if err := s.Tuning.Draws.Check(); err != nil {
		return fmt.Errorf("tuning: %w", err)
	}
	if s.Tuning.Seeds < 0 || s.Tuning.Seeds > 2 {
		return fmt.Errorf("tuning: seeds = %d: want 1 (one tuning per family) or 2 (a second tuning, for the ranks' stability)", s.Tuning.Seeds)
	}
	if len(s.Families) == 0 || len(s.Learners) == 0 {
		return fmt.Errorf("a benchmark needs a families: list and a learners: list")
	}
	names := map[string]bool{}
	for _, n := range append(slices.Clone(s.Learners), s.References...) {
		a, err := decodeAgent(&n)
		if err != nil {
			return fmt.Errorf("learners: %w", err)
		}
		if names[a.Name] {
			return fmt.Errorf("learners: %q appears twice (give each a name:)", a.Name)
		}
		names[a.Name] = true
	}
	families := map[string]bool{}
	for i, f := range s.Families {
		switch {
		case f.Name == "" || families[f.Name]:
			return fmt.Errorf("families[%d]: name %q: each family needs a name, once", i, f.Name)
		case f.Runs < 2:
			return fmt.Errorf("families[%d] (%s): runs = %d: the judging needs at least 2 runs for a paired test", i, f.Name, f.Runs)
		case f.Config.Kind != yaml.MappingNode:
			return fmt.Errorf("families[%d] (%s): config: want a mapping of a config's keys (tasks:, episodes:, …)", i, f.Name)
		}
		for k := 0; k+1 < len(f.Config.Content); k += 2 {
			switch key := f.Config.Content[k].Value; key {
			case "name", "seed", "runs", "agents", "search", "tuning":
				return fmt.Errorf("families[%d] (%s): config: %s is the benchmark's to set", i, f.Name, key)
			}
		}
		for name := range f.Learners {
			if !names[name] {
				return fmt.Errorf("families[%d] (%s): learners: no learner or reference named %q", i, f.Name, name)
			}
		}
		families[f.Name] = true
	}
	return nil
}

// decodeAgent reads one agent as a config's agents: entry reads it.
func decodeAgent(n *yaml.Node) (experiment.AgentSpec, error) {
	var a experiment.AgentSpec
	if err := n.Decode(&a); err != nil {
		return a, err
	}
	return a, nil
}

// merged is agent node a with the keys of override replacing or added to its own.
func merged(a, override *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Line: a.Line, Column: a.Column}
	if override == nil {
		out.Content = slices.Clone(a.Content)
		return out
	}
	has := map[string]bool{}
	for k := 0; k+1 < len(override.Content); k += 2 {
		has[override.Content[k].Value] = true
	}
	for k := 0; k+1 < len(a.Content); k += 2 {
		if !has[a.Content[k].Value] {
			out.Content = append(out.Content, a.Content[k], a.Content[k+1])
		}
	}
	out.Content = append(out.Content, override.Content...)
	return out
}

// config is the experiment config of family f with the agents given (already merged), its name,
// seed and runs: a config temple run would read.
func config(f FamilySpec, name string, seed uint64, runs int, agents []*yaml.Node, search map[string]map[string]any) (experiment.Spec, error) {
	root := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v any) error {
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return err
		}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &n)
		return nil
	}
	if err := add("name", name); err != nil {
		return experiment.Spec{}, err
	}
	if err := add("seed", seed); err != nil {
		return experiment.Spec{}, err
	}
	if err := add("runs", runs); err != nil {
		return experiment.Spec{}, err
	}
	root.Content = append(root.Content, f.Config.Content...)
	seq := &yaml.Node{Kind: yaml.SequenceNode, Content: agents}
	root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "agents"}, seq)
	if len(search) > 0 {
		if err := add("search", search); err != nil {
			return experiment.Spec{}, err
		}
	}
	b, err := yaml.Marshal(root)
	if err != nil {
		return experiment.Spec{}, err
	}
	s, err := experiment.Parse(b)
	if err != nil {
		return experiment.Spec{}, fmt.Errorf("family %s: %w", f.Name, err)
	}
	return s, nil
}

// Addition is an --add file: agents: (a config's) and an optional search: block.
type Addition struct {
	Agents []yaml.Node               `yaml:"agents"`
	Search map[string]map[string]any `yaml:"search"`
}

// LoadAddition reads an --add file: a config's agents: and search: (the rest of a config, if
// there, is ignored). It is read as temple run reads a config, so a learner's files (a Python
// class's module, an external command's directory) are found beside the file.
func LoadAddition(path string) (Addition, error) {
	c, err := experiment.Load(path)
	if err != nil {
		return Addition{}, fmt.Errorf("benchmark: --add: %w", err)
	}
	a := Addition{Search: c.Search}
	for i, x := range c.Agents {
		n, err := x.MarshalYAML()
		if err != nil {
			return Addition{}, fmt.Errorf("benchmark: --add %s: agents[%d]: %w", path, i, err)
		}
		a.Agents = append(a.Agents, *n.(*yaml.Node))
	}
	return a, nil
}

// Add adds the learners of a to every family of s; a name already there is refused.
func (s *Spec) Add(a Addition, path string) error {
	names := map[string]bool{}
	for _, n := range append(slices.Clone(s.Learners), s.References...) {
		x, _ := decodeAgent(&n)
		names[x.Name] = true
	}
	for i := range a.Agents {
		x, _ := decodeAgent(&a.Agents[i])
		if names[x.Name] {
			return fmt.Errorf("benchmark: --add %s: agents[%d]: a learner named %q is already in the benchmark; give it another name with name: NAME", path, i, x.Name)
		}
		names[x.Name] = true
		s.Learners = append(s.Learners, a.Agents[i])
	}
	if s.Search == nil {
		s.Search = map[string]map[string]any{}
	}
	for name, keys := range a.Search {
		if !names[name] {
			return fmt.Errorf("benchmark: --add %s: search: no learner named %q", path, name)
		}
		s.Search[name] = keys
	}
	return nil
}

// singleTask says that agents of type typ learn each task alone (agenttypes.Type.SingleTask): the
// family's best of them is what every learner's verdict is against.
func singleTask(typ string) bool {
	t, err := agenttypes.Lookup(typ)
	return err == nil && t.SingleTask
}

// outside says that agent a is a learner written outside temple (python, external).
func outside(a experiment.AgentSpec) bool { return agenttypes.Outside(a.Params) }
