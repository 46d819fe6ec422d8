package agenttypes

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/registry"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// BaseParams are the parameters of a base learner (agent.Base): a pointer to a struct whose yaml
// tags are its config keys.
type BaseParams interface {
	// Validate names the first parameter out of range, by its config key.
	Validate() error
	// NewBase builds the base learner.
	NewBase() (agent.Base, error)
}

// BaseNames lists the base learners' names, the paper's RMax first: the types of the table
// marked base, each also an agent type of its own (the single-task learner).
func BaseNames() []string {
	var out []string
	for _, t := range table.InOrder() {
		if t.base {
			out = append(out, t.Name)
		}
	}
	return out
}

// lookupBase is the type of the base learner name.
func lookupBase(name string) (Type, error) {
	if t, err := Lookup(name); err == nil && t.base {
		return t, nil
	}
	return Type{}, registry.Unknown(fmt.Sprintf("base = %q", name), name, BaseNames())
}

// defaultRMax and defaultPSRL are RMax's and PSRL's defaults, their entries' in the table, for the
// entries built over them (defaultBase; template-prior, latent-psrl and hybrid-prior over PSRL),
// whose Defaults cannot look the table up: it is being made (an initialization cycle).
func defaultRMax() *RMax { return &RMax{learners.DefaultRMax()} }
func defaultPSRL() *PSRL { return &PSRL{learners.DefaultPSRL()} }

// RMax is RMax's parameters (Brafman & Tennenholtz 2002), as a base learner and as the
// single-task agent rmax.
type RMax struct {
	learners.RMaxParams `yaml:",inline"`
}

func (p *RMax) NewBase() (agent.Base, error)     { return learners.NewRMax(p.RMaxParams) }
func (p *RMax) New(Context) (agent.Agent, error) { return single(p.NewBase()) }

// MBIEEB is MBIE-EB's parameters (Strehl & Littman 2008), as a base learner and as the
// single-task agent mbie-eb.
type MBIEEB struct {
	learners.MBIEEBParams `yaml:",inline"`
}

func (p *MBIEEB) NewBase() (agent.Base, error)     { return learners.NewMBIEEB(p.MBIEEBParams) }
func (p *MBIEEB) New(Context) (agent.Agent, error) { return single(p.NewBase()) }

// E3 is E3's parameters (Kearns & Singh 2002), as a base learner and as the single-task agent e3.
type E3 struct {
	learners.E3Params `yaml:",inline"`
}

func (p *E3) NewBase() (agent.Base, error)     { return learners.NewE3(p.E3Params) }
func (p *E3) New(Context) (agent.Agent, error) { return single(p.NewBase()) }

// UCRL2 is UCRL2's parameters (Jaksch, Ortner & Auer 2010), as a base learner and as the
// single-task agent ucrl2.
type UCRL2 struct {
	learners.UCRL2Params `yaml:",inline"`
}

func (p *UCRL2) NewBase() (agent.Base, error)     { return learners.NewUCRL2(p.UCRL2Params) }
func (p *UCRL2) New(Context) (agent.Agent, error) { return single(p.NewBase()) }

// PSRL is PSRL's parameters (Osband, Russo & Van Roy 2013), as a base learner and as the
// single-task agent psrl.
type PSRL struct {
	learners.PSRLParams `yaml:",inline"`
}

func (p *PSRL) NewBase() (agent.Base, error)     { return learners.NewPSRL(p.PSRLParams) }
func (p *PSRL) New(Context) (agent.Agent, error) { return single(p.NewBase()) }

// memory counts PSRL's dense sampled model: S next-state probabilities per pair and the S×S
// matrix of its exact policy evaluation.
func (p *PSRL) memory(typeBytes, S, A, _ int64) int64 { return (typeBytes+8*S)*S*A + 8*S*S }

// single is the single-task agent of a base learner (agent.NewSingle).
func single(b agent.Base, err error) (agent.Agent, error) {
	if err != nil {
		return nil, err
	}
	return agent.NewSingle(b), nil
}

// BaseSpec is the base learner a template learner runs over (its Base): its name and its
// parameters, as experiment.AgentSpec is an agent's type and parameters; the base learner itself is
// an agent.Base. A template learner reads and writes it itself (base: NAME, then the base's keys);
// the tags of Name document the key base: for the references, which take its range from BaseNames.
type BaseSpec struct {
	Name   string `yaml:"base" doc:"the base learner the templates act on (the paper's RMax by default), with its own keys beside the template learner's"`
	Params BaseParams
}

