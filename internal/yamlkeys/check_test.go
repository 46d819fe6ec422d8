package yamlkeys

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type checkInner struct {
	Enabled bool    `yaml:"enabled"`
	Weight  float64 `yaml:"weight" range:"[0, 1)"`
}

type checkOuter struct {
	Runs  int          `yaml:"runs" range:">= 1"`
	Inner checkInner   `yaml:"inner"`
	Items []checkInner `yaml:"items"`
	Pair  [2]int       `yaml:"pair"`
	Kept  yaml.Node    `yaml:"kept"`
	Nodes []yaml.Node  `yaml:"nodes"` // a list of what reads itself: only its kind is checked
}

func TestCheckSaysTheConfigsWords(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"rusn: 1\n", `line 1: a config has no key "rusn" (it has runs, inner, items, pair, kept, nodes); did you mean "runs"?`},
		{"runs: two\n", `line 1: runs = "two", want an integer >= 1`},
		{"inner:\n  enabeld: true\n", `line 2: inner has no key "enabeld" (it has enabled, weight); did you mean "enabled"?`},
		{"inner:\n  weight: heavy\n", `line 2: inner.weight = "heavy", want a number in [0, 1)`},
		{"inner: 3\n", "line 1: inner is a mapping of keys (enabled, weight), not the value 3"},
		{"items:\n  - enabled: yes please\n", `line 2: items[0].enabled = "yes please", want true or false`},
		{"items: 4\n", "line 1: items is a list, not the value 4"},
		{"nodes: 4\n", "line 1: nodes is a list, not the value 4"},
		{"pair: [1, x]\n", "line 1: pair = [1, x], want a list of 2 integers"},
		{"kept: {anything: [goes]}\nruns: 2\n", ""},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.doc), &doc); err != nil {
			t.Fatal(err)
		}
		err := Check(doc.Content[0], reflect.TypeFor[checkOuter](), "a config")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v, want no error", c.doc, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%q: %v, want %s", c.doc, err, c.want)
		}
	}
}

// TestWordsRewritesTheLibrarysMessages: the fallback for blocks that read themselves names the
// key by its value's line and says the type in words.
func TestWordsRewritesTheLibrarysMessages(t *testing.T) {
	src := "outer:\n  width: five\n  sizes: [1, b]\n"
	var doc yaml.Node
	yaml.Unmarshal([]byte(src), &doc)
	var v struct {
		Outer struct {
			Width int   `yaml:"width"`
			Sizes []int `yaml:"sizes"`
		} `yaml:"outer"`
	}
	err := Words(doc.Decode(&v), &doc)
	want := `line 2: width = "five", want an integer; line 3: the value "b", want an integer`
	if err == nil || !strings.Contains(err.Error(), `line 2: width = "five", want an integer`) || strings.Contains(err.Error(), "unmarshal") {
		t.Errorf("Words: %v, want like %s", err, want)
	}
}
