package yamlkeys

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Integers refuses a number with a fraction that n gives for an integer, and a whole number
// written as a float beyond the integer's range: the YAML library decodes 2.5 into an int field
// as 2, and −1e19 as the smallest int, silently. v is what n was decoded into; it is encoded back (under
// its config keys, by its MarshalYAML where it has one), and every integer there is compared with
// what n wrote at the same key or index. The error names the line, the key path and the value.
func Integers(n *yaml.Node, v any) error {
	var back yaml.Node
	if err := back.Encode(v); err != nil {
		return nil // nothing to compare with: the value's own checks stand
	}
	return fractions(n, &back, "")
}

// fractions compares what n wrote with back, its decoded value encoded again, at key path.
func fractions(n, back *yaml.Node, path string) error {
	for n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	for back.Kind == yaml.DocumentNode && len(back.Content) == 1 {
		back = back.Content[0]
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch {
	case n.Kind == yaml.MappingNode && back.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			for j := 0; j+1 < len(back.Content); j += 2 {
				if back.Content[j].Value != key {
					continue
				}
				sub := key
				if path != "" {
					sub = path + "." + key
				}
				if err := fractions(n.Content[i+1], back.Content[j+1], sub); err != nil {
					return err
				}
			}
		}
	case n.Kind == yaml.SequenceNode && back.Kind == yaml.SequenceNode && len(n.Content) == len(back.Content):
		for k := range n.Content {
			if err := fractions(n.Content[k], back.Content[k], fmt.Sprintf("%s[%d]", path, k)); err != nil {
				return err
			}
		}
	case n.Kind == yaml.ScalarNode && back.Kind == yaml.ScalarNode && back.ShortTag() == "!!int" && n.ShortTag() == "!!float":
		// The YAML library reads digits with underscores (0.1_ is 0.1) and .inf as floats; a float
		// Go cannot parse back is refused, not taken for an integer. A whole number beyond the
		// integer's range (−1e19 for an int) is decoded saturated, silently: refused too.
		what := path
		if what == "" {
			what = "the value"
		}
		x, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil || x != math.Trunc(x) {
			return fmt.Errorf("line %d: %s = %s, want an integer", n.Line, what, n.Value)
		}
		if got, err := strconv.ParseFloat(back.Value, 64); err != nil || got != x {
			return fmt.Errorf("line %d: %s = %s, out of the integer's range (read as %s)", n.Line, what, n.Value, back.Value)
		}
	}
	return nil
}
