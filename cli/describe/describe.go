// Package describe reads the documentation of configuration keys from the code: for the config's
// own keys and blocks (oracle, output, sweep, scaling), every agent type and every task family, each key of its parameter struct with its default, its bound and
// its one-line doc. It is what `temple describe` prints and what docs/reference/configuration.md
// is generated from, so that neither is kept by hand.
//
// A parameter struct documents a key beside its yaml tag: `doc:"..."` says what it is (with the
// paper's symbol), and `range:"..."`, where the key has a bound, says it in the words its Validate
// method checks (">= 1", "(0, 1]", "cycle | random"). Of reads any such struct; the registries are
// read in sources.go, the only file that knows them.
//
// It may import the registries (agents, families), package experiment (the config's own keys),
// package results (the layout of a results directory, whose table of files and the Python
// loader's names it generates: resultsfiles.go, pythonfiles.go) and the YAML library; nothing but the command line and its generator imports
// it. It lives below cli, its one importer, and not in internal/: it reads the registries and the
// runner's spec, so it stands above them, and internal/ holds the low helpers they build on.
package describe

//go:generate go run ./gen ../../docs/reference/configuration.md
//go:generate go run ./gen -results ../../docs/reference/results-format.md
//go:generate go run ./gen -python ../../python/temple/results.py

import (
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Param is one configuration key.
type Param struct {
	Key     string `json:"key"`     // the yaml key
	Type    string `json:"type"`    // integer, number, boolean, string, list, mapping
	Default string `json:"default"` // the default value, as YAML in flow style
	Range   string `json:"range"`   // the range:"..." tag ("" when the key has no bound)
	Doc     string `json:"doc"`     // the doc:"..." tag ("" when missing)
	// Search is how temple tune searches an agent's key (agenttypes.SearchSpace): its range and
	// scale, "on request" when only a config's search: block searches it; "" when it is not.
	Search string `json:"search,omitempty"`
}

// Entry is one agent type or task family with its keys.
type Entry struct {
	Name    string  `json:"name"`    // the config name: type: NAME or family: NAME
	Summary string  `json:"summary"` // one line: what it is
	Params  []Param `json:"params"`
	Note    string  `json:"note,omitempty"` // what else applies (a template learner's base keys), "" if nothing
}

// Of lists the keys of params, a struct or a pointer to one holding its defaults, in field order:
// yaml-tagged fields, descending into embedded structs, yaml-inline fields and untagged struct
// fields (a template learner's Base, whose Name is its base: key). Untagged fields of other kinds
// (the base's parameters, an interface) are left to the caller.
func Of(params any) []Param { return ofValue(reflect.ValueOf(params)) }

func ofValue(v reflect.Value) []Param {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var out []Param
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case strings.Contains(opts, "inline") || name == "" && (f.Anonymous || f.Type.Kind() == reflect.Struct):
			out = append(out, ofValue(v.Field(i))...)
		case name != "" && name != "-":
			out = append(out, Param{Key: name, Type: kind(f.Type), Default: flow(v.Field(i)),
				Range: f.Tag.Get("range"), Doc: f.Tag.Get("doc")})
		}
	}
	return out
}

// kind names a field's type as a config reader sees it.
func kind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "list"
	case reflect.Map, reflect.Struct:
		return "mapping"
	case reflect.Pointer:
		return kind(t.Elem())
	}
	return t.Kind().String()
}

// flow is v written as YAML in flow style, on one line.
func flow(v reflect.Value) string {
	if !v.CanInterface() { // a field of an unexported embedded struct: yaml cannot write it either
		return "?"
	}
	var n yaml.Node
	if err := n.Encode(v.Interface()); err != nil {
		return "?"
	}
	setFlow(&n)
	b, err := yaml.Marshal(&n)
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		setFlow(c)
	}
}
