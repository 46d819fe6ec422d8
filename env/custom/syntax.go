package custom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// place is where a JSON object or YAML mapping sits in a file, which says what keys it may have.
type place uint8

const (
	elsewhere place = iota // start distributions (any key) and values of the wrong shape
	root
	taskList
	task
	transitionList
	transition
	outcomeList
	outcome
)

// keysOf lists the keys allowed at each place that has a fixed set, with its name for error
// messages.
var keysOf = [...]struct {
	what string
	keys []string
}{
	root:       {"the file", []string{"format", "description", "tasks"}},
	task:       {"a task", []string{"name", "states", "actions", "start", "terminal", "transitions"}},
	transition: {"a transition", []string{"state", "action", "outcomes"}},
	outcome:    {"an outcome", []string{"next", "p", "r"}},
}

// child is the place of the value of key (or of an item, for a list) inside a value at p.
func (p place) child(key string) place {
	switch {
	case p == root && key == "tasks":
		return taskList
	case p == taskList:
		return task
	case p == task && key == "transitions":
		return transitionList
	case p == transitionList:
		return transition
	case p == transition && key == "outcomes":
		return outcomeList
	case p == outcomeList:
		return outcome
	}
	return elsewhere
}

// knownKey returns key as one of the keys allowed at p (a constant, so the caller keeps no copy
// of the text), or key itself where any key is allowed; an unknown key is an error.
func (p place) knownKey(key []byte) (string, error) {
	if int(p) >= len(keysOf) || keysOf[p].keys == nil {
		return string(key), nil
	}
	allowed := keysOf[p]
	for _, k := range allowed.keys {
		if string(key) == k {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown key %q in %s (want %s)", key, allowed.what, strings.Join(allowed.keys, ", "))
}

// maxDepth is the deepest nesting of the format: the file, tasks, a task, transitions, a
// transition, outcomes, an outcome. Anything deeper is an error, found before a decoder recurses.
const maxDepth = 7

// keySet finds duplicate keys of one object: a short list first, since most objects have a few
// keys, and a map once it grows (a start distribution may have a key per state).
type keySet struct {
	list []string
	set  map[string]bool
}

func (k *keySet) add(key string) (dup bool) {
	if k.set != nil {
		dup = k.set[key]
		k.set[key] = true
		return dup
	}
	if slices.Contains(k.list, key) {
		return true
	}
	k.list = append(k.list, key)
	if len(k.list) > 16 {
		k.set = make(map[string]bool, 2*len(k.list))
		for _, s := range k.list {
			k.set[s] = true
		}
	}
	return false
}

// checkJSON checks data before it is decoded, for what encoding/json lets through or reports
// without a position: invalid syntax and a truncated file (with their line and column), trailing
// data, duplicate keys (the decoder keeps the last one silently), unknown keys (the decoder
// matches them regardless of case) and nesting deeper than the format.
func checkJSON(data []byte) error {
	if !json.Valid(data) {
		return jsonSyntaxError(data)
	}
	// The text is valid JSON from here on, so the walk below only follows its structure: it
	// visits each byte once and copies nothing but the keys of start distributions.
	i := skipSpace(data, 0)
	if data[i] != '{' {
		return fmt.Errorf("at %s: the file must be a JSON object {...}", position(data, i))
	}
	type frame struct {
		object bool
		place  place
		key    string // in an object, the key of the value being read
		keys   keySet
	}
	var stack []frame
	expectKey := false // the next string is a key
	for i < len(data) {
		switch c := data[i]; c {
		case '{', '[':
			p := root
			if n := len(stack); n > 0 {
				p = stack[n-1].place.child(stack[n-1].key)
			}
			if len(stack) == maxDepth {
				return fmt.Errorf("at %s: values nested deeper than the format allows (%d levels)", position(data, i), maxDepth)
			}
			stack = append(stack, frame{object: c == '{', place: p})
			expectKey = c == '{'
			i++
		case '}', ']':
			stack = stack[:len(stack)-1]
			expectKey = false
			i++
		case ',':
			expectKey = stack[len(stack)-1].object
			i++
		case '"':
			end := stringEnd(data, i)
			if expectKey {
				top := &stack[len(stack)-1]
				raw := data[i+1 : end-1]
				if bytes.IndexByte(raw, '\\') >= 0 {
					var unquoted string
					json.Unmarshal(data[i:end], &unquoted) // valid JSON: cannot fail
					raw = []byte(unquoted)
				}
				key, err := top.place.knownKey(raw)
				if err != nil {
					return fmt.Errorf("at %s: %w", position(data, i), err)
				}
				if top.keys.add(key) {
					return fmt.Errorf("at %s: key %q appears twice in the same object", position(data, i), key)
				}
				top.key, expectKey = key, false
			}
			i = end
		default: // white space, a colon, or a number or literal, none of which nests
			i++
		}
	}
	return nil
}

// skipSpace is the index of the first byte at or after i that is not JSON white space.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index just past the closing quote of the string that opens at data[i], in
// valid JSON.
func stringEnd(data []byte, i int) int {
	for j := i + 1; ; j++ {
		switch data[j] {
		case '\\':
			j++ // the escaped byte, which may be a quote
		case '"':
			return j + 1
		}
	}
}

// jsonSyntaxError says where data, which is not valid JSON, stops being JSON.
func jsonSyntaxError(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var first json.RawMessage
	err := dec.Decode(&first)
	var syn *json.SyntaxError
	switch {
	case err == nil:
		return fmt.Errorf("trailing data after the JSON object at %s", position(data, skipSpace(data, int(dec.InputOffset()))))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated JSON: the file ends inside a value at %s", position(data, len(data)))
	case errors.As(err, &syn):
		// Offset counts the bytes read, the offending one included.
		return fmt.Errorf("invalid JSON at %s: %s", position(data, int(syn.Offset)-1), strings.TrimPrefix(syn.Error(), "json: "))
	}
	return fmt.Errorf("invalid JSON: %w", err)
}

// decodeJSON checks data (checkJSON) and decodes it into doc, rejecting unknown keys.
func decodeJSON(data []byte, doc *fileDoc) error {
	if err := checkJSON(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(doc); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return fmt.Errorf("at %s: %s is %s, want %s", position(data, int(typ.Offset)), typ.Field, typ.Value, kindName(typ.Type))
		}
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return nil
}

// kindName names the JSON or YAML shape a Go type is decoded from.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// decodeYAML checks data (checkYAML) and decodes it into doc.
func decodeYAML(data []byte, doc *fileDoc) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("empty YAML document: no values, only comments or markers")
		}
		return yamlError(err)
	}
	var second yaml.Node
	if err := dec.Decode(&second); !errors.Is(err, io.EOF) {
		if err != nil {
			return yamlError(err)
		}
		return fmt.Errorf("line %d: a second YAML document; a file holds one", second.Line)
	}
	if err := checkYAML(&root); err != nil {
		return err
	}
	if err := root.Decode(doc); err != nil {
		return yamlError(err)
	}
	return nil
}

