package yamlkeys

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/internal/suggest"
)

var (
	unmarshaler = reflect.TypeFor[yaml.Unmarshaler]()
	node        = reflect.TypeFor[yaml.Node]()
)

// readsItself is whether values of t are read by their own code (a yaml.Unmarshaler, or a
// yaml.Node kept as written), which checks them.
func readsItself(t reflect.Type) bool {
	return t == node || t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler)
}

// Check walks mapping n against struct type t before it is decoded, so that a config's mistakes
// read as the config's words rather than the YAML library's Go types: a key t does not have fails
// with its line, the block's keys and a "did you mean"; a value that cannot be its key's type
// (runs: two) fails with its line, the key, the value and the type wanted (with the key's
// range:"..." tag). It descends into struct fields, pointers to structs and lists of structs;
// a type that reads itself (a yaml.Unmarshaler) checks its own keys and is left alone. block names
// n in messages: "a config" at the top, then the key path ("oracle", "sweep[0]").
func Check(n *yaml.Node, t reflect.Type, block string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: %s is a mapping of keys (%s), not %s", n.Line, block, strings.Join(Of(t), ", "), nodeKind(n))
	}
	fields := Fields(t)
	keys := Of(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		k := slices.Index(keys, key.Value)
		if k < 0 {
			return fmt.Errorf("line %d: %s has no key %q (it has %s)%s", key.Line, block, key.Value,
				strings.Join(keys, ", "), suggest.DidYouMean(key.Value, keys))
		}
		path := key.Value
		if block != "a config" {
			path = block + "." + key.Value
		}
		if err := checkValue(value, fields[k], path); err != nil {
			return err
		}
	}
	return nil
}

// checkValue checks the value of field f, at key path.
func checkValue(n *yaml.Node, f reflect.StructField, path string) error {
	t := f.Type
	elem := t
	for elem.Kind() == reflect.Pointer {
		elem = elem.Elem()
	}
	if n.Kind == yaml.AliasNode || isNull(n) || readsItself(elem) {
		return nil
	}
	switch {
	case elem.Kind() == reflect.Struct:
		return Check(n, elem, path)
	case elem.Kind() == reflect.Slice && elem.Elem().Kind() == reflect.Struct:
		if n.Kind != yaml.SequenceNode {
			return fmt.Errorf("line %d: %s is a list, not %s", n.Line, path, nodeKind(n))
		}
		if readsItself(elem.Elem()) {
			return nil
		}
		for k, item := range n.Content {
			if err := Check(item, elem.Elem(), fmt.Sprintf("%s[%d]", path, k)); err != nil {
				return err
			}
		}
		return nil
	}
	v := reflect.New(t).Interface()
	if err := n.Decode(v); err != nil {
		var typeErr *yaml.TypeError
		if !errors.As(err, &typeErr) {
			return err
		}
		return fmt.Errorf("line %d: %s = %s, want %s", n.Line, path, shown(n), withRange(Want(t), f.Tag.Get("range")))
	}
	if Integers(n, v) != nil { // a fraction for an integer (runs: 2.5) decodes as its whole part
		return fmt.Errorf("line %d: %s = %s, want %s", n.Line, path, shown(n), withRange(Want(t), f.Tag.Get("range")))
	}
	return nil
}

// withRange appends a key's range:"..." tag to what its type wants: "an integer >= 1", "a number
// in [0, 1)", "a string: cycle | random".
func withRange(want, r string) string {
	switch {
	case r == "":
		return want
	case strings.HasPrefix(r, ">") || strings.HasPrefix(r, "<"):
		return want + " " + r
	case strings.HasPrefix(r, "[") || strings.HasPrefix(r, "("):
		return want + " in " + r
	}
	return want + ": " + r
}

// Want says what a value of type t is, in a config's words ("an integer", "a list of numbers").
func Want(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer >= 0"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of " + plural(Want(t.Elem()))
	case reflect.Array:
		return fmt.Sprintf("a list of %d %s", t.Len(), plural(Want(t.Elem())))
	case reflect.Map, reflect.Struct:
		return "a mapping of keys"
	case reflect.Pointer:
		return Want(t.Elem())
	}
	return "a value"
}

