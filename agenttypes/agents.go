// Package agenttypes is the registry of agent types: for every type the name a config gives it
// (type: o-temple), the name results report it under, its typed parameters with their defaults,
// validation and config keys, and how to build it. The experiment runner, sweeps and the C ABI
// look types up here; none of them lists a type's fields.
//
// Every learner registers itself from its own file: an init function there calls Register with
// its Type — name, display name, summary, defaults, memory figure, search space, needs, rank —
// whether the learner is built into temple (learners, baseline, temple) or lives in a module of
// its own (examples/own-learner-go). Nothing here lists a learner. A type's parameters are a
// pointer to a struct whose yaml tags are its config keys, with the methods Params asks for
// (Validate and New; NewBase for a base learner); decoding a config block starts from the type's
// defaults and rejects any key the type does not have, naming the line and the type's keys. The
// table is an internal/registry table, as the task families' is.
//
// A program sees the built-in learners once it imports package alllearners (the experiment
// runner and the C library do), which imports the learners' packages for their registrations.
//
// It imports the seam (agent), external (the learners in a process of their own, outside.go) and
// mdp; it must not import a learner's package (they import it) nor anything that runs experiments.
package agenttypes

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/lazy"
	"github.com/temple-rl/temple/internal/registry"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/mdp"
)

// Context is what an agent is built with for one run.
type Context struct {
	// Models are the true models of the run's tasks, in order: the offline baselines (Abs-RL,
	// MaxQInit) compute from them. Learners must not read them to act.
	Models []*mdp.Model
	// Gamma is the discount γ of every agent of the experiment.
	Gamma float64
	// Name is the agent's name in the experiment, and Seed a seed of its own for the run, drawn
	// from the runner's stream of that name and run: learners outside temple are built with them
	// (their streams of each task come with agent.Task).
	Name string
	Seed uint64
}

// Params are one agent type's parameters: a pointer to a struct whose yaml tags are its keys.
type Params interface {
	// Validate names the first parameter out of range, by its config key.
	Validate() error
	// New builds a fresh agent for one run.
	New(ctx Context) (agent.Agent, error)
}

// Type is one agent type of the registry.
type Type struct {
	Name    string // the config's type: key, e.g. o-temple
	Display string // the name results report it under unless the config names it
	Summary string // one line: what it is, with its reference
	// Defaults are the type's parameters with their defaults (the paper's settings where it has
	// them).
	Defaults func() Params
	// PairBytes is what an agent of the type holds per state-action pair of a task, for the
	// runner's memory estimate (see Memory).
	PairBytes int64
	// Search are the parameters temple tune searches by default (SearchSpace).
	Search []Dim
	// Needs is what the type needs of the tasks of a run beyond what each task states: the
	// runner refuses a config whose tasks break it before any cell runs.
	Needs Needs
	// Scales are the scales of the type's options that Search leaves out, searched only when a
	// config's search: block gives them a range (Scale). A key has one scale wherever it is
	// declared.
	Scales []Dim
	// SingleTask says that the type learns each task alone: a benchmark's verdicts are against
	// the best single-task learner of each family.
	SingleTask bool
	// Base says that the type is a base learner: its parameters are also BaseParams, and the
	// template learners run over it (base: NAME).
	Base bool
	// Rank places the type among the others where their order matters (BaseNames: the paper's
	// RMax first): lowest first, a type of rank 0 (a learner of another module) after the
	// ranked ones, equal ranks in the order registered. The built-in learners' ranks run 10, 20, …:
	// the paper's base learner RMax, the other base learners, the single-task learners, Delayed-Q
	// and LRMax, the template learners and the references, FMRL, Abs-RL and MaxQInit, then the
	// learners outside temple (python, external).
	Rank int
	// file is the Go file whose init registered the type (Register's caller).
	file string
}

// Needs are what an agent type needs of the tasks of one run: learners that keep whole task
// models, or tables indexed by state and action, across tasks need the tasks to share a size.
type Needs struct {
	// SameStates: every task of a run has the same number of states; SameActions: the same
	// number of actions.
	SameStates, SameActions bool
	// Why is the reason, for the refusal's message.
	Why string
}

