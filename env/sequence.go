package env

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/temple-rl/temple/internal/atomicfile"

	"github.com/temple-rl/temple/internal/regular"
)

// SequenceFormat is the value of the "format" key of a task-sequence file written by this
// package: every task is an object whose "family" key names its kind (Task.Kind).
const SequenceFormat = "temple-task-sequences/v2"

// sequenceFormatV1 is the first format, whose tasks were all mazes without a "family" key; it is
// still read.
const sequenceFormatV1 = "temple-task-sequences/v1"

// paperActions are the actions of the published experiments' mazes (docs/decisions.md, 19 and 20):
// the published task-sequence files do not store them, nor the rewards (PaperRewards), so the
// reader fills them in.
const paperActions = 4

// MarshalJSON writes a cell as the 2-element array [x, y].
func (c Cell) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, "[%d,%d]", c.X, c.Y), nil
}

// UnmarshalJSON reads a cell from the 2-element array [x, y] of integers; anything else
// (null, an object, a non-integer, another length) is an error.
func (c *Cell) UnmarshalJSON(b []byte) error {
	var xy []int
	if err := json.Unmarshal(b, &xy); err != nil || len(xy) != 2 {
		return fmt.Errorf("env: cell %s: want [x, y] with two integers", abbreviate(b))
	}
	c.X, c.Y = xy[0], xy[1]
	return nil
}

// abbreviate shortens raw JSON for error messages.
func abbreviate(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// NeedsGoals reports whether some maze of the sequence has no goal cell (the published
// varying-size sequences do not store goals; see DrawGoals).
func (s Sequence) NeedsGoals() bool {
	for _, t := range s {
		if m, ok := t.(Maze); ok && len(m.Goals) == 0 {
			return true
		}
	}
	return false
}

// DrawGoals returns a copy of seq in which every maze without a goal gets one goal drawn
// uniformly over its open (non-wall) cells; other tasks are copied unchanged (mazes deeply). It is
// used for the published varying-size sequences, whose goals were drawn at run time.
//
// Draw order: for each maze without a goal in turn, rng.IntN(number of open cells). A maze with
// no open cell or an invalid size, and every maze when rng is nil, is left without a goal (the
// result still NeedsGoals and fails later validation of the experiment).
func DrawGoals(rng *rand.Rand, seq Sequence) Sequence {
	out := make(Sequence, len(seq))
	for k, t := range seq {
		m, ok := t.(Maze)
		if !ok {
			out[k] = t
			continue
		}
		m = m.Clone()
		if len(m.Goals) == 0 && rng != nil {
			if open := openCells(&m); len(open) > 0 {
				m.Goals = []Cell{open[rng.IntN(len(open))]}
			}
		}
		out[k] = m
	}
	return out
}

// openCells lists the non-wall cells of m in index order (nil for an invalid size).
func openCells(m *Maze) []Cell {
	if m.Width < 1 || m.Height < 1 {
		return nil
	}
	walls := make(map[Cell]bool, len(m.Walls))
	for _, w := range m.Walls {
		walls[w] = true
	}
	var open []Cell
	for i := range m.Width * m.Height {
		if c := m.CellOf(i); !walls[c] {
			open = append(open, c)
		}
	}
	return open
}

// SequenceSet is one task sequence per run, as stored in a task-sequence file.
type SequenceSet struct {
	Format      string     `json:"format"` // SequenceFormat
	Description string     `json:"description,omitempty"`
	Runs        []Sequence `json:"runs"`
}

// check builds every task of the set; errors name the run and task, both 0-based.
func (set SequenceSet) check() error {
	if len(set.Runs) == 0 {
		return errors.New("no task sequences (runs is empty)")
	}
	for r, seq := range set.Runs {
		if len(seq) == 0 {
			return fmt.Errorf("run %d has no tasks", r)
		}
		for k, t := range seq {
			if t == nil {
				return fmt.Errorf("run %d, task %d: no task", r, k)
			}
			if err := validateTask(t); err != nil {
				return fmt.Errorf("run %d, task %d: %w", r, k, err)
			}
		}
	}
	return nil
}

// validateTask checks t without building its model where a cheaper check exists.
func validateTask(t Task) error {
	if m, ok := t.(Maze); ok {
		return m.Validate()
	}
	if s, ok := t.(Simulated); ok {
		_, err := s.Simulator()
		return err
	}
	_, err := t.Model()
	return err
}

// WriteSequences writes set to path as indented JSON, one task per line, creating the parent
// directories. The output depends only on set (same input, same bytes). An empty Format is written
// as SequenceFormat; any other format is an error, as is an invalid task. The file is written
// to a temporary name first and renamed, so a failed write leaves no partial file behind.
func WriteSequences(path string, set SequenceSet) error {
	data, err := EncodeSequences(set)
	if err != nil {
		return fmt.Errorf("env: write task sequences %s: %w", path, err)
	}
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("env: write task sequences %s: %w", path, err)
	}
	return nil
}

