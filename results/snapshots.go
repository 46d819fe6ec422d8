package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/temple-rl/temple/template"
)

// TaskSnapshot is one line of a templates/ file: an agent's templates at the end of a task.
type TaskSnapshot struct {
	Task int `json:"task"`
	template.Snapshot
}

// ReadSnapshots reads the templates/ file of one run and agent of a results directory (written
// with output.templates by TemplateWriter); a damaged one is refused with a *DamagedError.
func ReadSnapshots(dir Dir, run int, agentName string) ([]TaskSnapshot, error) {
	name := templatesFile(run, agentName)
	path := dir.Path(name)
	b, err := readVerified(dir, name, maxTableBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w (run the experiment with output.templates: true)", err)
	}
	if err != nil {
		return nil, err
	}
	return ParseSnapshots(path, b)
}

// ParseSnapshots is ReadSnapshots of the content b of the templates/ file at path: a snapshot a
// line, tasks in increasing order, each template with its visits in increasing rank order and
// at least one, each pair's template an ID or −1.
func ParseSnapshots(path string, b []byte) ([]TaskSnapshot, error) {
	var out []TaskSnapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	for line := 1; dec.More(); line++ {
		bad := func(format string, a ...any) ([]TaskSnapshot, error) {
			return nil, &DamagedError{Path: path, Problem: fmt.Sprintf("snapshot %d: ", line) + fmt.Sprintf(format, a...)}
		}
		var s TaskSnapshot
		if err := dec.Decode(&s); err != nil {
			return bad("not a snapshot's JSON (%v)", err)
		}
		if s.Task < 0 || len(out) > 0 && s.Task <= out[len(out)-1].Task {
			return bad("task %d, want tasks numbered from 0 in increasing order", s.Task)
		}
		for _, id := range s.Pairs {
			if id < -1 {
				return bad("a pair's template is %d, want an ID or -1", id)
			}
		}
		for _, tm := range s.Library {
			if tm.N() < 1 {
				return bad("template %d holds no sample", tm.ID)
			}
			for j, v := range tm.Visits {
				if v.N < 0 || v.Rank < 0 || j > 0 && v.Rank <= tm.Visits[j-1].Rank {
					return bad("template %d: visits %v, want ranks in increasing order with counts >= 0", tm.ID, tm.Visits)
				}
			}
		}
		out = append(out, s)
	}
	return out, nil
}
