package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/temple-rl/temple/internal/regular"
)

// A cell file (cells/<CellName>.json) is a CellResult as JSON with a checksum of its content:
// the SHA-256 of the cell's JSON encoding without the checksum. A reader checks it and the cell
// against what the experiment says the cell must be (CellWant) before using it, so a file cut
// short and rewritten, edited, or changed on disk is never taken for a finished cell.

// CellWant is what the cell of one run and agent of an experiment must be.
type CellWant struct {
	Fingerprint string // of the experiment's spec.yaml (Fingerprint)
	Run         int
	Agent       string
	Tasks       int // the run's number of tasks
	Episodes    int // episodes per task: the length of EpisodeSums
	// Oracle: every task carries its oracle record; PolicyMistakes: every oracle record its
	// policy ε-mistakes (oracle.enabled, oracle.policy_mistakes).
	Oracle, PolicyMistakes bool
}

// DamagedError is a file of a results directory that cannot be used as it is: Problem says why.
type DamagedError struct{ Path, Problem string }

func (e *DamagedError) Error() string { return e.Path + ": " + e.Problem }

// EncodeCell is the content of the cell file of c: its JSON with its checksum.
func EncodeCell(c CellResult) ([]byte, error) {
	sum, err := cellChecksum(c)
	if err != nil {
		return nil, err
	}
	c.Checksum = sum
	return json.Marshal(c)
}

// cellChecksum is the SHA-256, in hex, of the JSON of c without its checksum.
func cellChecksum(c CellResult) (string, error) {
	c.Checksum = ""
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("results: encoding the cell of run %d, agent %s: %w", c.Run, c.Agent, err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// ReadCell reads the cell file path and checks it against want: an error that wraps
// fs.ErrNotExist when there is none, a *DamagedError that says what is wrong when it is not the
// finished cell want describes.
func ReadCell(path string, want CellWant) (CellResult, error) {
	f, fi, err := regular.Open(path)
	var notRegular *regular.NotRegularError
	if errors.As(err, &notRegular) {
		return CellResult{}, &DamagedError{Path: path, Problem: fmt.Sprintf("%s, not a file: remove it, and the cell runs again", regular.Kind(notRegular.Mode))}
	}
	if err != nil {
		return CellResult{}, fmt.Errorf("results: %w", err)
	}
	defer f.Close()
	// A file far larger than the cell can be (a file copied over it) is not read into memory.
	if most := maxCellBytes(want); fi.Size() > most {
		return CellResult{}, &DamagedError{Path: path, Problem: fmt.Sprintf("%d bytes, more than a cell of %d tasks and %d episodes can take (%d)",
			fi.Size(), want.Tasks, want.Episodes, most)}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxCellBytes(want)+1))
	if err != nil {
		return CellResult{}, fmt.Errorf("results: %w", err)
	}
	c, problem := DecodeCell(b, want)
	if problem != "" {
		return CellResult{}, &DamagedError{Path: path, Problem: problem}
	}
	return c, nil
}

// maxCellBytes bounds the size of the file of a cell want describes: a megabyte, 32 bytes an
// episode sum and 64 KB a task record (with its metrics and oracle record, far less in practice).
func maxCellBytes(want CellWant) int64 {
	return 1<<20 + 32*int64(want.Episodes) + 64<<10*int64(want.Tasks)
}

// cellFields and taskFields are the fields every cell and every task record of it has.
var (
	cellFields = []string{"fingerprint", "run", "agent", "tasks", "episode_sums", "checksum"}
	taskFields = []string{"task", "reward", "steps", "states", "actions", "start"}
)

// DecodeCell decodes the content of a cell file and checks it against want; problem says what is
// wrong ("" when nothing is).
func DecodeCell(b []byte, want CellWant) (c CellResult, problem string) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return CellResult{}, fmt.Sprintf("not a cell's JSON (%v)", err)
	}
	for _, f := range cellFields {
		if _, ok := fields[f]; !ok {
			return CellResult{}, fmt.Sprintf("it has no field %q", f)
		}
	}
	var tasks []map[string]json.RawMessage
	if err := json.Unmarshal(fields["tasks"], &tasks); err != nil {
		return CellResult{}, fmt.Sprintf("its tasks are not a list of records (%v)", err)
	}
	for k, t := range tasks {
		for _, f := range taskFields {
			if _, ok := t[f]; !ok {
				return CellResult{}, fmt.Sprintf("task %d has no field %q", k, f)
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return CellResult{}, fmt.Sprintf("not a cell's JSON (%v)", err)
	}
	if sum, err := cellChecksum(c); err != nil || sum != c.Checksum {
		return CellResult{}, "its checksum does not match its content: it was changed after it was written"
	}
	switch {
	case c.Fingerprint != want.Fingerprint:
		return CellResult{}, fmt.Sprintf("it is of another spec (fingerprint %.12s…, this experiment's is %.12s…)", c.Fingerprint, want.Fingerprint)
	case c.Run != want.Run || c.Agent != want.Agent:
		return CellResult{}, fmt.Sprintf("it holds run %d of agent %q, not run %d of agent %q", c.Run, c.Agent, want.Run, want.Agent)
	case len(c.Tasks) != want.Tasks:
		return CellResult{}, fmt.Sprintf("it holds %d tasks, the run has %d", len(c.Tasks), want.Tasks)
	case len(c.EpisodeSums) != want.Episodes:
		return CellResult{}, fmt.Sprintf("it holds %d episode sums, the experiment has %d episodes per task", len(c.EpisodeSums), want.Episodes)
	}
	for k, t := range c.Tasks {
		switch {
		case t.Task != k:
			return CellResult{}, fmt.Sprintf("its task %d is numbered %d", k, t.Task)
		case t.Steps < 0 || t.States < 1 || t.Actions < 1 || t.Start < -1 || t.Start >= t.States:
			return CellResult{}, fmt.Sprintf("task %d: %d steps, %d states, %d actions, start %d", k, t.Steps, t.States, t.Actions, t.Start)
		case want.Oracle && t.Oracle == nil:
			return CellResult{}, fmt.Sprintf("task %d has no oracle record", k)
		case want.Oracle && want.PolicyMistakes && t.Oracle.PolicyMistakes == nil:
			return CellResult{}, fmt.Sprintf("task %d's oracle record has no policy ε-mistakes", k)
		case t.Oracle != nil && !want.PolicyMistakes && t.Oracle.PolicyMistakes != nil:
			return CellResult{}, fmt.Sprintf("task %d's oracle record has policy ε-mistakes, which this experiment does not measure", k)
		}
	}
	return c, ""
}
