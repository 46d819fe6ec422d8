// Package families is the registry of task families: the ways a config's tasks: block makes each
// run's task sequence (family: online-maze, family: mountaincar, …). For every family it holds the
// name, a one-line summary with its reference in the paper, and typed parameters with their
// defaults, validation, config keys (yaml tags, with doc and range tags for the configuration
// reference) and the Sequence method that draws a run's tasks. The experiment runner and its
// sweeps look families up here; neither lists a family's fields.
//
// A family is one file of this package: its parameter type, its defaults, Sequence, and the init
// that registers it (registry.go). Decoding a tasks: block starts from the family's defaults and
// rejects any key the family does not have, naming the line and the family's keys.
//
// A family is not a task kind: a kind is what one task object of a task-sequence file is
// (env.Task.Kind: a maze, Taxi, a discretized MountainCar), a family one way of drawing a sequence
// of tasks; the families online-maze, finite-model, grid and fourroom all make mazes.
//
// The families whose tasks are read from files read them through a Reader (inputs.go); ReadOnce
// is the store a runner reads them with, each file once, so that its recorded digests are of the
// bytes every run used.
//
// It imports the tasks (env and its subpackages, continuous/…, mdp), the seeded streams (stream)
// and internal packages; it must not import experiment, results, stats, plots or anything that
// runs experiments.
package families

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/internal/registry"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/stream"
)

// Params are one family's parameters: a pointer to a struct whose yaml tags are its config keys.
type Params interface {
	// Validate names the first parameter out of range, by its config key, before any draw.
	Validate() error
	// Sequence makes the task sequence of run number run (0-based), drawing only from rng.
	Sequence(run int, rng *rand.Rand) (env.Sequence, error)
}

// Family is one task family of the registry.
type Family struct {
	Name    string // the config's family: key, e.g. "online-maze"
	Summary string // one line: what it makes, with its reference ("Figure 2 Online MTRL")
	// Defaults are the family's parameters with their defaults (the paper's settings where it
	// has them).
	Defaults func() Params
}

// Lookup returns the family of that name.
func Lookup(name string) (Family, error) { return table.Lookup(name) }

// All lists the registered families in name order.
func All() []Family { return table.All() }

// Names lists the registered family names in order.
func Names() []string { return table.Names() }

// Keys lists the config keys of p in field order.
func Keys(p Params) []string { return yamlkeys.Of(reflect.TypeOf(p).Elem()) }

// drawMemory is implemented by parameters whose drawing of a run's sequence holds more than the
// tasks it returns (a pool of mazes the tasks are drawn from).
type drawMemory interface {
	DrawBytes() int64
}

// DrawBytes is what drawing one run's sequence with parameters p allocates on top of the tasks it
// keeps, for the runner's memory estimate: the family's DrawBytes method, 0 without one.
func DrawBytes(p Params) int64 {
	if m, ok := p.(drawMemory); ok {
		return m.DrawBytes()
	}
	return 0
}

// Spec is a config's tasks: block: a family and its parameters, which make each run's task
// sequence.
type Spec struct {
	Family string
	Params Params
}

// New is the given family with its default parameters.
func New(family string) (Spec, error) {
	f, err := Lookup(family)
	if err != nil {
		return Spec{}, err
	}
	return Spec{Family: family, Params: f.Defaults()}, nil
}

// Validate names the first parameter out of range.
func (s Spec) Validate() error {
	if s.Params == nil {
		return fmt.Errorf("family %q has no parameters", s.Family)
	}
	return s.Params.Validate()
}

// Draw is the task sequence of run number run of an experiment with seed seed: the family's
// Sequence drawn from that run's sequence stream. The runner and the C ABI's task sequences both
// draw through it, so Python's temple.make faces the runner's tasks.
func (s Spec) Draw(seed uint64, run int) (env.Sequence, error) {
	return s.Params.Sequence(run, stream.New(seed, run, "", 0, stream.Sequence))
}

// UnmarshalYAML reads a tasks: block. With a family key it starts from that family's defaults;
// without one it changes the parameters already there. Keys the family does not have fail with
// their line number. The result is not validated: call Validate.
func (s *Spec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: tasks is a mapping with at least family: NAME", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "family" {
			spec, err := New(n.Content[i+1].Value)
			if err != nil {
				return fmt.Errorf("line %d: %w", n.Content[i+1].Line, err)
			}
			*s = spec
		}
	}
	if s.Params == nil {
		return fmt.Errorf("line %d: tasks needs family: NAME (one of %s)", n.Line, strings.Join(Names(), ", "))
	}
	params := &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Column: n.Column}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "family" {
			params.Content = append(params.Content, n.Content[i], n.Content[i+1])
		}
	}
	if err := registry.CheckKeys(params, "family "+s.Family, Keys(s.Params)); err != nil {
		return err
	}
	if err := params.Decode(s.Params); err != nil {
		return err
	}
	return yamlkeys.Integers(params, s.Params) // count: 1.5 decodes as 1
}

// MarshalYAML writes the family and then its parameters.
func (s Spec) MarshalYAML() (any, error) { return registry.Mapping(s.Params, "family", s.Family) }

// MarshalJSON writes the family and its parameters as a JSON object, in the order of MarshalYAML
// (capi/trajectory's cells hold them so).
func (s Spec) MarshalJSON() ([]byte, error) {
	n, err := s.MarshalYAML()
	if err != nil {
		return nil, err
	}
	return registry.JSON(n.(*yaml.Node))
}
