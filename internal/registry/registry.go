// Package registry is the one pattern of temple's registries of named entries with typed
// parameters — the agent types (package agenttypes) and the task families (package families): a
// table looked up by name, whose unknown names fail with the names it has and the closest one;
// the check of a config block's keys against an entry's parameters; and the writing of an entry
// and its parameters as a mapping, in YAML or in JSON, with the keys in their order.
//
// It imports the YAML library and internal helpers only.
package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/internal/suggest"
)

// Table is a registry's entries, in the order they were added (Add) as the program started. It is
// safe for concurrent use.
type Table[T any] struct {
	unknown string         // what an unknown name is, with %q for the name: `agent type %q`
	name    func(T) string // an entry's name
	mu      sync.RWMutex
	entries []T
}

// New is an empty table of entries named by name, which the entries' own files fill (Add) as the
// program starts; a name not in it fails as unknown says, with %q for the name (`family = %q`
// gives `family = "maze", want one of …`).
func New[T any](unknown string, name func(T) string) *Table[T] {
	return &Table[T]{unknown: unknown, name: name}
}

// Add appends e, false when its name is taken (e is then not added).
func (t *Table[T]) Add(e T) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if slices.ContainsFunc(t.entries, func(x T) bool { return t.name(x) == t.name(e) }) {
		return false
	}
	t.entries = append(t.entries, e)
	return true
}

// Lookup is the entry of that name.
func (t *Table[T]) Lookup(name string) (T, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, e := range t.entries {
		if t.name(e) == name {
			return e, nil
		}
	}
	var zero T
	return zero, Unknown(fmt.Sprintf(t.unknown, name), name, t.sortedNames())
}

// InOrder lists the entries in the order they were added.
func (t *Table[T]) InOrder() []T {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Clone(t.entries)
}

// All lists the entries in name order.
func (t *Table[T]) All() []T {
	out := t.InOrder()
	slices.SortFunc(out, func(a, b T) int { return strings.Compare(t.name(a), t.name(b)) })
	return out
}

// Names lists the entries' names in order.
func (t *Table[T]) Names() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.sortedNames()
}

// sortedNames are the names in order (with t.mu held).
func (t *Table[T]) sortedNames() []string {
	out := make([]string, len(t.entries))
	for i, e := range t.entries {
		out[i] = t.name(e)
	}
	slices.Sort(out)
	return out
}

// Unknown is the error of a name that is none of names: what (the name as the config gave it:
// `base = "dqn"`), then the names and the closest ones.
func Unknown(what, name string, names []string) error {
	return fmt.Errorf("%s, want one of %s%s", what, strings.Join(names, ", "), suggest.DidYouMean(name, names))
}

// CheckKeys fails on the first key of mapping n that is not one of keys, the parameters of owner
// ("agent type rmax", "family taxi"), with its line, the keys and the closest ones. The keys of a
// block that the registry reads itself (type:, name:, family:) are taken out of n before.
func CheckKeys(n *yaml.Node, owner string, keys []string) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i]
		if !slices.Contains(keys, key.Value) {
			return fmt.Errorf("line %d: %s has no parameter %q (it has %s)%s", key.Line, owner, key.Value,
				strings.Join(keys, ", "), suggest.DidYouMean(key.Value, keys))
		}
	}
	return nil
}

// Mapping is the mapping of the given keys and values (type, then name; family), then of params,
// written by the YAML library (its MarshalYAML, or its yaml tags): an entry as a config gives it.
func Mapping(params any, keyValues ...string) (*yaml.Node, error) {
	var p yaml.Node
	if err := p.Encode(params); err != nil {
		return nil, err
	}
	out := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(keyValues); i += 2 {
		out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: keyValues[i]},
			&yaml.Node{Kind: yaml.ScalarNode, Value: keyValues[i+1]})
	}
	out.Content = append(out.Content, p.Content...)
	return out, nil
}

// JSON writes mapping n as a JSON object with its keys in their order; each value is written as
// encoding/json writes what the YAML library decodes it to.
func JSON(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := 0; i+1 < len(n.Content); i += 2 {
		var v any
		if err := n.Content[i+1].Decode(&v); err != nil {
			return nil, err
		}
		k, err := json.Marshal(n.Content[i].Value)
		if err != nil {
			return nil, err
		}
		val, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
