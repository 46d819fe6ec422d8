package yamlkeys

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type intsProbe struct {
	M     int       `yaml:"m"`
	Rate  float64   `yaml:"rate"`
	Cells [2]int    `yaml:"cells"`
	Inner *intsDeep `yaml:"inner"`
}

type intsDeep struct {
	Count uint64 `yaml:"count"`
}

// Issue 51, case 15: a fraction given for an integer is refused, naming the line, the key path
// and the value, wherever it is, and so is a whole number beyond the integer's range; a whole
// number written as a float (2.0, 1e3) and a fraction for a float are not.
func TestIntegersRefusesAFraction(t *testing.T) {
	for text, want := range map[string]string{
		"m: 2.5\n":                               "line 1: m = 2.5, want an integer",
		"cells: [1, 1.5]\n":                      "line 1: cells[1] = 1.5, want an integer",
		"inner:\n  count: 0.001\n":               "line 2: inner.count = 0.001, want an integer",
		"m: 0.1_\n":                              "line 1: m = 0.1_, want an integer",                             // the YAML library's 0.1 (found by FuzzIntegers)
		"m: -10000000000000000000\n":             "line 1: m = -10000000000000000000, out of the integer's range", // read as the smallest int (found by FuzzIntegers)
		"m: 1_000.0\n":                           "",
		"m: 2.0\nrate: 0.5\n":                    "",
		"m: 1e3\ncells: [1, 2]\n":                "",
		"inner: {count: 18446744073709551615}\n": "",
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(text), &n); err != nil {
			t.Fatal(err)
		}
		var p intsProbe
		if err := n.Decode(&p); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		err := Integers(&n, &p)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

// FuzzIntegers: whatever a YAML value written for an integer key, either it is refused or the
// integer decoded is the number written (never 2.5 read as 2), for plain, nested and listed keys.
func FuzzIntegers(f *testing.F) {
	for _, v := range []string{"2", "2.5", "-0.5", "1e3", "1.5e0", "0x10", "9223372036854775807", ".inf", "'3'", "[1, 2.5]", "{count: 0.25}"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, value string) {
		text := "m: " + value + "\ncells: [" + value + ", 1]\ninner:\n  count: " + value + "\n"
		var n yaml.Node
		if yaml.Unmarshal([]byte(text), &n) != nil {
			return
		}
		var p intsProbe
		if n.Decode(&p) != nil || Integers(&n, &p) != nil {
			return
		}
		var written struct {
			M any `yaml:"m"`
		}
		if yaml.Unmarshal([]byte(text), &written) != nil {
			return
		}
		if x, ok := written.M.(float64); ok && x != float64(p.M) {
			t.Fatalf("m: %s was read as %d", value, p.M)
		}
	})
}