// Register adds a learner to the registry, so that configs name it (type: NAME) and temple's
// command runs, tunes and compares it as any other: call it from an init function in the
// learner's own file. Every built-in learner registers so; a learner of another module does the
// same, and runs the command with cli.Main from the program's main (examples/own-learner-go).
// Register panics on a type without a name, display name or defaults, on a base learner whose
// parameters are not BaseParams, or on a name that is taken: that is a mistake of the program,
// found when it starts.
func Register(t Type) {
	if t.Name == "" || t.Display == "" || t.Defaults == nil {
		panic(fmt.Sprintf("agenttypes.Register: type %q needs a Name, a Display name and Defaults", t.Name))
	}
	if _, ok := t.Defaults().(BaseParams); t.Base && !ok {
		panic(fmt.Sprintf("agenttypes.Register: base learner %q: its parameters have no NewBase method", t.Name))
	}
	_, t.file, _, _ = runtime.Caller(1)
	if !table.Add(t) {
		prev, _ := table.Lookup(t.Name)
		panic(fmt.Sprintf("agenttypes.Register: agent type %q is registered already (by %s)", t.Name, prev.file))
	}
}

// table is the registry of agent types, filled by the learners' init functions (Register).
var table = registry.New("agent type %q", func(t Type) string { return t.Name })

// inRankOrder lists the types by Rank (see Type), for the lists whose order matters.
func inRankOrder() []Type {
	out := table.InOrder()
	key := func(t Type) int {
		if t.Rank == 0 {
			return math.MaxInt
		}
		return t.Rank
	}
	slices.SortStableFunc(out, func(a, b Type) int { return cmp.Compare(key(a), key(b)) })
	return out
}

// RegisteredBy is the Go file whose init registered type t (its path as the compiler saw it).
func RegisteredBy(t Type) string { return t.file }

// memoryer is implemented by parameters whose agents' memory is not their type's PairBytes per
// pair: PSRL's dense sampled model, LRMax's memory of past tasks, a template learner's base.
// MemoryBytes is the bytes on a task of S states and A actions in a sequence of the given number
// of tasks, given the type's PairBytes.
type memoryer interface {
	MemoryBytes(typeBytes, S, A, tasks int64) int64
}

// Memory is the bytes an agent of type t with parameters p holds on a task of S states and A
// actions in a sequence of the given number of tasks, when one task writes the statistics of at
// most written pairs (0: unknown): the runner refuses an experiment that would not fit before it
// starts. On a task of more than lazy.FlatMax pairs, RMax and O-TempLe over RMax allocate their
// statistics only where they write them.
func Memory(t Type, p Params, S, A, tasks, written int64) int64 {
	if l, ok := LargeMemoryOf(p); ok && S*A > lazy.FlatMax && written > 0 {
		return l.Memory(S, A, written)
	}
	if m, ok := p.(memoryer); ok {
		return m.MemoryBytes(t.PairBytes, S, A, tasks)
	}
	return t.PairBytes * S * A
}

// Lookup returns the type of that name.
func Lookup(name string) (Type, error) { return table.Lookup(name) }

// Types lists the registered types in name order.
func Types() []Type { return table.All() }

// Names lists the registered type names in order.
func Names() []string { return table.Names() }

// keyed is implemented by parameters whose keys depend on their values (a template learner's
// keys include those of its base); the others' keys are their yaml tags.
type keyed interface {
	Keys() []string
}

// Param is the value of p's parameter key as its typed field holds it (a learner over a base has
// its base's keys too), and whether p has such a field: the runner, sweeps and temple tune read a
// parameter by its key here, not by writing p out as YAML. An outside learner's own parameters
// (params:) are not fields: Param does not find them.
func Param(p Params, key string) (any, bool) { return param(p, key) }

func param(p any, key string) (any, bool) {
	if o, ok := p.(overBase); ok {
		if v, ok := param(o.Over().Params, key); ok {
			return v, true
		}
	}
	return fieldOf(reflect.ValueOf(p), key)
}

