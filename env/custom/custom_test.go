package custom

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// validJSON is a small task with named states, a terminal state and every kind of value; the
// error cases below each change one thing in it. Every reward is different, so that each
// replacement matches one place only.
const validJSON = `{
  "format": "temple-mdp/v1",
  "tasks": [
    {
      "name": "t",
      "states": ["a", "b", "end"],
      "actions": ["x", "y"],
      "start": {"a": 1},
      "terminal": ["end"],
      "transitions": [
        {"state": "a", "action": "x", "outcomes": [{"next": "b", "p": 0.5, "r": 1}, {"next": "a", "p": 0.5, "r": 0.25}]},
        {"state": "a", "action": "y", "outcomes": [{"next": "end", "p": 1, "r": -1}]},
        {"state": "b", "action": "x", "outcomes": [{"next": "b", "p": 1, "r": 0.5}]},
        {"state": "b", "action": "y", "outcomes": [{"next": "end", "p": 1, "r": 2}]}
      ]
    }
  ]
}
`

// validYAML is validJSON in YAML.
const validYAML = `format: temple-mdp/v1
tasks:
  - name: t
    states: [a, b, end]
    actions: [x, y]
    start: {a: 1}
    terminal: [end]
    transitions:
      - state: a
        action: x
        outcomes:
          - {next: b, p: 0.5, r: 1}
          - {next: a, p: 0.5, r: 0.25}
      - {state: a, action: y, outcomes: [{next: end, p: 1, r: -1}]}
      - {state: b, action: x, outcomes: [{next: b, p: 1, r: 0.5}]}
      - {state: b, action: y, outcomes: [{next: end, p: 1, r: 2}]}
`

// validNumbered is a task whose states and actions are numbered, with the start given as one
// state.
const validNumbered = `{"format": "temple-mdp/v1", "tasks": [{"name": "n", "states": 2, "actions": 1, "start": 0,
  "transitions": [{"state": 0, "action": 0, "outcomes": [{"next": 1, "p": 1, "r": 3}]},
                  {"state": 1, "action": 0, "outcomes": [{"next": 0, "p": 0.25, "r": 0}, {"next": 1, "p": 0.75, "r": 1}]}]}]}`

