package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/temple-rl/temple/template"
)

// TaskSnapshot is one line of a templates/ file: an agent's templates at the end of a task.
type TaskSnapshot struct {
	Task int `json:"task"`
	template.Snapshot
}

// ReadSnapshots reads the templates/ file of one run and agent of a results directory (written
// with output.templates by TemplateWriter).
func ReadSnapshots(dir string, run int, agentName string) ([]TaskSnapshot, error) {
	path := filepath.Join(dir, "templates", CellName(run, agentName)+".jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w (run the experiment with output.templates: true)", err)
	}
	var out []TaskSnapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var s TaskSnapshot
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("results: %s: %w", path, err)
		}
		out = append(out, s)
	}
	return out, nil
}
