package custom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The document types mirror the file. Values that can take more than one shape (a count or a
// list of names, a name or an index, a number) decode leniently: a value of the wrong shape is
// kept as written and reported by build, which knows the task, state and action it belongs to.

type fileDoc struct {
	Format      string    `json:"format" yaml:"format"`
	Description string    `json:"description" yaml:"description"`
	Tasks       []taskDoc `json:"tasks" yaml:"tasks"`
}

type taskDoc struct {
	Name        string          `json:"name" yaml:"name"`
	States      space           `json:"states" yaml:"states"`
	Actions     space           `json:"actions" yaml:"actions"`
	Start       startDoc        `json:"start" yaml:"start"`
	Terminal    []ref           `json:"terminal" yaml:"terminal"`
	Transitions []transitionDoc `json:"transitions" yaml:"transitions"`
}

type transitionDoc struct {
	State    ref          `json:"state" yaml:"state"`
	Action   ref          `json:"action" yaml:"action"`
	Outcomes []outcomeDoc `json:"outcomes" yaml:"outcomes"`
}

type outcomeDoc struct {
	Next ref    `json:"next" yaml:"next"`
	P    number `json:"p" yaml:"p"`
	R    number `json:"r" yaml:"r"`
}

// kind says which shape a lenient value took; the zero value means its key was absent.
type kind uint8

const (
	absent  kind = iota
	named        // a string
	numeric      // a number: a whole one for an index or a count
	listed       // a list (of names) or a mapping (of start probabilities)
	wrong        // none of the shapes allowed; text holds the value as written
)

// ref is a state or action: a name, or an index from 0.
type ref struct {
	kind  kind
	text  string // the name, or the value as written when wrong
	index int64
	line  int // YAML line of the value; 0 in JSON
}

func (r *ref) UnmarshalJSON(b []byte) error {
	*r = ref{kind: wrong}
	switch {
	case len(b) > 0 && b[0] == '"':
		if json.Unmarshal(b, &r.text) == nil {
			r.kind = named
		}
	case isNumber(b):
		if i, err := strconv.ParseInt(string(b), 10, 64); err == nil && i >= 0 {
			r.kind, r.index = numeric, i
		}
	}
	if r.kind == wrong {
		r.text = abbreviate(b)
	}
	return nil
}

func (r *ref) UnmarshalYAML(n *yaml.Node) error {
	*r = ref{kind: wrong, text: yamlText(n), line: n.Line}
	if n.Kind != yaml.ScalarNode {
		return nil
	}
	switch n.ShortTag() {
	case "!!str":
		r.kind, r.text = named, n.Value
	case "!!int":
		if n.Decode(&r.index) == nil && r.index >= 0 {
			r.kind = numeric
		}
	}
	return nil
}

// number is a probability or a reward.
type number struct {
	kind kind // numeric when set (any number), absent or wrong
	text string
	v    float64
	line int
}

func (x *number) UnmarshalJSON(b []byte) error {
	*x = number{kind: wrong}
	if isNumber(b) {
		// An overflowing number (1e999) parses to ±Inf with an error; keep it, so that the error
		// is the one about non-finite values, with the value.
		v, err := strconv.ParseFloat(string(b), 64)
		if err == nil || errors.Is(err, strconv.ErrRange) {
			x.kind, x.v = numeric, v
		}
	}
	if x.kind == wrong {
		x.text = abbreviate(b)
	}
	return nil
}

func (x *number) UnmarshalYAML(n *yaml.Node) error {
	*x = number{kind: wrong, text: yamlText(n), line: n.Line}
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!float" || n.ShortTag() == "!!int") && n.Decode(&x.v) == nil {
		x.kind = numeric
	}
	return nil
}

// space is the states or the actions of a task: a count, or a list of names.
type space struct {
	kind  kind // numeric (a count), listed (names), absent or wrong
	text  string
	count int64
	names []string
	line  int
}

func (sp *space) UnmarshalJSON(b []byte) error {
	*sp = space{kind: wrong}
	switch {
	case len(b) > 0 && b[0] == '[':
		var names []string
		if json.Unmarshal(b, &names) == nil {
			sp.kind, sp.names = listed, names
		} else {
			sp.text = "a list that is not all strings"
		}
	case isNumber(b):
		if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			sp.kind, sp.count = numeric, i
		}
	}
	if sp.kind == wrong && sp.text == "" {
		sp.text = abbreviate(b)
	}
	return nil
}

func (sp *space) UnmarshalYAML(n *yaml.Node) error {
	*sp = space{kind: wrong, text: yamlText(n), line: n.Line}
	switch {
	case n.Kind == yaml.SequenceNode:
		names := make([]string, len(n.Content))
		for i, c := range n.Content {
			if c.Kind != yaml.ScalarNode || c.ShortTag() != "!!str" {
				sp.text = fmt.Sprintf("a list whose item %d is %s", i, yamlText(c))
				return nil
			}
			names[i] = c.Value
		}
		sp.kind, sp.names = listed, names
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int":
		if n.Decode(&sp.count) == nil {
			sp.kind = numeric
		}
	}
	return nil
}

// startDoc is a start distribution: a single state (kind named or numeric, in one), or a
// mapping from state names (or, when the states are numbered, decimal indices) to probabilities.
type startDoc struct {
	one     ref
	entries []startEntry // in file order, so that the first error is always the same one
	kind    kind
	text    string
	line    int
}

type startEntry struct {
	key string
	p   number
}

func (st *startDoc) UnmarshalJSON(b []byte) error {
	*st = startDoc{kind: wrong, text: abbreviate(b)}
	if len(b) == 0 || b[0] != '{' {
		if st.one.UnmarshalJSON(b); st.one.kind != wrong {
			st.kind = st.one.kind
		}
		return nil
	}
	// A Go map would lose the order of the keys; read them one by one. The syntax was checked
	// before decoding (checkJSON), so a token error here only leaves the value marked wrong.
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var entries []startEntry
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return nil
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return nil
		}
		e := startEntry{key: key}
		e.p.UnmarshalJSON(raw)
		entries = append(entries, e)
	}
	st.kind, st.entries = listed, entries
	return nil
}

func (st *startDoc) UnmarshalYAML(n *yaml.Node) error {
	*st = startDoc{kind: wrong, text: yamlText(n), line: n.Line}
	if n.Kind != yaml.MappingNode {
		if st.one.UnmarshalYAML(n); st.one.kind != wrong {
			st.kind = st.one.kind
		}
		return nil
	}
	entries := make([]startEntry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil
		}
		e := startEntry{key: k.Value}
		e.p.UnmarshalYAML(v)
		entries = append(entries, e)
	}
	st.kind, st.entries = listed, entries
	return nil
}

// isNumber reports whether a JSON value is a number.
func isNumber(b []byte) bool {
	return len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9')
}

// abbreviate shortens a value as written for error messages.
func abbreviate(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) <= 40 {
		return string(b)
	}
	n := 37
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "..."
}

// yamlText describes a YAML value for error messages.
func yamlText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	if n.ShortTag() == "!!str" {
		return strconv.Quote(abbreviate([]byte(n.Value)))
	}
	return abbreviate([]byte(n.Value))
}
