package agenttypes

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/registry"
	"github.com/temple-rl/temple/internal/yamlkeys"
)

// BaseParams are the parameters of a base learner (agent.Base): a pointer to a struct whose yaml
// tags are its config keys. A base learner's parameters are also its Params as the single-task
// agent of its type (Single).
type BaseParams interface {
	// Validate names the first parameter out of range, by its config key.
	Validate() error
	// NewBase builds the base learner.
	NewBase() (agent.Base, error)
	// KnownThreshold is the known threshold m of the learner NewBase builds
	// (agent.Base.KnownThreshold), read from the parameters.
	KnownThreshold() int64
}

// BaseNames lists the base learners' names in rank order, the paper's RMax first: the registered
// types marked Base, each also an agent type of its own (the single-task learner).
func BaseNames() []string {
	var out []string
	for _, t := range inRankOrder() {
		if t.Base {
			out = append(out, t.Name)
		}
	}
	return out
}

// lookupBase is the type of the base learner name.
func lookupBase(name string) (Type, error) {
	if t, err := Lookup(name); err == nil && t.Base {
		return t, nil
	}
	return Type{}, registry.Unknown(fmt.Sprintf("base = %q", name), name, BaseNames())
}

// Single is the single-task agent of a base learner (agent.NewSingle): a base learner's New.
func Single(b agent.Base, err error) (agent.Agent, error) {
	if err != nil {
		return nil, err
	}
	return agent.NewSingle(b), nil
}

// BaseSpec is the base learner a template learner runs over (its Base): its name and its
// parameters, as experiment.AgentSpec is an agent's type and parameters; the base learner itself is
// an agent.Base. A template learner reads and writes it itself (base: NAME, then the base's keys:
// DecodeOverBase, EncodeOverBase); the tags of Name document the key base: for the references,
// which take its range from BaseNames.
type BaseSpec struct {
	Name   string `yaml:"base" doc:"the base learner the templates act on (the paper's RMax by default), with its own keys beside the template learner's"`
	Params BaseParams
}

// DefaultBase is the paper's base, RMax (the first of BaseNames), at its defaults.
func DefaultBase() BaseSpec {
	name := paperBase()
	return BaseSpec{Name: name, Params: BaseDefaults(name)}
}

// paperBase is the paper's base learner, RMax: the base of the lowest rank.
func paperBase() string {
	names := BaseNames()
	if len(names) == 0 {
		panic("agenttypes: no base learner is registered: import package alllearners")
	}
	return names[0]
}

// BaseDefaults are the parameters of base learner name at its defaults: its registered Defaults,
// the one place that decides them. A learner built over a base takes them from there, so that it
// differs from the base only in its own keys at defaults (TestLearnersOverABaseTakeItsDefaults
// holds it for every type of the registry).
func BaseDefaults(name string) BaseParams {
	t, err := lookupBase(name)
	if err != nil {
		panic(err) // a learner names a base that does not exist: a programming error
	}
	return t.Defaults().(BaseParams)
}

// overBase is implemented by the parameters of a learner over a base learner (O-TempLe): Over is
// its base. Its search space starts with the base's, its inert keys are the base's, and its
// display name names a base other than the paper's.
type overBase interface {
	Over() BaseSpec
}

// decode reads the base: key of mapping n (keeping the current base if there is none) and the
// base's parameters, onto its defaults when the base changes.
func (b *BaseSpec) decode(n *yaml.Node) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "base" {
			continue
		}
		v := n.Content[i+1]
		t, err := lookupBase(v.Value)
		if err != nil {
			return fmt.Errorf("line %d: %w", v.Line, err)
		}
		if t.Name != b.Name {
			*b = BaseSpec{Name: t.Name, Params: BaseDefaults(t.Name)}
		}
	}
	return n.Decode(b.Params)
}

// Keys are base: and the base's own keys.
func (b BaseSpec) Keys() []string {
	return append([]string{"base"}, yamlkeys.Of(reflectElem(b.Params))...)
}

// encode appends base: and the base's parameters to mapping out.
func (b BaseSpec) encode(out *yaml.Node) error {
	n, err := Encode(b.Params)
	if err != nil {
		return err
	}
	out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "base"}, &yaml.Node{Kind: yaml.ScalarNode, Value: b.Name})
	out.Content = append(out.Content, n.Content...)
	return nil
}

// display is the base's display name.
func (b BaseSpec) display() string {
	t, _ := lookupBase(b.Name)
	return t.Display
}

// suffix is the display-name suffix of a template learner over b: none over the paper's RMax,
// "-UCRL2" over UCRL2.
func (b BaseSpec) suffix() string {
	if b.Name == paperBase() {
		return ""
	}
	return "-" + b.display()
}

// KnownThreshold is the base's known threshold m, read from its parameters.
func (b BaseSpec) KnownThreshold() int64 { return b.Params.KnownThreshold() }

// DecodeOverBase reads the block n of a learner of type typ over base b: its base (base: NAME and
// the base's keys), then its own parameters onto own, failing on any key not in keys() with its
// line (a learner over a base's UnmarshalYAML).
func DecodeOverBase(n *yaml.Node, typ string, b *BaseSpec, keys func() []string, own any) error {
	if err := b.decode(n); err != nil {
		return err
	}
	if err := registry.CheckKeys(n, "agent type "+typ+" (base "+b.Name+")", keys()); err != nil {
		return err
	}
	return n.Decode(own)
}

// EncodeOverBase is the mapping of the base, its parameters, then own (a learner over a base's
// MarshalYAML).
func EncodeOverBase(b BaseSpec, own any) (*yaml.Node, error) {
	out := &yaml.Node{Kind: yaml.MappingNode}
	if err := b.encode(out); err != nil {
		return nil, err
	}
	var n yaml.Node
	if err := n.Encode(own); err != nil {
		return nil, err
	}
	out.Content = append(out.Content, n.Content...)
	return out, nil
}

// OverBaseMemory is the memory of a learner over base b on a task of S states and A actions: its
// own tables (typeBytes, which was measured over the paper's RMax, less RMax's) and the base's.
func OverBaseMemory(b BaseSpec, typeBytes, S, A int64) int64 {
	rmax, _ := Lookup(paperBase())
	t, _ := Lookup(b.Name)
	base := t.PairBytes * S * A
	if m, ok := b.Params.(memoryer); ok {
		base = m.MemoryBytes(t.PairBytes, S, A, 1)
	}
	return (typeBytes-rmax.PairBytes)*S*A + base
}

// RecordPairBytes is one stored model of a pair (LRMax's memory, FM-TempLe's and FMRL's phase-1
// records), for their memory figures.
const RecordPairBytes = 100
