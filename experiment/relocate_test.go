package experiment

import (
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/families"
)

// TestARelocatedSpecReadsItsInputsFromItsDirectory: a config written into another directory (a
// tuned config) names its task file and its learner's directory relative to that directory, so
// that Load there reads the same files.
func TestARelocatedSpecReadsItsInputsFromItsDirectory(t *testing.T) {
	work := t.TempDir()
	mdp, err := os.ReadFile("../examples/custom-mdp/inventory.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(work, "cfg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "cfg", "inventory.json"), mdp, 0o644); err != nil {
		t.Fatal(err)
	}
	config := "name: x\ntasks: {family: custom, file: inventory.json}\n" +
		"agents: [{type: python, name: Mine, class: 'mine:Mine'}, {type: rmax}]\n"
	if err := os.WriteFile(filepath.Join(work, "cfg", "x.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	s, err := Load(filepath.Join("cfg", "x.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("runs", "tuning")
	moved, err := s.Relocated(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := moved.Tasks.Params.(*families.CustomParams).File; got != filepath.Join("..", "..", "cfg", "inventory.json") {
		t.Errorf("task file %q", got)
	}
	if got := moved.Agents[0].Params.(*agenttypes.Python).Path; got != filepath.Join("..", "..", "cfg") {
		t.Errorf("learner's directory %q", got)
	}
	if s.Tasks.Params.(*families.CustomParams).File != filepath.Join("cfg", "inventory.json") {
		t.Error("Relocated changed the original")
	}
	b, err := yaml.Marshal(moved)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "tuned.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Load(filepath.Join(out, "tuned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := filepath.Clean(back.Tasks.Params.(*families.CustomParams).File); got != filepath.Join("cfg", "inventory.json") {
		t.Errorf("read back from %s, the task file is %q", out, got)
	}
}
