package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// summary.json's spec is written in the config's names, as spec.yaml: the same keys in the same
// order at the top and in every agent (type, m_s, …; not the runner's Name, Agents).
func TestSummarySpecInTheConfigsNames(t *testing.T) {
	dir := t.TempDir()
	if _, err := Execute(context.Background(), small(1, 2, 10), dir, 1, nil); err != nil {
		t.Fatal(err)
	}
	specYAML, err := os.ReadFile(filepath.Join(dir, "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(specYAML, &doc); err != nil {
		t.Fatal(err)
	}
	var yamlKeys []string
	for i, n := range doc.Content[0].Content {
		if i%2 == 0 {
			yamlKeys = append(yamlKeys, n.Value)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Spec json.RawMessage `json:"spec"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(sum.Spec))
	var jsonKeys []string
	dec.Token() // {
	for dec.More() {
		key, _ := dec.Token()
		jsonKeys = append(jsonKeys, key.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	if !slices.Equal(jsonKeys, yamlKeys) {
		t.Errorf("summary.json's spec has the keys %v, spec.yaml %v", jsonKeys, yamlKeys)
	}
	var spec struct {
		Agents []map[string]any `json:"agents"`
	}
	json.Unmarshal(sum.Spec, &spec)
	if len(spec.Agents) == 0 || spec.Agents[0]["type"] != "o-temple" || spec.Agents[0]["m_s"] == nil {
		t.Errorf("agents %v, want o-temple first, with m_s", spec.Agents)
	}
}