// fieldOf is the field of struct v (or of what v points to) whose yaml key is key, looked for in
// its inline fields too.
func fieldOf(v reflect.Value, key string) (any, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, false
	}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		if _, opts, _ := strings.Cut(f.Tag.Get("yaml"), ","); strings.Contains(opts, "inline") {
			if x, ok := fieldOf(v.Field(i), key); ok {
				return x, true
			}
			continue
		}
		if yamlkeys.Key(f) == key {
			return v.Field(i).Interface(), true
		}
	}
	return nil, false
}

// Keys lists the config keys of p.
func Keys(p Params) []string {
	if k, ok := p.(keyed); ok {
		return k.Keys()
	}
	return yamlkeys.Of(reflectElem(p))
}

// Decode reads a config block n (a mapping of parameter keys, without type and name) onto the
// defaults of type typ. A key the type does not have fails with its line number and the type's
// keys. The result is not validated: call Validate.
func Decode(typ string, n *yaml.Node) (Params, error) {
	t, err := Lookup(typ)
	if err != nil {
		return nil, err
	}
	p := t.Defaults()
	if n == nil || n.Kind == 0 { // no parameters given
		return p, nil
	}
	if err := decodeOnto(typ, p, n); err != nil {
		return nil, err
	}
	return p, nil
}

// decodeOnto reads the keys of mapping n onto p, of type typ, leaving its other parameters.
func decodeOnto(typ string, p Params, n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: the parameters of agent type %s are a mapping", n.Line, typ)
	}
	if _, ok := p.(yaml.Unmarshaler); !ok { // a yaml.Unmarshaler checks its own keys
		if err := registry.CheckKeys(n, "agent type "+typ, Keys(p)); err != nil {
			return err
		}
	}
	if err := n.Decode(p); err != nil {
		return err
	}
	return yamlkeys.Integers(n, p) // m: 2.5 decodes as 2
}

// Encode writes p (Params or BaseParams) as a mapping of its config keys, in the order Decode
// reads back.
func Encode(p any) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(p); err != nil {
		return nil, err
	}
	return &n, nil
}

// Set returns a copy of p, of type typ, with key set to v (a sweep point); p is unchanged.
func Set(typ string, p Params, key string, v *yaml.Node) (Params, error) {
	q, err := Clone(typ, p)
	if err != nil {
		return nil, err
	}
	if ps, ok := q.(paramSetter); ok && !slices.Contains(Keys(q), key) {
		if err := ps.SetParam(key, v); err != nil {
			return nil, fmt.Errorf("params: %s: %w", key, err)
		}
		return q, nil
	}
	// Only key is read onto the copy: setting base: starts the new base at its defaults.
	n := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: key}, v}}
	if err := decodeOnto(typ, q, n); err != nil {
		return nil, err
	}
	return q, nil
}

// Clone is a deep copy of p, of type typ.
func Clone(typ string, p Params) (Params, error) {
	n, err := Encode(p)
	if err != nil {
		return nil, err
	}
	q, err := Decode(typ, n)
	if err != nil {
		return nil, err
	}
	if f, ok := q.(follower); ok {
		f.Follow(p)
	}
	return q, nil
}

// follower is implemented by parameters with a default that follows another parameter until a
// config sets it (a template learner's m_s follows its base's m). Everything Encode writes reads
// back as set; Clone has the copy follow as the original does (Follow).
type follower interface {
	Follow(orig Params)
}

// DisplayName is the name results report an agent of type t with parameters p under, unless the
// config names it: a learner over a base other than the paper's adds the base's ("O-TempLe-UCRL2").
func DisplayName(t Type, p Params) string {
	if o, ok := p.(overBase); ok {
		return t.Display + o.Over().suffix()
	}
	return t.Display
}

// New decodes, validates and builds one agent of type typ with the parameters of the config
// block n (nil or empty: the defaults).
func New(typ string, n *yaml.Node, ctx Context) (agent.Agent, error) {
	p, err := Decode(typ, n)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p.New(ctx)
}

// reflectElem is the struct type p points to.
func reflectElem(p any) reflect.Type { return reflect.TypeOf(p).Elem() }
