package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/cli/describe"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/presets"
)

// temple describe prints every agent type and task family of the registries with every key and
// its default.
func TestDescribeAgreesWithTheRegistries(t *testing.T) {
	out, err := temple(t, "describe")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, e := range append(append(describe.Config(), describe.AgentTypes()...), describe.TaskFamilies()...) {
		block := out[strings.Index(out, "\n"+e.Name+" ")+1:]
		if i := strings.Index(block, "\n\n"); i >= 0 {
			block = block[:i]
		}
		if !strings.HasPrefix(block, e.Name+" ") {
			t.Errorf("describe lacks %s", e.Name)
			continue
		}
		for _, p := range e.Params {
			if !strings.Contains(block, "\n  "+p.Key+" ") || !strings.Contains(block, " "+p.Default+" ") {
				t.Errorf("describe: %s lacks key %s with default %s:\n%s", e.Name, p.Key, p.Default, block)
			}
		}
	}
	out, err = temple(t, "describe", "types")
	if err != nil || strings.Contains(out, "Task families") || !strings.Contains(out, "o-temple") {
		t.Errorf("describe types: %v\n%s", err, out)
	}
	out, err = temple(t, "describe", "families", "online-maze", "--json")
	var listed map[string][]describe.Entry
	if err != nil || json.Unmarshal([]byte(out), &listed) != nil || len(listed["families"]) != 1 || listed["families"][0].Params[0].Key != "width" {
		t.Errorf("describe families online-maze --json: %v\n%s", err, out)
	}
	out, err = temple(t, "describe", "oracle.enabled")
	if err != nil || !strings.Contains(out, "\n  enabled ") || strings.Contains(out, "\n  epsilon ") {
		t.Errorf("describe oracle.enabled: %v\n%s", err, out)
	}
	if _, err = temple(t, "describe", "oracle.enabeld"); err == nil || !strings.Contains(err.Error(), `oracle has no key "enabeld"`) ||
		!strings.Contains(err.Error(), `did you mean "enabled"?`) {
		t.Errorf("describe oracle.enabeld: error %v, want the block's keys and a suggestion", err)
	}
	out, err = temple(t, "describe", "oracle")
	if err != nil || !strings.Contains(out, "\n  enabled ") || strings.Contains(out, "Agent types") {
		t.Errorf("describe oracle: %v\n%s", err, out)
	}
	_, err = temple(t, "describe", "frozenlak")
	if err == nil || !strings.Contains(err.Error(), `did you mean "frozenlake"?`) {
		t.Errorf("describe frozenlak: error %v, want a suggestion", err)
	}
}

// reproduce NAME --print writes the preset's spec as a config that reads back as the same spec.
func TestReproducePrintIsAConfig(t *testing.T) {
	for _, name := range []string{"online-maze", "tau-sweep", "discretized"} {
		out, err := temple(t, "reproduce", name, "--print")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		path := filepath.Join(t.TempDir(), "spec.yaml")
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := experiment.Load(path)
		if err != nil {
			t.Fatalf("%s --print does not read back: %v\n%s", name, err, out)
		}
		p, _ := presets.Lookup(name)
		want, _ := yaml.Marshal(p.Spec())
		got, _ := yaml.Marshal(s)
		if string(got) != string(want) {
			t.Errorf("%s --print read back as another spec:\n%s\nwant\n%s", name, got, want)
		}
	}
}

// A misspelt preset gets a suggestion, and the list of presets names deep too.
func TestMisspeltPresetSuggests(t *testing.T) {
	for name, want := range map[string]string{"onlin-maze": "online-maze", "dep": "deep", "tau-swep": "tau-sweep", "base-learner": "base-learners"} {
		_, err := temple(t, "reproduce", name)
		if err == nil || !strings.Contains(err.Error(), `did you mean "`+want+`"`) || !strings.Contains(err.Error(), ", deep;") {
			t.Errorf("reproduce %s: error %v, want a suggestion of %s and deep among the presets", name, err, want)
		}
	}
}