// defaultBase is the paper's base, RMax, at its defaults.
func defaultBase() BaseSpec { return BaseSpec{Name: RMaxType, Params: defaultRMax()} }

// baseDefaults are the parameters of base learner name at its defaults: its entry's in the table,
// the one place that decides them. A learner built over a base takes them from there, so that it
// differs from the base only in its own keys at defaults (TestLearnersOverABaseTakeItsDefaults
// holds it for every type of the registry).
func baseDefaults(name string) BaseParams {
	t, err := lookupBase(name)
	if err != nil {
		panic(err) // the registry names a base that does not exist: a programming error
	}
	return t.Defaults().(BaseParams)
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
			*b = BaseSpec{Name: t.Name, Params: baseDefaults(t.Name)}
		}
	}
	return n.Decode(b.Params)
}

// keys are base: and the base's own keys.
func (b BaseSpec) keys() []string {
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
	if b.Name == RMaxType {
		return ""
	}
	return "-" + b.display()
}

// OTempLe is O-TempLe's parameters: the template parameters (m_s, τ̂, …) and its base learner's.
// Until a config sets m_s, it follows the base's m (temple.DefaultMs): the paper's 50, or m when
// that is smaller, so that O-TempLe runs with its defaults over every base.
type OTempLe struct {
	Base          BaseSpec
	temple.Params `yaml:",inline"`
	msSet         bool // a config set m_s
}

// Keys are O-TempLe's keys and its base's.
func (p *OTempLe) Keys() []string {
	return append(p.Base.keys(), yamlkeys.Of(reflectElem(&p.Params))...)
}

// UnmarshalYAML reads the base (base: NAME and its keys) and the template parameters, failing on
// any other key with its line.
func (p *OTempLe) UnmarshalYAML(n *yaml.Node) error {
	return decodeTemplateLearner(n, OTempLeType, &p.Base, p.Keys, &p.Params, &p.Ms, &p.msSet)
}

// follow keeps m_s following the base's m in a copy of orig (Clone).
func (p *OTempLe) follow(orig Params) { p.msSet = orig.(*OTempLe).msSet }

// SetBase runs O-TempLe over base b, as a config's base: and the base's keys do: m_s follows b's
// m unless it was set (SetMs, or a config's m_s:). Set b's parameters before: changing them in
// place afterwards leaves m_s where it was.
func (p *OTempLe) SetBase(b BaseSpec) {
	p.Base = b
	if !p.msSet {
		p.Ms = defaultMs(b, p.Ms)
	}
}

// SetMs sets m_s, as a config's m_s: does: from then on it no longer follows the base's m.
func (p *OTempLe) SetMs(ms int64) { p.Ms, p.msSet = ms, true }

// MarshalYAML writes the base and its parameters, then the template parameters.
func (p *OTempLe) MarshalYAML() (any, error) { return encodeWithBase(p.Base, &p.Params) }

func (p *OTempLe) Validate() error {
	if err := p.Base.Params.Validate(); err != nil {
		return err
	}
	m, err := knownThreshold(p.Base)
	if err != nil {
		return err
	}
	return p.Params.Validate(m)
}

func (p *OTempLe) New(Context) (agent.Agent, error) {
	base, err := p.Base.Params.NewBase()
	if err != nil {
		return nil, err
	}
	return temple.NewOTempLe(p.Params, base)
}

// Display is "O-TempLe" over RMax, "O-TempLe-UCRL2" over UCRL2.
func (p *OTempLe) Display(typeDisplay string) string { return typeDisplay + p.Base.suffix() }

// FMTempLe is FM-TempLe's parameters: O-TempLe's, the finite-model ones and its base learner's;
// m_s follows the base's m as O-TempLe's does.
type FMTempLe struct {
	Base            BaseSpec
	temple.FMParams `yaml:",inline"`
	msSet           bool // a config set m_s
}

// Keys are FM-TempLe's keys and its base's.
func (p *FMTempLe) Keys() []string {
	return append(p.Base.keys(), yamlkeys.Of(reflectElem(&p.FMParams))...)
}