// plural turns "an integer" into "integers", "a list of numbers" into "lists of numbers".
func plural(want string) string {
	switch want {
	case "true or false":
		return "booleans"
	case "an integer >= 0":
		return "integers >= 0"
	case "a mapping of keys":
		return "mappings"
	case "another kind of value":
		return "values of another kind"
	}
	want = strings.TrimPrefix(strings.TrimPrefix(want, "an "), "a ")
	head, tail, _ := strings.Cut(want, " ")
	if tail != "" {
		return head + "s " + tail
	}
	return head + "s"
}

// shown is a value as the config wrote it, quoted when it is a string.
func shown(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!str" {
			return fmt.Sprintf("%q", n.Value)
		}
		return n.Value
	case yaml.SequenceNode, yaml.MappingNode:
		flow := *n
		flow.Style = yaml.FlowStyle
		if b, err := yaml.Marshal(&flow); err == nil && len(b) < 80 {
			return strings.TrimSpace(string(b))
		}
	}
	return nodeKind(n)
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %s", shown(n))
	}
	return "an alias"
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

var (
	cannotUnmarshal = regexp.MustCompile("^line (\\d+): cannot unmarshal !!\\w+ (?:`(.*)` )?into (.+)$")
	fieldNotFound   = regexp.MustCompile(`^line (\d+): field (.+) not found in type .+$`)
	goTypeName      = map[string]string{"bool": "true or false", "string": "a string", "float64": "a number", "float32": "a number"}
)

// Words rewrites the YAML library's messages in err in a config's words: "line 3: cannot
// unmarshal !!str `two` into int" becomes "line 3: width = "two", want an integer", the key found
// in doc (the document's root) by the value's line; "field x not found in type pkg.T" becomes
// "unknown key". It is the fallback under Check, for the blocks that read themselves (an agent's
// or a family's parameters). Other errors are returned as they are, without the "yaml: " prefix.
func Words(err error, doc *yaml.Node) error {
	var typeErr *yaml.TypeError
	if !errors.As(err, &typeErr) {
		return errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	lines := make([]string, len(typeErr.Errors))
	for i, msg := range typeErr.Errors {
		lines[i] = msg
		if m := cannotUnmarshal.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			key, value := keyAt(doc, line, m[2])
			what := key
			if what == "" {
				what = "the value"
			}
			lines[i] = fmt.Sprintf("line %d: %s = %s, want %s", line, what, value, goTypeWords(m[3]))
		} else if m := fieldNotFound.FindStringSubmatch(msg); m != nil {
			lines[i] = fmt.Sprintf("line %s: unknown key %q", m[1], m[2])
		}
	}
	return errors.New(strings.Join(lines, "; "))
}

// goTypeWords says a Go type's name in a config's words.
func goTypeWords(name string) string {
	if w, ok := goTypeName[name]; ok {
		return w
	}
	switch {
	case strings.HasPrefix(name, "uint"):
		return "an integer >= 0"
	case strings.HasPrefix(name, "int"):
		return "an integer"
	case strings.HasPrefix(name, "[]"):
		return "a list of " + plural(goTypeWords(name[2:]))
	case strings.HasPrefix(name, "map["):
		return "a mapping of keys"
	case strings.HasPrefix(name, "*"):
		return goTypeWords(name[1:])
	}
	return "another kind of value"
}

// keyAt finds in doc the mapping key whose value starts on line (and reads value, when given):
// the key's name and the value as written. Not found, it is "" and the value as the message had it.
func keyAt(doc *yaml.Node, line int, value string) (string, string) {
	var found *yaml.Node
	var key string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || found != nil {
			return
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				v := n.Content[i+1]
				if v.Line == line && (value == "" || v.Kind == yaml.ScalarNode && v.Value == value) {
					found, key = v, n.Content[i].Value
					return
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc)
	if found == nil {
		if value == "" {
			return "", "this value"
		}
		return "", strconv.Quote(value)
	}
	return key, shown(found)
}
