package agenttypes

import (
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Both ends of every searched range, and every choice, are values the type's Validate accepts
// (with m_s, the template learners' identification threshold, at most the base's m, as temple
// tune clamps it), so that the registry's search spaces agree with its range: tags.
func TestSearchSpacesLieWithinTheBounds(t *testing.T) {
	var cases []struct {
		typ string
		p   Params
	}
	for _, ty := range Types() {
		if Outside(ty.Defaults()) { // searched only where a config's search: block says (outside_test.go)
			continue
		}
		cases = append(cases, struct {
			typ string
			p   Params
		}{ty.Name, ty.Defaults()})
	}
	for _, base := range BaseNames() { // the template learners over every base
		for _, typ := range []string{"o-temple", "fm-temple"} {
			var n yaml.Node
			n.Encode(map[string]string{"base": base})
			p, err := Decode(typ, &n)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, struct {
				typ string
				p   Params
			}{typ, p})
		}
	}
	for _, c := range cases {
		space := SearchSpace(c.typ, c.p)
		if len(space) == 0 {
			t.Errorf("%s: no search space", c.typ)
		}
		for _, d := range space {
			for _, v := range endsOf(d) {
				p := c.p
				if d.Key == "m" && slices.Contains(Keys(p), "m_s") { // temple tune clamps m_s to m
					var one yaml.Node
					one.Encode(1)
					p, _ = Set(c.typ, p, "m_s", &one)
				}
				var n yaml.Node
				n.Encode(v)
				q, err := Set(c.typ, p, d.Key, &n)
				if err == nil && d.Key != "m_s" { // m_s is clamped to m by temple tune
					err = q.Validate()
				}
				if err != nil {
					t.Errorf("%s: %s = %v: %v", c.typ, d.Key, v, err)
				}
			}
		}
	}
}

func endsOf(d Dim) []any {
	if len(d.Choices) > 0 {
		var out []any
		for _, c := range d.Choices {
			out = append(out, c)
		}
		return out
	}
	if d.Int {
		return []any{int64(d.Low), int64(d.High)}
	}
	return []any{d.Low, d.High}
}

// Every option's scale is of a key some type has.
func TestScalesAreOfKnownKeys(t *testing.T) {
	keys := map[string]bool{}
	for _, ty := range Types() {
		for _, k := range Keys(ty.Defaults()) {
			keys[k] = true
		}
	}
	for _, d := range scales {
		if !keys[d.Key] {
			t.Errorf("scale of %q: no agent type has that key", d.Key)
		}
	}
}
