package results

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/temple-rl/temple/internal/atomicfile"
)

// MakeCellDirs creates dir's cells/ and, when they are written, its episodes/ and templates/.
func MakeCellDirs(dir Dir, episodes, templates bool) error {
	for _, kind := range CellKinds {
		if kind == EpisodesDir && !episodes || kind == TemplatesDir && !templates {
			continue
		}
		if err := os.MkdirAll(dir.Path(kind), 0o755); err != nil {
			return fmt.Errorf("results: %w", err)
		}
	}
	return nil
}

// WriteCell writes the finished cell c to dir/cells (Dir.Cell) atomically, with its checksum
// (EncodeCell), so an interrupted write never looks like a finished cell (ReadCell reads it back
// and checks it).
func WriteCell(dir Dir, c CellResult) error {
	if err := StoreCell(dir, c); err != nil {
		return err
	}
	return RecordCell(dir, c)
}

// StoreCell is WriteCell without the record: for a process that runs a cell for the runner that
// holds the directory (a Python learner's worker), which records it once it has read it back
// (RecordCell), so that one process alone writes the directory's checksums.json.
func StoreCell(dir Dir, c CellResult) error {
	b, err := EncodeCell(c)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(dir.Cell(c.Run, c.Agent), b); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// RecordCell adds the cell c of dir, and its episodes/ and templates/ files (closed before it was
// written), to dir's checksums.json.
func RecordCell(dir Dir, c CellResult) error {
	return record(dir, append([]string{cellFile(c.Run, c.Agent)}, cellStreams(dir, []CellResult{c})...)...)
}

// RecordResumed adds the cell c of dir, read back to resume an experiment, to dir's
// checksums.json when its record lacks it: a process killed between storing a cell and recording
// it left it finished (its own checksum says so) but off the record.
func RecordResumed(dir Dir, c CellResult) error {
	cell := cellFile(c.Run, c.Agent)
	sums, err := readChecksums(dir)
	if err == nil && sums.lists(cell) {
		return nil
	}
	return RecordCell(dir, c)
}

// cellStreams are the episodes/ and templates/ files of the cells that dir holds.
func cellStreams(dir Dir, cells []CellResult) []string {
	var out []string
	for _, c := range cells {
		for _, stream := range []string{episodesFile(c.Run, c.Agent), templatesFile(c.Run, c.Agent)} {
			if fi, err := os.Lstat(dir.Path(stream)); err == nil && fi.Mode().IsRegular() {
				out = append(out, stream)
			}
		}
	}
	return out
}

// WriteTasks writes the task sequences of an experiment, as encoded by the task package
// (env.EncodeSequences), to dir/tasks.json atomically.
func WriteTasks(dir Dir, encoded []byte) error {
	if err := atomicfile.Write(dir.Path(TasksFile), encoded); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return record(dir, TasksFile)
}

// EpisodeWriter streams one cell's episode returns to episodes/<CellName>.csv as they happen —
// a line per task: the task number, then the return of every episode — so no run holds them in
// memory.
type EpisodeWriter struct {
	path string
	f    *os.File
	w    *bufio.Writer
	line []byte
}

// CreateEpisodes creates the episodes/ file of the cell of run and agentName in dir, for tasks
// of the given number of episodes, and writes its header.
func CreateEpisodes(dir Dir, run int, agentName string, episodes int) (*EpisodeWriter, error) {
	path := dir.Path(episodesFile(run, agentName))
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	w := &EpisodeWriter{path: path, f: f, w: bufio.NewWriterSize(f, 1<<16)}
	w.w.WriteString("task")
	for e := 1; e <= episodes; e++ {
		w.w.WriteString(",e" + strconv.Itoa(e))
	}
	w.w.WriteByte('\n')
	return w, nil
}

// Add adds the return of the task's next episode.
func (w *EpisodeWriter) Add(ret float64) {
	w.line = append(w.line, ',')
	w.line = strconv.AppendFloat(w.line, ret, 'g', -1, 64)
}

// EndTask writes the line of task, the returns added since the last line.
func (w *EpisodeWriter) EndTask(task int) error {
	w.w.WriteString(strconv.Itoa(task))
	w.w.Write(w.line)
	w.line = w.line[:0]
	if err := w.w.WriteByte('\n'); err != nil {
		return fmt.Errorf("results: writing %s: %w", w.path, err)
	}
	return nil
}

// Close flushes and closes the file.
func (w *EpisodeWriter) Close() error {
	if err := w.w.Flush(); err != nil {
		w.f.Close()
		return fmt.Errorf("results: writing %s: %w", w.path, err)
	}
	return w.f.Close()
}

// TemplateWriter writes one cell's templates/<CellName>.jsonl: a TaskSnapshot a line, after every
// task (ReadSnapshots reads it back).
type TemplateWriter struct {
	path string
	f    *os.File
	enc  *json.Encoder
}

// CreateTemplates creates the templates/ file of the cell of run and agentName in dir.
func CreateTemplates(dir Dir, run int, agentName string) (*TemplateWriter, error) {
	path := dir.Path(templatesFile(run, agentName))
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return &TemplateWriter{path: path, f: f, enc: json.NewEncoder(f)}, nil
}

// Write writes the snapshot of one task as a line.
func (w *TemplateWriter) Write(s TaskSnapshot) error {
	if err := w.enc.Encode(s); err != nil {
		return fmt.Errorf("results: writing %s: %w", w.path, err)
	}
	return nil
}

// Close closes the file.
func (w *TemplateWriter) Close() error { return w.f.Close() }
