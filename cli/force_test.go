package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 51, case 2, as the issue ran it: a user's files in p/figures and p/templates; temple run
// --out p is refused without --force, naming them; with it, the run goes on, and neither it nor a
// second --force (another spec) removes them or records them as temple's; what the record lists
// is removed and written again.
func TestForceKeepsTheUsersFiles(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(config, []byte("name: tiny\nruns: 2\nepisodes: 20\ntasks:\n  count: 2\noutput:\n  templates: true\n"), 0o644)
	p := filepath.Join(dir, "p")
	mine := map[string]string{filepath.Join(p, "figures", "mine.svg"): "<svg/>", filepath.Join(p, "templates", "notes.txt"): "mine"}
	for path, content := range mine {
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(content), 0o644)
	}
	if _, err := temple(t, "run", config, "--out", p); err == nil || !strings.Contains(err.Error(), "figures, templates, which temple did not write") {
		t.Errorf("a directory of the user's files without --force: %v, want a refusal naming them", err)
	}
	for _, seed := range []string{"1", "2"} {
		text, err := temple(t, "run", config, "--out", p, "--force", "--seed", seed)
		if err != nil {
			t.Fatalf("--force, seed %s: %v\n%s", seed, err, text)
		}
		for path, content := range mine {
			if b, err := os.ReadFile(path); err != nil || string(b) != content {
				t.Errorf("--force, seed %s: %s holds %q (%v)", seed, path, b, err)
			}
		}
		record, _ := os.ReadFile(filepath.Join(p, "checksums.json"))
		if strings.Contains(string(record), "mine.svg") || strings.Contains(string(record), "notes.txt") {
			t.Errorf("--force, seed %s: checksums.json lists the user's files as temple's", seed)
		}
	}
	if text, err := temple(t, "compare", p); err != nil {
		t.Errorf("compare: %v\n%s", err, text)
	}
}
