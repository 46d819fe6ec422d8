package results

import (
	"bytes"
	"encoding/json"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// SpecJSON is the resolved spec of spec.yaml as JSON, with the config's names and in its order
// (name, seed, agents with type and m_s, …): summary.json's "spec", which a reader holds against
// the config file it wrote.
func SpecJSON(specYAML []byte) (json.RawMessage, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(specYAML, &doc); err != nil {
		return nil, fmt.Errorf("results: spec.yaml: %w", err)
	}
	var b bytes.Buffer
	if len(doc.Content) == 1 {
		if err := nodeJSON(&b, doc.Content[0]); err != nil {
			return nil, fmt.Errorf("results: spec.yaml: %w", err)
		}
	} else {
		b.WriteString("null")
	}
	return b.Bytes(), nil
}

// nodeJSON writes the YAML node n as compact JSON: mappings as objects in their order,
// sequences as arrays, numbers and booleans as they are written, null as null, the rest as
// strings.
func nodeJSON(b *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.AliasNode:
		return nodeJSON(b, n.Alias)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(n.Content[i].Value)
			b.Write(key)
			b.WriteByte(':')
			if err := nodeJSON(b, n.Content[i+1]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := nodeJSON(b, c); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			b.WriteString("null")
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return fmt.Errorf("line %d: %w", n.Line, err)
			}
			text, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("line %d: %s = %q has no JSON form: %w", n.Line, n.ShortTag(), n.Value, err)
			}
			b.Write(text)
		default:
			text, _ := json.Marshal(n.Value)
			b.Write(text)
		}
	default:
		return fmt.Errorf("line %d: a YAML node of kind %d", n.Line, n.Kind)
	}
	return nil
}