// UnmarshalYAML reads the base and the template parameters, failing on any other key.
func (p *FMTempLe) UnmarshalYAML(n *yaml.Node) error {
	return decodeTemplateLearner(n, FMTempLeType, &p.Base, p.Keys, &p.FMParams, &p.Ms, &p.msSet)
}

// decodeTemplateLearner reads the block n of a template learner of type typ: its base b (base:
// NAME and the base's keys), then its own parameters onto params, failing on any key not in
// keys() with its line. Its m_s (*ms) follows the base's m until a block sets it (*msSet).
func decodeTemplateLearner(n *yaml.Node, typ string, b *BaseSpec, keys func() []string, params any, ms *int64, msSet *bool) error {
	if err := b.decode(n); err != nil {
		return err
	}
	if err := registry.CheckKeys(n, "agent type "+typ+" (base "+b.Name+")", keys()); err != nil {
		return err
	}
	if err := n.Decode(params); err != nil {
		return err
	}
	*msSet = *msSet || hasKey(n, "m_s")
	if !*msSet {
		*ms = defaultMs(*b, *ms)
	}
	return nil
}

// follow keeps m_s following the base's m in a copy of orig (Clone).
func (p *FMTempLe) follow(orig Params) { p.msSet = orig.(*FMTempLe).msSet }

// defaultMs is m_s over base b when no config set it (temple.DefaultMs), or ms as it is while b's
// parameters do not build (Validate names them).
func defaultMs(b BaseSpec, ms int64) int64 {
	m, err := knownThreshold(b)
	if err != nil {
		return ms
	}
	return temple.DefaultMs(m)
}

// hasKey reports whether mapping n has the key.
func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// MarshalYAML writes the base and its parameters, then the template parameters.
func (p *FMTempLe) MarshalYAML() (any, error) { return encodeWithBase(p.Base, &p.FMParams) }

func (p *FMTempLe) Validate() error {
	if err := p.Base.Params.Validate(); err != nil {
		return err
	}
	m, err := knownThreshold(p.Base)
	if err != nil {
		return err
	}
	return p.FMParams.Validate(m)
}

func (p *FMTempLe) New(Context) (agent.Agent, error) {
	base, err := p.Base.Params.NewBase()
	if err != nil {
		return nil, err
	}
	return temple.NewFMTempLe(p.FMParams, base)
}

// Display is "FM-TempLe" over RMax, "FM-TempLe-PSRL" over PSRL.
func (p *FMTempLe) Display(typeDisplay string) string { return typeDisplay + p.Base.suffix() }

// memory is a template learner's own tables, its base's, and its T_1 phase-1 models.
func (p *FMTempLe) memory(typeBytes, S, A, _ int64) int64 {
	return templeMemory(p.Base, typeBytes, S, A) + int64(p.T1)*recordPairBytes*S*A + refuteMemory(p.Refute, S, A)
}

// memory is a template learner's own tables and its base's.
func (p *OTempLe) memory(typeBytes, S, A, _ int64) int64 {
	return templeMemory(p.Base, typeBytes, S, A) + refuteMemory(p.Refute, S, A)
}

// refuteMemory is what the refute option adds: every pair's steps of the task as counts (n, R,
// the successor list and one successor) and its flag.
func refuteMemory(refute bool, S, A int64) int64 {
	if !refute {
		return 0
	}
	return (8 + 8 + 24 + 16 + 1) * S * A
}

// templeMemory is the memory of a template learner over base b: its own tables (typeBytes, which
// was measured over RMax, less RMax's) and the base's.
func templeMemory(b BaseSpec, typeBytes, S, A int64) int64 {
	rmax, _ := Lookup(RMaxType)
	t, _ := Lookup(b.Name)
	base := t.PairBytes * S * A
	if m, ok := b.Params.(memoryer); ok {
		base = m.memory(t.PairBytes, S, A, 1)
	}
	return (typeBytes-rmax.PairBytes)*S*A + base
}

// knownThreshold is the base's m (a validated base builds without error).
func knownThreshold(b BaseSpec) (int64, error) {
	l, err := b.Params.NewBase()
	if err != nil {
		return 0, err
	}
	return l.KnownThreshold(), nil
}

// encodeWithBase is the mapping of the base, its parameters, then own.
func encodeWithBase(b BaseSpec, own any) (*yaml.Node, error) {
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