// EncodeSequences is the file WriteSequences writes of set, for a writer of its own (the results
// directory's tasks.json): an empty Format is encoded as SequenceFormat; any other format is an
// error, as is an invalid task.
func EncodeSequences(set SequenceSet) ([]byte, error) {
	if set.Format == "" {
		set.Format = SequenceFormat
	}
	if set.Format != SequenceFormat {
		return nil, fmt.Errorf("format = %q, want %q", set.Format, SequenceFormat)
	}
	if err := set.check(); err != nil {
		return nil, err
	}
	return encodeSequences(set)
}

// encodeSequences lays the set out as indented JSON with each task compact on its own line.
func encodeSequences(set SequenceSet) ([]byte, error) {
	var b bytes.Buffer
	str := func(s string) error {
		q, err := json.Marshal(s)
		b.Write(q)
		return err
	}
	b.WriteString("{\n  \"format\": ")
	if err := str(set.Format); err != nil {
		return nil, err
	}
	if set.Description != "" {
		b.WriteString(",\n  \"description\": ")
		if err := str(set.Description); err != nil {
			return nil, err
		}
	}
	b.WriteString(",\n  \"runs\": [")
	for r, seq := range set.Runs {
		if r > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    [")
		for k, t := range seq {
			if k > 0 {
				b.WriteString(",")
			}
			m, err := encodeTask(t)
			if err != nil {
				return nil, fmt.Errorf("run %d, task %d: %w", r, k, err)
			}
			b.WriteString("\n      ")
			b.Write(m)
		}
		b.WriteString("\n    ]")
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes(), nil
}

// ReadSequences reads a task-sequence file: either this package's format (key "format" =
// SequenceFormat, or the older all-maze "temple-task-sequences/v1"; unknown keys are errors) or
// one of the three layouts of the published sequences (env/published),
// recognised by their keys (all may carry a "description"):
//
//   - online maze {width, height, runs: [run][task][W·H slips]}: goal (W, H), lava (W/2, H/2);
//   - finite-model grid {width, height, slip, runs: [run][task][x, y]}: uniform slip, the task's
//     goal cell, no lava;
//   - varying size {runs: [run][task][n·n slips]}: n×n maze, no lava and no goal (the published
//     experiment drew goals at run time; see NeedsGoals and DrawGoals).
//
// Published tasks get step cost 0.2, goal reward 1, lava cost 1 and 4 actions (decision 19). The
// result always has Format = SequenceFormat. Every maze is validated; errors name the
// file and, for a bad maze, the run and task (both 0-based).
func ReadSequences(path string) (SequenceSet, error) {
	data, err := regular.ReadFile(path, MaxSequenceBytes)
	if err != nil {
		return SequenceSet{}, fmt.Errorf("env: read task sequences %s: %w", path, err)
	}
	return DecodeSequences(path, data)
}

// MaxSequenceBytes bounds a task-sequence file: 1 GiB. Only a regular file is read (a named pipe
// or a device is refused before it is read), and a larger one is refused before it is read.
const MaxSequenceBytes = 1 << 30

// DecodeSequences is ReadSequences of the content data of the file at path (read once by the
// caller, which hashes the same bytes): errors name the file.
func DecodeSequences(path string, data []byte) (SequenceSet, error) {
	set, err := ParseSequences(data)
	if err != nil {
		return SequenceSet{}, fmt.Errorf("env: read task sequences %s: %w", path, err)
	}
	return set, nil
}

// ParseSequences decodes the contents of a task-sequence file; see ReadSequences.
func ParseSequences(data []byte) (SequenceSet, error) {
	fail := func(err error) (SequenceSet, error) { return SequenceSet{}, err }
	var keys map[string]json.RawMessage
	var err error
	if err = json.Unmarshal(data, &keys); err != nil {
		return fail(fmt.Errorf("invalid JSON: %w", err))
	}
	var set SequenceSet
	switch layout := layoutOf(keys); layout {
	case "ours":
		set, err = decodeOurs(data)
	case "online":
		set, err = decodeOnline(data)
	case "finite-model":
		set, err = decodeFiniteModel(data)
	case "varying-size":
		set, err = decodeVaryingSize(data)
	default:
		err = fmt.Errorf("unknown layout with keys %s: want key \"format\" = %q or a published layout "+
			"(online maze, finite-model grid, varying size)", strings.Join(sortedKeys(keys), ", "), SequenceFormat)
	}
	if err != nil {
		return fail(err)
	}
	if err := set.check(); err != nil {
		return fail(err)
	}
	return set, nil
}

// layoutOf names the layout of a task-sequence file from its top-level keys, or "" if unknown.
func layoutOf(keys map[string]json.RawMessage) string {
	if _, ok := keys["format"]; ok {
		return "ours"
	}
	var rest []string
	for _, k := range sortedKeys(keys) {
		if k != "description" {
			rest = append(rest, k)
		}
	}
	switch strings.Join(rest, ",") {
	case "height,runs,width":
		return "online"
	case "height,runs,slip,width":
		return "finite-model"
	case "runs":
		return "varying-size"
	}
	return ""
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// decodeStrict decodes one JSON value into v, rejecting unknown keys and trailing data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

func decodeOurs(data []byte) (SequenceSet, error) {
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return SequenceSet{}, err
	}
	switch head.Format {
	case SequenceFormat:
		var set SequenceSet
		err := decodeStrict(data, &set)
		return set, err
	case sequenceFormatV1:
		var v1 struct {
			Format      string   `json:"format"`
			Description string   `json:"description"`
			Runs        [][]Maze `json:"runs"`
		}
		if err := decodeStrict(data, &v1); err != nil {
			return SequenceSet{}, err
		}
		set := SequenceSet{Format: SequenceFormat, Description: v1.Description}
		for _, run := range v1.Runs {
			set.Runs = append(set.Runs, Mazes(run...))
		}
		return set, nil
	}
	return SequenceSet{}, fmt.Errorf("format = %q, want %q or %q", head.Format, SequenceFormat, sequenceFormatV1)
}

// publishedMaze is a published-layout maze with the experiment constants filled in.
func publishedMaze(width, height int, slip []float64, goals, lava []Cell) Maze {
	return Maze{Width: width, Height: height, Slip: slip, Goals: goals, Lava: lava, Actions: paperActions}.WithRewards(PaperRewards)
}

// decodeOnline reads the online-maze layout (the published online-maze sequences): goal (W, H) and lava
// (W/2, H/2) are fixed by the experiment runner.
func decodeOnline(data []byte) (SequenceSet, error) {
	var raw struct {
		Description string        `json:"description"`
		Width       int           `json:"width"`
		Height      int           `json:"height"`
		Runs        [][][]float64 `json:"runs"`
	}
	if err := decodeStrict(data, &raw); err != nil {
		return SequenceSet{}, err
	}
	set := SequenceSet{Format: SequenceFormat, Description: raw.Description}
	goal := Cell{raw.Width, raw.Height}
	lava := Cell{raw.Width / 2, raw.Height / 2}
	for _, run := range raw.Runs {
		seq := make(Sequence, len(run))
		for k, slip := range run {
			seq[k] = publishedMaze(raw.Width, raw.Height, slip, []Cell{goal}, []Cell{lava})
		}
		set.Runs = append(set.Runs, seq)
	}
	return set, nil
}

// decodeFiniteModel reads the finite-model grid layout (the published finite-model sequences): each task is
// its goal cell; the slip is the same in every cell; no lava (grid_runner).
func decodeFiniteModel(data []byte) (SequenceSet, error) {
	var raw struct {
		Description string              `json:"description"`
		Width       int                 `json:"width"`
		Height      int                 `json:"height"`
		Slip        float64             `json:"slip"`
		Runs        [][]json.RawMessage `json:"runs"`
	}
	if err := decodeStrict(data, &raw); err != nil {
		return SequenceSet{}, err
	}
	if raw.Width < 1 || raw.Height < 1 {
		return SequenceSet{}, fmt.Errorf("width %d and height %d must both be at least 1", raw.Width, raw.Height)
	}
	set := SequenceSet{Format: SequenceFormat, Description: raw.Description}
	for r, run := range raw.Runs {
		seq := make(Sequence, len(run))
		for k, g := range run {
			var goal Cell
			if err := json.Unmarshal(g, &goal); err != nil {
				return SequenceSet{}, fmt.Errorf("run %d, task %d: %w", r, k, err)
			}
			seq[k] = publishedMaze(raw.Width, raw.Height, UniformSlip(raw.Width*raw.Height, raw.Slip), []Cell{goal}, nil)
		}
		set.Runs = append(set.Runs, seq)
	}
	return set, nil
}

// decodeVaryingSize reads the varying-size layout (the published varying-size sequences): a task of n·n
// slips is an n×n maze without lava; its goal is not stored.
func decodeVaryingSize(data []byte) (SequenceSet, error) {
	var raw struct {
		Description string        `json:"description"`
		Runs        [][][]float64 `json:"runs"`
	}
	if err := decodeStrict(data, &raw); err != nil {
		return SequenceSet{}, err
	}
	set := SequenceSet{Format: SequenceFormat, Description: raw.Description}
	for r, run := range raw.Runs {
		seq := make(Sequence, len(run))
		for k, slip := range run {
			n := int(math.Round(math.Sqrt(float64(len(slip)))))
			if len(slip) == 0 || n*n != len(slip) {
				return SequenceSet{}, fmt.Errorf("run %d, task %d: %d slip probabilities, want a square number n·n", r, k, len(slip))
			}
			seq[k] = publishedMaze(n, n, slip, nil, nil)
		}
		set.Runs = append(set.Runs, seq)
	}
	return set, nil
}

// UniformSlip is n copies of p.
func UniformSlip(n int, p float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = p
	}
	return s
}