// edit replaces old by new in s, failing the test unless old occurs exactly once, so that a case
// never passes because its edit silently did nothing.
func edit(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("edit: %q occurs %d times, want once", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

func TestParseValid(t *testing.T) {
	fromJSON, err := Parse([]byte(validJSON), "json")
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := Parse([]byte(validYAML), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	sameTasks(t, fromYAML, fromJSON)
	task := fromJSON[0]
	m := task.Model
	if task.Name != "t" || m.S != 3 || m.A != 2 || !slices.Equal(task.StateNames, []string{"a", "b", "end"}) ||
		!slices.Equal(task.ActionNames, []string{"x", "y"}) {
		t.Fatalf("got task %q with S=%d A=%d, states %v, actions %v", task.Name, m.S, m.A, task.StateNames, task.ActionNames)
	}
	if got, want := m.Row(0, 0), []mdp.Transition{{Next: 1, Prob: 0.5, Reward: 1}, {Next: 0, Prob: 0.5, Reward: 0.25}}; !slices.Equal(got, want) {
		t.Errorf("row (a, x) = %v, want %v", got, want)
	}
	if !m.Terminal(2) || m.Terminal(0) || !slices.Equal(m.StartDistribution(), []float64{1, 0, 0}) {
		t.Errorf("terminal %v, start %v; want only state 2 terminal and start in state 0", m.TerminalStates(), m.StartDistribution())
	}

	numbered, err := Parse([]byte(validNumbered), "json")
	if err != nil {
		t.Fatal(err)
	}
	if n := numbered[0]; n.StateNames != nil || n.ActionNames != nil || n.Model.TerminalStates() != nil ||
		n.Model.ExpectedReward(1, 0) != 0.75 {
		t.Errorf("numbered task: names %v %v, terminal %v, r(1, 0) = %v", n.StateNames, n.ActionNames,
			n.Model.TerminalStates(), n.Model.ExpectedReward(1, 0))
	}

	// The same task with numbered states and actions, in YAML, builds the same model.
	numberedYAML := strings.NewReplacer("[a, b, end]", "3", "[x, y]", "2", "{a: 1}", "{0: 1}", "[end]", "[2]",
		"state: a", "state: 0", "state: b", "state: 1", "action: x", "action: 0", "action: y", "action: 1",
		"next: a", "next: 0", "next: b", "next: 1", "next: end", "next: 2").Replace(validYAML)
	fromNumbered, err := Parse([]byte(numberedYAML), "yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, numberedYAML)
	}
	fromNumbered[0].StateNames, fromNumbered[0].ActionNames = task.StateNames, task.ActionNames
	sameTasks(t, fromNumbered, fromJSON)

	// The other accepted shapes: a start state by name, a start distribution by index, no
	// terminal key, a leading byte-order mark, an outcome of probability 0 (dropped).
	for _, text := range []string{
		edit(t, validJSON, `"start": {"a": 1}`, `"start": "a"`),
		edit(t, validJSON, `"start": {"a": 1}`, `"start": 0`),
		edit(t, validNumbered, `"start": 0`, `"start": {"0": 0.5, "1": 0.5}`),
		"\xef\xbb\xbf" + validJSON,
		edit(t, validJSON, `[{"next": "end", "p": 1, "r": 2}]`, `[{"next": "end", "p": 1, "r": 2}, {"next": "a", "p": 0, "r": 9}]`),
	} {
		if _, err := Parse([]byte(text), "json"); err != nil {
			t.Errorf("Parse(%.60q...): %v", text, err)
		}
	}
}

// sameTasks fails unless got and want have the same names and identical models, row by row.
func sameTasks(t *testing.T, got, want []Task) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d tasks, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Name != w.Name || !slices.Equal(g.StateNames, w.StateNames) || !slices.Equal(g.ActionNames, w.ActionNames) {
			t.Errorf("task %d: got %q %v %v, want %q %v %v", i, g.Name, g.StateNames, g.ActionNames, w.Name, w.StateNames, w.ActionNames)
		}
		gm, wm := g.Model, w.Model
		if gm.S != wm.S || gm.A != wm.A {
			t.Fatalf("task %d: got S=%d A=%d, want S=%d A=%d", i, gm.S, gm.A, wm.S, wm.A)
		}
		if !slices.Equal(gm.StartDistribution(), wm.StartDistribution()) || !slices.Equal(gm.TerminalStates(), wm.TerminalStates()) {
			t.Errorf("task %d: start %v terminal %v, want %v %v", i, gm.StartDistribution(), gm.TerminalStates(),
				wm.StartDistribution(), wm.TerminalStates())
		}
		for s := range wm.S {
			for a := range wm.A {
				if gr, wr := gm.Row(s, a), wm.Row(s, a); !slices.Equal(gr, wr) || gm.ExpectedReward(s, a) != wm.ExpectedReward(s, a) {
					t.Errorf("task %d state %d action %d: row %v, want %v", i, s, a, gr, wr)
				}
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	type errCase struct {
		name, format, text string
		want               []string // words the error must contain
	}
	J := func(name, old, new string, want ...string) errCase {
		return errCase{name, "json", edit(t, validJSON, old, new), want}
	}
	Y := func(name, old, new string, want ...string) errCase {
		return errCase{name, "yaml", edit(t, validYAML, old, new), want}
	}
	lastTransition := `,
        {"state": "b", "action": "y", "outcomes": [{"next": "end", "p": 1, "r": 2}]}`
	cases := []errCase{
		J("wrong format tag", `"temple-mdp/v1"`, `"temple-mdp/v2"`, `format = "temple-mdp/v2"`, `want "temple-mdp/v1"`),
		J("no format", `"format": "temple-mdp/v1",`, ``, `"format" is missing`),
		J("no tasks", `"tasks": [`, `"tasks": [], "x": [`, `unknown key "x" in the file`),
		{"empty task list", "json", `{"format": "temple-mdp/v1", "tasks": []}`, []string{"no tasks"}},
		J("unknown key in a task", `"name": "t",`, `"name": "t", "gamma": 0.9,`, `unknown key "gamma" in a task`, "line 5"),
		// encoding/json alone would match keys regardless of case.
		J("key in another case", `"name": "t"`, `"Name": "t"`, `unknown key "Name" in a task`),
		J("unknown key in an outcome", `"r": 0.25}`, `"r": 0.25, "prob": 1}`, `unknown key "prob" in an outcome`, "want next, p, r"),
		J("duplicate key", `"p": 1, "r": -1}`, `"p": 1, "p": 1, "r": -1}`, `key "p" appears twice`, "line 12"),
		{"duplicate key in a large object", "json", edit(t, validNumbered, `"start": 0`,
			`"start": {"0": 1, "1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 0, "9": 0, "10": 0, "11": 0,
			"12": 0, "13": 0, "14": 0, "15": 0, "16": 0, "17": 0, "18": 0, "19": 0, "20": 0, "7": 0}`), []string{`key "7" appears twice`}},
		J("long wrong value", `"next": "b", "p": 1`, `"next": 12345678901234567890123456789012345678901234567890, "p": 1`,
			`next: state = 1234567890123456789012345678901234567...: want a state name`),
		J("duplicate start key", `"start": {"a": 1}`, `"start": {"a": 1, "a": 1}`, `key "a" appears twice`),
		J("sum below 1", `"p": 0.5, "r": 0.25`, `"p": 0.4, "r": 0.25`, `task 0 ("t")`, `transitions[0] (state "a", action "x")`, "sum to 0.9", "want 1"),
		J("sum above 1", `"p": 1, "r": 0.5`, `"p": 1.0000001, "r": 0.5`, `(state "b", action "x")`, "sum to 1.0000001"),
		J("next does not exist", `"next": "b", "p": 1`, `"next": "c", "p": 1`, `(state "b", action "x")`, `outcomes[0]`, `state "c" does not exist`),
		J("next index out of range", `"next": "b", "p": 1`, `"next": 7, "p": 1`, `state 7 does not exist`, "numbered 0 to 2"),
		J("next is not a state", `"next": "b", "p": 1`, `"next": true, "p": 1`, `state = true`, "want a state name or an index"),
		J("negative index", `"next": "b", "p": 1`, `"next": -1, "p": 1`, `state = -1`),
		J("no next", `"next": "b", "p": 1,`, `"p": 1,`, "no state given"),
		J("action does not exist", `"action": "y", "outcomes": [{"next": "end", "p": 1, "r": -1}]`,
			`"action": "z", "outcomes": [{"next": "end", "p": 1, "r": -1}]`, `transitions[1] (state "a")`, `action "z" does not exist`),
		J("state does not exist", `"state": "b", "action": "y"`, `"state": "q", "action": "y"`, `transitions[3]`, `state "q" does not exist`),
		J("duplicate pair", `{"state": "b", "action": "x"`, `{"state": "a", "action": "x"`,
			`transitions[0] and transitions[2] both give state "a", action "x"`),
		J("duplicate outcome", `"next": "a", "p": 0.5`, `"next": "b", "p": 0.5`, `outcomes[0] and outcomes[1] both lead to state "b"`),
		J("missing pair", lastTransition, ``, `task 0 ("t")`, `no transition for state "b", action "y"`, "3 listed, want 4"),
		J("no transitions", `"transitions": [`, `"transitions": [], "x": [`, `unknown key "x" in a task`),
		J("no outcomes", `[{"next": "end", "p": 1, "r": 2}]`, `[]`, `(state "b", action "y")`, "no outcomes"),
		J("duplicate state name", `["a", "b", "end"]`, `["a", "b", "a"]`, `states[2] = "a" is the name of states[0] too`),
		J("duplicate action name", `["x", "y"]`, `["x", "x"]`, `actions[1] = "x" is the name of actions[0] too`),
		J("empty state name", `["a", "b", "end"]`, `["a", "", "end"]`, `states[1]: name is missing or empty`),
		J("control character in a name", `"name": "t"`, `"name": "t\u0007"`, `task 0 ("t\a")`, "control character"),
		J("empty task name", `"name": "t"`, `"name": ""`, `task 0: name is missing or empty`),
		J("negative probability", `"p": 0.5, "r": 1`, `"p": -0.5, "r": 1`, `outcomes[0] (next state "b")`, "p = -0.5", "negative"),
		J("probability as a string", `"p": 0.5, "r": 1`, `"p": "0.5", "r": 1`, `p = "0.5": want a number`),
		J("reward as a string", `"r": 2}`, `"r": "NaN"}`, `(state "b", action "y")`, `r = "NaN": want a number`),
		J("reward overflows", `"r": 2}`, `"r": 1e999}`, `r = +Inf: want a finite number`),
		J("no reward", `, "r": 2}`, `}`, `key "r" is missing`),
		J("no probability", `"p": 1, "r": 2}`, `"r": 2}`, `key "p" is missing`),
		J("states as a float", `["a", "b", "end"]`, `1e12`, "states = 1e12", "want a count"),
		J("too many states", `["a", "b", "end"]`, `1000000000000`, "states = 1000000000000", "over the limit of 10000000 (MaxStates)"),
		J("too many actions", `["x", "y"]`, `2000`, "actions = 2000", "over the limit of 1024 (MaxActions)"),
		J("too many pairs", `["a", "b", "end"]`, `10000000`, "10000000 states × 2 actions", "(MaxPairs)"),
		J("no states", `["a", "b", "end"]`, `0`, "states = 0, want at least 1"),
		J("empty state list", `["a", "b", "end"]`, `[]`, "states is an empty list"),
		J("state names not strings", `["a", "b", "end"]`, `["a", 1, "end"]`, "states = a list that is not all strings"),
		J("numbered states named", `["a", "b", "end"]`, `3`, `the states of this task are numbered (0 to 2), not named`),
		J("terminal state with transitions", `"terminal": ["end"]`, `"terminal": ["b"]`,
			`transitions[2]: state "b" is terminal, so it has no transitions`),
		J("terminal listed twice", `"terminal": ["end"]`, `"terminal": ["end", 2]`, `terminal[1]: state "end" is listed twice`),
		J("start on a terminal state", `"start": {"a": 1}`, `"start": {"end": 1}`, `start: state "end" is terminal`),
		J("start sums below 1", `"start": {"a": 1}`, `"start": {"a": 0.5}`, "start probabilities sum to 0.5"),
		J("start of an unknown state", `"start": {"a": 1}`, `"start": {"q": 1}`, `start: state "q" does not exist`),
		J("start negative", `"start": {"a": 1}`, `"start": {"a": 1.5, "b": -0.5}`, `start["b"] = -0.5`, "negative"),
		J("start missing", `"start": {"a": 1},`, ``, `key "start" is missing`),
		J("start is a list", `"start": {"a": 1}`, `"start": ["a"]`, `start = ["a"]`),
		J("wrong type", `"name": "t"`, `"name": 5`, "tasks.name is number, want a string"),
		J("nesting too deep", `["x", "y"]`, `[[[[[[["x"]]]]]]]`, "nested deeper than the format allows"),
		{"numbered start key not canonical", "json", edit(t, validNumbered, `"start": 0`, `"start": {"01": 1}`), []string{`key "01"`, "numbered"}},
		{"numbered start key out of range", "json", edit(t, validNumbered, `"start": 0`, `"start": {"2": 1}`), []string{"state 2 does not exist"}},
		{"truncated", "json", validJSON[:len(validJSON)/2], []string{"truncated JSON"}},
		{"truncated in a string", "json", validJSON[:strings.Index(validJSON, "temple-mdp")+3], []string{"truncated JSON"}},
		{"trailing data", "json", validJSON + "{}", []string{"trailing data"}},
		{"not an object", "json", `[1, 2]`, []string{"must be a JSON object"}},
		{"syntax error", "json", `{"format": "temple-mdp/v1",, }`, []string{"invalid JSON at line 1, column 28"}},
		{"empty", "json", "", []string{"empty file"}},
		{"blank", "yaml", " \n\t\n", []string{"empty file"}},
		{"NUL bytes", "json", "{\"format\x00\": 1}", []string{"NUL byte at line 1, column 9", "binary"}},
		{"not UTF-8", "yaml", "format: temple-mdp/v1\nname: caf\xe9\n", []string{"invalid UTF-8 at line 2, column 10"}},
		{"unknown syntax", "toml", validJSON, []string{`format "toml"`}},

		Y("YAML NaN reward", "r: 2}", "r: .nan}", `(state "b", action "y")`, "r = NaN (line 16)", "finite"),
		Y("YAML infinite probability", "p: 1, r: -1", "p: .inf, r: -1", `(state "a", action "y")`, "p = +Inf"),
		Y("YAML negative infinite reward", "r: -1}", "r: -.inf}", "r = -Inf"),
		Y("YAML unknown key", "r: 0.25}", "r: 0.25, prob: 1}", `line 13: unknown key "prob" in an outcome`),
		Y("YAML duplicate key", "action: x\n", "action: x\n        action: y\n", `line 11: key "action" appears twice`),
		Y("YAML anchor", "outcomes: [{next: b, p: 1, r: 0.5}]", "outcomes: &o [{next: b, p: 1, r: 0.5}]", "line 15", "anchors and aliases"),
		{"YAML alias", "yaml", edit(t, edit(t, validYAML, "{a: 1}", "&s {a: 1}"), "[end]", "*s"), []string{"anchors and aliases"}},
		Y("YAML merge key", "{next: b, p: 1, r: 0.5}", "{<<: {next: b}, p: 1, r: 0.5}", "merge keys"),
		Y("YAML string probability", "p: 0.5, r: 1}", `p: "0.5", r: 1}`, `p = "0.5" (line 12): want a number`),
		Y("YAML state names not strings", "states: [a, b, end]", "states: [a, 1, end]", "states = a list whose item 1 is 1"),
		Y("YAML wrong type", "name: t", "name: [t]", "invalid YAML", "line 3", "cannot unmarshal"),
		Y("YAML missing pair", "      - {state: b, action: y, outcomes: [{next: end, p: 1, r: 2}]}\n", "", `no transition for state "b", action "y"`),
		Y("YAML second document", "r: 2}]}\n", "r: 2}]}\n---\nformat: x\n", "second YAML document"),
		{"YAML syntax error", "yaml", "format: [temple-mdp/v1\n", []string{"invalid YAML"}},
		{"YAML not a mapping", "yaml", "- 1\n- 2\n", []string{"must be a YAML mapping"}},
		{"YAML only a comment", "yaml", "# nothing\n", []string{"empty YAML document"}},
		{"YAML billion laughs", "yaml", "format: temple-mdp/v1\ntasks:\n  - name: &a [x, x, x, x, x, x, x, x, x]\n" +
			"    states: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n    actions: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
			"    start: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n", []string{"line 3: YAML anchors and aliases"}},
		{"YAML wrong format tag", "yaml", edit(t, validYAML, "temple-mdp/v1", "temple-mdp"), []string{`format = "temple-mdp"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tasks, err := Parse([]byte(c.text), c.format)
			if err == nil {
				t.Fatalf("Parse succeeded with %d tasks, want an error containing %q", len(tasks), c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestDeclaredSizeAllocatesNothing checks that a file declaring the largest model allowed, but
// listing one transition, is rejected without allocating for its declared size.
func TestDeclaredSizeAllocatesNothing(t *testing.T) {
	text := []byte(`{"format": "temple-mdp/v1", "tasks": [{"name": "big", "states": 10000000, "actions": 1, "start": 0,
		"transitions": [{"state": 0, "action": 0, "outcomes": [{"next": 0, "p": 1, "r": 0}]}]}]}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse(text, "json")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "no transition for state 1, action 0") {
		t.Fatalf("error %v, want one about the missing pair of state 1", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("rejecting the file allocated %d bytes, want under 1 MiB", alloc)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: over the limit without writing it.
	if err := f.Truncate(MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	hugeYAML := filepath.Join(dir, "huge.yaml")
	if err := os.WriteFile(hugeYAML, bytes.Repeat([]byte("#\n"), MaxYAMLBytes/2+1), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.yml")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want []string
	}{
		{huge, []string{"huge.json", "larger than the limit of 256 MiB (MaxFileBytes)"}},
		{hugeYAML, []string{"larger than the limit of 16 MiB (MaxYAMLBytes"}},
		{empty, []string{"empty.yml", "empty file"}},
		{filepath.Join(dir, "missing.json"), []string{"missing.json", "no such file"}},
		{filepath.Join(dir, "model.txt"), []string{`extension ".txt"`}},
		{dir + "/.json", []string{"no such file"}},
	} {
		_, err := Read(c.path)
		if err == nil {
			t.Errorf("Read(%s) succeeded, want an error", c.path)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Read(%s): error %q does not contain %q", c.path, err, w)
			}
		}
	}
}

// TestExamples checks that the example files build the same tasks, and that the tasks differ.
func TestExamples(t *testing.T) {
	fromJSON, err := Read("../../examples/custom-mdp/inventory.json")
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := Read("../../examples/custom-mdp/inventory.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sameTasks(t, fromYAML, fromJSON)
	if len(fromJSON) != 3 {
		t.Fatalf("got %d tasks, want 3", len(fromJSON))
	}
	for i, task := range fromJSON {
		if task.Model.S != 4 || task.Model.A != 3 {
			t.Errorf("task %d (%s): S=%d A=%d, want 4 states and 3 actions", i, task.Name, task.Model.S, task.Model.A)
		}
	}
	// The README gives the optimal policies at γ = 0.95; they differ between the tasks.
	want := [][]int{{1, 0, 0, 0}, {2, 1, 0, 0}, {2, 1, 0, 0}}
	for i, task := range fromJSON {
		sol, err := mdp.ValueIteration(task.Model, 0.95, 1e-9)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sol.Policy, want[i]) {
			t.Errorf("task %s: optimal policy %v, want %v", task.Name, sol.Policy, want[i])
		}
	}
}

// randomTasks makes tasks with random sparse rows, some terminal states and random names (or
// none), for round trips.
func randomTasks(rng *rand.Rand, n int) []Task {
	tasks := make([]Task, n)
	for i := range tasks {
		S, A := 1+rng.IntN(12), 1+rng.IntN(4)
		terminal := make([]bool, S)
		for s := 1; s < S; s++ {
			terminal[s] = rng.IntN(4) == 0
		}
		rows := make([][]mdp.Transition, S*A)
		for s := range S {
			if terminal[s] {
				continue
			}
			for a := range A {
				nexts := rng.Perm(S)[:1+rng.IntN(S)]
				weights := make([]float64, len(nexts))
				total := 0.0
				for k := range weights {
					weights[k] = rng.Float64() + 1e-3
					total += weights[k]
				}
				for k, next := range nexts {
					rows[s*A+a] = append(rows[s*A+a], mdp.Transition{Next: next, Prob: weights[k] / total, Reward: rng.NormFloat64() * 1e3})
				}
			}
		}
		start := make([]float64, S)
		start[0] = 1
		m, err := mdp.NewEpisodic(S, A, rows, start, terminal)
		if err != nil {
			panic(err)
		}
		tasks[i] = Task{Name: fmt.Sprintf("random \"%d\" é", i), Model: m}
		if rng.IntN(2) == 0 {
			for s := range S {
				tasks[i].StateNames = append(tasks[i].StateNames, fmt.Sprintf("s%d <%c>", s, 'α'+rune(s)))
			}
			for a := range A {
				tasks[i].ActionNames = append(tasks[i].ActionNames, fmt.Sprintf("act %d", a))
			}
		}
	}
	return tasks
}

func TestWriteReadRoundTrip(t *testing.T) {
	examples, err := Read("../../examples/custom-mdp/inventory.json")
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string][]Task{"examples": examples, "random": randomTasks(rand.New(rand.NewPCG(1, 2)), 20)}
	for _, text := range []string{validJSON, validNumbered} {
		tasks, err := Parse([]byte(text), "json")
		if err != nil {
			t.Fatal(err)
		}
		sets[text[:20]] = tasks
	}
	dir := t.TempDir()
	for name, tasks := range sets {
		path := filepath.Join(dir, "a", "tasks.json")
		if err := Write(path, tasks); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := Read(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameTasks(t, back, tasks)
		// Same tasks, same bytes: once more from the tasks read back.
		first, _ := os.ReadFile(path)
		if err := Write(path, back); err != nil {
			t.Fatal(err)
		}
		if second, _ := os.ReadFile(path); !bytes.Equal(first, second) {
			t.Errorf("%s: writing the tasks read back changed the file", name)
		}
		if leftovers, _ := filepath.Glob(filepath.Join(dir, "a", ".*")); len(leftovers) > 0 {
			t.Errorf("%s: temporary files left behind: %v", name, leftovers)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	tasks, err := Parse([]byte(validJSON), "json")
	if err != nil {
		t.Fatal(err)
	}
	good := tasks[0]
	path := filepath.Join(t.TempDir(), "out.json")
	for _, c := range []struct {
		name  string
		tasks []Task
		want  string
	}{
		{"no tasks", nil, "no tasks to write"},
		{"no model", []Task{{Name: "x"}}, `task 0 ("x"): no model`},
		{"too few state names", []Task{{Name: "x", Model: good.Model, StateNames: []string{"a"}}}, "1 state names for 3 states"},
		{"duplicate state names", []Task{{Name: "x", Model: good.Model, StateNames: []string{"a", "a", "b"}}}, `states[1] = "a" is the name of states[0] too`},
		{"invalid UTF-8 name", []Task{{Name: "x", Model: good.Model, ActionNames: []string{"u", "\xff"}}}, "ActionNames[1]: name \"\\xff\" is not valid UTF-8"},
		{"empty task name", []Task{{Model: good.Model}}, "name is missing or empty"},
	} {
		err := Write(path, c.tasks)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a failed write left %s behind", path)
	}
}

// TestFormatDocument checks that the example of FORMAT.md reads, and that its JSON and YAML
// forms build the same task.
func TestFormatDocument(t *testing.T) {
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	block := func(lang string) []byte {
		_, rest, ok := strings.Cut(string(doc), "```"+lang+"\n")
		text, _, closed := strings.Cut(rest, "```")
		if !ok || !closed {
			t.Fatalf("FORMAT.md has no %s block", lang)
		}
		return []byte(text)
	}
	fromJSON, err := Parse(block("json"), "json")
	if err != nil {
		t.Fatalf("FORMAT.md, JSON example: %v", err)
	}
	fromYAML, err := Parse(block("yaml"), "yaml")
	if err != nil {
		t.Fatalf("FORMAT.md, YAML example: %v", err)
	}
	sameTasks(t, fromYAML, fromJSON)
}