func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n  ")
	return fmt.Errorf("invalid YAML: %s", msg)
}

// checkYAML walks the parsed document before it is decoded: the decoder into Go values (Node.Decode)
// does not reject unknown keys, and anchors and aliases are refused outright, since an alias can
// make a small file expand into a huge model ("billion laughs") and a model file has no need of
// them.
func checkYAML(doc *yaml.Node) error {
	if len(doc.Content) == 0 {
		return errors.New("empty YAML document")
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: the file must be a YAML mapping (key: value lines)", top.Line)
	}
	var walk func(n *yaml.Node, p place, depth int) error
	walk = func(n *yaml.Node, p place, depth int) error {
		if n.Kind == yaml.AliasNode || n.Anchor != "" {
			return fmt.Errorf("line %d: YAML anchors and aliases (&name, *name) are not allowed in a model file", n.Line)
		}
		if depth > maxDepth && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
			return fmt.Errorf("line %d: values nested deeper than the format allows (%d levels)", n.Line, maxDepth)
		}
		switch n.Kind {
		case yaml.MappingNode:
			var keys keySet
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind == yaml.AliasNode || k.Anchor != "" {
					return fmt.Errorf("line %d: YAML anchors and aliases (&name, *name) are not allowed in a model file", k.Line)
				}
				if k.Kind != yaml.ScalarNode {
					return fmt.Errorf("line %d: a key must be a plain value, not %s", k.Line, yamlText(k))
				}
				if k.Value == "<<" && k.ShortTag() == "!!merge" {
					return fmt.Errorf("line %d: YAML merge keys (<<) are not allowed in a model file", k.Line)
				}
				if keys.add(k.Value) {
					return fmt.Errorf("line %d: key %q appears twice in the same mapping", k.Line, k.Value)
				}
				if _, err := p.knownKey([]byte(k.Value)); err != nil {
					return fmt.Errorf("line %d: %w", k.Line, err)
				}
				if err := walk(n.Content[i+1], p.child(k.Value), depth+1); err != nil {
					return err
				}
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				if err := walk(c, p.child(""), depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(top, root, 1)
}
