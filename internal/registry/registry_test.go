package registry

import (
	"fmt"
	"testing"

	"go.yaml.in/yaml/v3"
)

type entry struct{ Name, Summary string }

func name(e entry) string { return e.Name }

func ExampleTable() {
	table := New("shape = %q", name)
	table.Add(entry{"square", "four sides"})
	table.Add(entry{"circle", "none"})
	fmt.Println(table.Names())
	e, _ := table.Lookup("circle")
	fmt.Println(e.Summary)
	_, err := table.Lookup("sqare")
	fmt.Println(err)
	// Output:
	// [circle square]
	// none
	// shape = "sqare", want one of circle, square; did you mean "square"?
}

// A name is added once; the table keeps the order of adding (InOrder) beside name order (All).
func TestAdd(t *testing.T) {
	table := New("shape = %q", name)
	table.Add(entry{"square", ""})
	if !table.Add(entry{"circle", ""}) || table.Add(entry{"square", "again"}) {
		t.Error("Add took a taken name, or refused a new one")
	}
	if got := table.InOrder(); len(got) != 2 || got[0].Name != "square" || got[0].Summary != "" {
		t.Errorf("InOrder = %v, want square (the first one) then circle", got)
	}
	if got := table.All(); got[0].Name != "circle" {
		t.Errorf("All = %v, want name order", got)
	}
}

func node(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

func TestCheckKeys(t *testing.T) {
	keys := []string{"length", "slips"}
	if err := CheckKeys(node(t, "length: 3\nslips: [0]"), "family corridor", keys); err != nil {
		t.Errorf("known keys: %v", err)
	}
	err := CheckKeys(node(t, "length: 3\nlenght: 4"), "family corridor", keys)
	want := `line 2: family corridor has no parameter "lenght" (it has length, slips); did you mean "length"?`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// Mapping writes the given keys first, then the parameters in field order; JSON keeps that order.
func TestMappingAndJSON(t *testing.T) {
	params := struct {
		Zeta  float64        `yaml:"zeta"`
		Alpha []int          `yaml:"alpha"`
		Inner map[string]int `yaml:"inner"`
	}{0.5, []int{1, 2}, map[string]int{"b": 2, "a": 1}}
	n, err := Mapping(params, "type", "shape", "name", "Shape")
	if err != nil {
		t.Fatal(err)
	}
	b, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	if want := "type: shape\nname: Shape\nzeta: 0.5\nalpha:\n    - 1\n    - 2\ninner:\n    a: 1\n    b: 2\n"; string(b) != want {
		t.Errorf("YAML\n%s\nwant\n%s", b, want)
	}
	j, err := JSON(n)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"shape","name":"Shape","zeta":0.5,"alpha":[1,2],"inner":{"a":1,"b":2}}`; string(j) != want {
		t.Errorf("JSON %s, want %s", j, want)
	}
}
