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

// keysOf lists the keys allowed at each place, with its name for error messages.
var keysOf = map[place]struct {
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

// checkKey rejects a key that the object at p may not have.
func (p place) checkKey(key string) error {
	allowed, ok := keysOf[p]
	if !ok || slices.Contains(allowed.keys, key) {
		return nil
	}
	return fmt.Errorf("unknown key %q in %s (want %s)", key, allowed.what, strings.Join(allowed.keys, ", "))
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

// checkJSON walks the tokens of data before it is decoded, for what encoding/json lets through
// or reports without a position: duplicate keys (it keeps the last one silently), unknown keys,
// nesting deeper than the format, trailing data and a truncated file.
func checkJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers are checked when decoded; parsing them here would be wasted
	at := func() string { return position(data, int(dec.InputOffset())) }
	type frame struct {
		object  bool
		place   place
		wantKey bool   // in an object, the next token is a key (or its end)
		key     string // in an object, the key of the value being read
		keys    keySet
	}
	var stack []frame
	// valueDone marks the end of a value inside the innermost object, whose next token is a key.
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	for first := true; ; first = false {
		tok, err := dec.Token()
		if err == io.EOF {
			if len(stack) > 0 {
				return fmt.Errorf("truncated JSON: the file ends inside a value at %s", at())
			}
			return nil
		}
		if err != nil {
			return jsonSyntaxError(data, err, at())
		}
		if first {
			if d, ok := tok.(json.Delim); !ok || d != '{' {
				return fmt.Errorf("at %s: the file must be a JSON object {...}", at())
			}
		} else if len(stack) == 0 {
			return fmt.Errorf("trailing data after the JSON object at %s", at())
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
			top := &stack[n-1]
			if key, ok := tok.(string); ok {
				if top.keys.add(key) {
					return fmt.Errorf("at %s: key %q appears twice in the same object", at(), key)
				}
				if err := top.place.checkKey(key); err != nil {
					return fmt.Errorf("at %s: %w", at(), err)
				}
				top.key, top.wantKey = key, false
				continue
			}
			// The only other token the decoder allows here is the object's end.
		}
		d, ok := tok.(json.Delim)
		if !ok {
			valueDone()
			continue
		}
		switch d {
		case '{', '[':
			p := root
			if n := len(stack); n > 0 {
				p = stack[n-1].place.child(stack[n-1].key)
			}
			if len(stack) == maxDepth {
				return fmt.Errorf("at %s: values nested deeper than the format allows (%d levels)", at(), maxDepth)
			}
			stack = append(stack, frame{object: d == '{', place: p, wantKey: d == '{'})
		default:
			stack = stack[:len(stack)-1]
			valueDone()
		}
	}
}

// jsonSyntaxError says what is wrong with a file that is not valid JSON, and where.
func jsonSyntaxError(data []byte, err error, at string) error {
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated JSON: the file ends inside a value at %s", at)
	case errors.As(err, &syn):
		return fmt.Errorf("invalid JSON at %s: %s", position(data, int(syn.Offset)), strings.TrimPrefix(syn.Error(), "json: "))
	}
	return fmt.Errorf("invalid JSON at %s: %w", at, err)
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
				if err := p.checkKey(k.Value); err != nil {
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
