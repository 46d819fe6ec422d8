package experiment

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners" // the built-in learners register
	"github.com/temple-rl/temple/baseline"
	"github.com/temple-rl/temple/internal/registry"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/stream"
	"github.com/temple-rl/temple/temple"
)

// Agent types the runner names itself — Default's agents, and the agents that need every task's
// true model (simulated.go) — by their learners' constants.
const (
	TypeRMax      = learners.RMaxType
	TypeQLearning = learners.QLearningType
	TypeOTempLe   = temple.OTempLeType
	TypeAbsRL     = baseline.AbsRLType
	// MaxQInit on each of its base learners.
	TypeMaxQInitQ        = baseline.MaxQInitQType
	TypeMaxQInitDelayedQ = baseline.MaxQInitDelayedQType
	TypeMaxQInitRMax     = baseline.MaxQInitRMaxType
)

// AgentSpec is one agent of an experiment: its type, the name it is reported under, and the
// typed parameters of its type (agenttypes.Params).
type AgentSpec struct {
	Type   string
	Name   string
	Params agenttypes.Params
	// Line is the line of the agent in the config it was read from, for messages (0: not read
	// from one).
	Line int
}

// agentLabel names agent k of s in a message: its line in the config s was read from (Load; a
// spec built in code, or an agent from another file, has none), its place in agents: and its
// name.
func (s Spec) agentLabel(k int) string {
	a := s.Agents[k]
	if s.source != "" && a.Line > 0 {
		return fmt.Sprintf("line %d: agents[%d] (%s)", a.Line, k, a.Name)
	}
	return fmt.Sprintf("agents[%d] (%s)", k, a.Name)
}

// defaultAgent is an agent of the given type with its default name and parameters.
func defaultAgent(typ string) AgentSpec {
	t, err := agenttypes.Lookup(typ)
	if err != nil {
		panic(err) // the runner names a type that does not exist: a programming error
	}
	p := t.Defaults()
	return AgentSpec{Type: typ, Name: agenttypes.DisplayName(t, p), Params: p}
}

// UnmarshalYAML reads an agent onto its type's defaults and rejects parameters the type does not
// have, naming the line and the type's keys. Without name: it is reported under its type's name.
func (a *AgentSpec) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: an agent is a mapping with at least type: NAME", node.Line)
	}
	params := &yaml.Node{Kind: yaml.MappingNode, Line: node.Line, Column: node.Column}
	var typ, name *yaml.Node
	for i := 0; i+1 < len(node.Content); i += 2 {
		switch k, v := node.Content[i], node.Content[i+1]; k.Value {
		case "type":
			typ = v
		case "name":
			name = v
		default:
			params.Content = append(params.Content, k, v)
		}
	}
	if typ == nil {
		return fmt.Errorf("line %d: an agent needs type: NAME (one of %s)", node.Line, strings.Join(agenttypes.Names(), ", "))
	}
	t, err := agenttypes.Lookup(typ.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", typ.Line, err)
	}
	p, err := agenttypes.Decode(t.Name, params)
	if err != nil {
		return err
	}
	*a = AgentSpec{Type: t.Name, Name: agenttypes.DisplayName(t, p), Params: p, Line: node.Line}
	if name != nil {
		a.Name = name.Value
	}
	return nil
}

// MarshalYAML writes the type, the name and the type's own parameters under their config keys,
// so that a written spec (spec.yaml) reads back.
func (a AgentSpec) MarshalYAML() (any, error) {
	return registry.Mapping(a.Params, "type", a.Type, "name", a.Name)
}

// MarshalJSON writes the agent as spec.yaml does — type, name and its type's parameters under
// their config keys, in that order — as a JSON object (a benchmark's tuned settings, a
// trajectory's cell).
func (a AgentSpec) MarshalJSON() ([]byte, error) {
	n, err := a.MarshalYAML()
	if err != nil {
		return nil, err
	}
	return registry.JSON(n.(*yaml.Node))
}

// Has reports whether the agent's type has the parameter key.
func (a AgentSpec) Has(key string) bool { return slices.Contains(agenttypes.Keys(a.Params), key) }

// set changes one parameter to the YAML value v (a sweep point); the spec's other copies keep
// theirs.
func (a *AgentSpec) set(key string, v *yaml.Node) error {
	p, err := agenttypes.Set(a.Type, a.Params, key, v)
	if err != nil {
		return err
	}
	a.Params = p
	return nil
}

func models(ctx RunContext) []*mdp.Model {
	out := make([]*mdp.Model, len(ctx.Tasks))
	for k, t := range ctx.Tasks {
		out[k] = t.Model
	}
	return out
}

// factory returns the agent factory of a: it validates the parameters and builds a fresh agent
// for each run.
func (a AgentSpec) factory() AgentFactory {
	py, _ := a.Params.(*agenttypes.Python)
	return AgentFactory{Name: a.Name, Python: py, New: func(ctx RunContext) (agent.Agent, error) {
		if err := a.Params.Validate(); err != nil {
			return nil, err
		}
		return a.Params.New(agenttypes.Context{Models: models(ctx), Gamma: ctx.Gamma, Name: a.Name,
			Seed: learnerSeed(ctx.Seed, ctx.Run, a.Name)})
	}}
}

// learnerSeed is the seed of the agent named name in run of an experiment of seed seed, for a
// learner outside temple (stream.Learner).
func learnerSeed(seed uint64, run int, name string) uint64 {
	return stream.New(seed, run, name, 0, stream.Learner).Uint64()
}

// outside reports whether the agent is a learner written outside temple (its source a file of
// the user's), built only to run: in its own process, or in Python.
func (a AgentSpec) outside() bool { return agenttypes.Outside(a.Params) }
