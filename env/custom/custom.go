// Package custom reads and writes a user's own tabular MDPs: a file of one or more tasks (an
// inventory model, a queue, a game), each a complete model with named or numbered states and
// actions, a start distribution, optional terminal states and every transition spelt out. The
// same structure is accepted in JSON and in YAML; FORMAT.md is the full reference.
//
// A file in brief (JSON; the YAML form has the same keys):
//
//	{
//	  "format": "temple-mdp/v1",
//	  "description": "free text, ignored by the reader",
//	  "tasks": [
//	    {
//	      "name": "two-states",
//	      "states": ["home", "away"],           // or a count: 2 (states are then 0, 1, ...)
//	      "actions": ["stay", "go"],            // or a count
//	      "start": {"home": 1},                 // or a single state: "home" (or 0)
//	      "terminal": [],                       // optional: states where an episode ends
//	      "transitions": [
//	        {"state": "home", "action": "stay", "outcomes": [{"next": "home", "p": 1, "r": 0}]},
//	        ...                                 // every non-terminal (state, action) pair, once
//	      ]
//	    }
//	  ]
//	}
//
// The reader is strict, because a model that is silently different from the one the user meant
// makes every later result wrong: unknown or duplicate keys, a wrong format tag, a missing or
// duplicated (state, action) pair, an outcome naming a state that does not exist, a next state
// listed twice in one row, a negative or non-finite probability, a non-finite reward and
// probabilities that do not sum to 1 (within 1e-9) are all errors, and each error names the task
// (index and name), the state, the action and the value. Nothing has a default except the
// optional "terminal" (no terminal state) and "description" (none).
//
// Read and Parse accept either syntax; Write writes JSON that Read reads back into identical
// models, byte for byte the same for the same tasks.
//
// A file is read whole into memory, so its size and the model it declares are bounded before
// anything proportional to a declared count is allocated: see MaxFileBytes, MaxYAMLBytes,
// MaxStates, MaxActions, MaxPairs and MaxOutcomes.
package custom

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/temple-rl/temple/internal/regular"
	"github.com/temple-rl/temple/mdp"
)

// Format is the value of the "format" key of every file this package reads and writes.
const Format = "temple-mdp/v1"

// Limits on a file and on the models it declares. A file over one of them is rejected with an
// error that names the limit; no limit is checked after allocating memory proportional to the
// count it bounds.
const (
	// MaxFileBytes bounds a JSON file: 256 MiB. Reading one takes about 10 times its size in
	// memory at the peak (measured on a file of 60 000 states), so about 2.5 GiB at the limit.
	MaxFileBytes = 256 << 20
	// MaxYAMLBytes bounds a YAML file: 16 MiB. The YAML parser builds a node per value, so
	// reading takes about 60 times the text in memory (1 GiB at the limit) and about 10 times as
	// long as the same model in JSON (BenchmarkParse): big models belong in JSON.
	MaxYAMLBytes = 16 << 20
	// MaxStates bounds the states of one task.
	MaxStates = 10_000_000
	// MaxActions bounds the actions of one task.
	MaxActions = 1024
	// MaxPairs bounds the (state, action) pairs of a file, summed over its tasks; terminal states
	// count too, since the model stores their absorbing rows.
	MaxPairs = 10_000_000
	// MaxOutcomes bounds the outcomes listed in a file, summed over its tasks.
	MaxOutcomes = 20_000_000
)

// Task is one MDP of a file: its name, its model and the names of its states and actions (nil
// when the file numbers them instead).
type Task struct {
	Name        string
	Model       *mdp.Model
	StateNames  []string
	ActionNames []string
}

// Read reads the tasks of a file; its extension (.json, .yaml or .yml) chooses the syntax.
// Errors name the file.
func Read(path string) ([]Task, error) {
	fail := func(err error) ([]Task, error) { return nil, fmt.Errorf("custom: read %s: %w", path, err) }
	format, err := formatOf(path)
	if err != nil {
		return fail(err)
	}
	data, err := readLimited(path, sizeLimit(format))
	if err != nil {
		return fail(err)
	}
	return Decode(path, data)
}

// MaxBytes is the most a file of path's syntax may hold: MaxYAMLBytes for .yaml and .yml,
// MaxFileBytes otherwise.
func MaxBytes(path string) int64 {
	format, _ := formatOf(path)
	return sizeLimit(format)
}

// Decode is Read of the content data of the file at path (read once by the caller, which hashes
// the same bytes): its extension chooses the syntax, and errors name the file.
func Decode(path string, data []byte) ([]Task, error) {
	fail := func(err error) ([]Task, error) { return nil, fmt.Errorf("custom: read %s: %w", path, err) }
	format, err := formatOf(path)
	if err != nil {
		return fail(err)
	}
	tasks, err := parse(data, format)
	if err != nil {
		return fail(err)
	}
	return tasks, nil
}

// formatOf is the syntax of a file named path, from its extension.
func formatOf(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".json":
		return "json", nil
	case ".yaml", ".yml":
		return "yaml", nil
	default:
		return "", fmt.Errorf("extension %q, want .json, .yaml or .yml", ext)
	}
}

func sizeLimit(format string) int64 {
	if format == "yaml" {
		return MaxYAMLBytes
	}
	return MaxFileBytes
}

// readLimited reads the regular file at path if it holds at most limit bytes: a named pipe, a
// device or a directory is refused before it is read, and so is a larger file (its size is
// checked first).
func readLimited(path string, limit int64) ([]byte, error) {
	data, err := regular.ReadFile(path, limit)
	var large *regular.TooLargeError
	if errors.As(err, &large) {
		return nil, sizeError(limit)
	}
	return data, err
}

func sizeError(limit int64) error {
	name := "MaxFileBytes"
	if limit == MaxYAMLBytes {
		name = "MaxYAMLBytes, for YAML; JSON allows more"
	}
	return fmt.Errorf("file is larger than the limit of %d MiB (%s)", limit>>20, name)
}

// Parse reads tasks from the text of a file; format is "json" or "yaml".
func Parse(data []byte, format string) ([]Task, error) {
	tasks, err := parse(data, format)
	if err != nil {
		return nil, fmt.Errorf("custom: %w", err)
	}
	return tasks, nil
}

func parse(data []byte, format string) ([]Task, error) {
	if format != "json" && format != "yaml" {
		return nil, fmt.Errorf("format %q, want \"json\" or \"yaml\"", format)
	}
	if limit := sizeLimit(format); int64(len(data)) > limit {
		return nil, sizeError(limit)
	}
	data, err := checkText(data)
	if err != nil {
		return nil, err
	}
	var doc fileDoc
	if format == "json" {
		err = decodeJSON(data, &doc)
	} else {
		err = decodeYAML(data, &doc)
	}
	if err != nil {
		return nil, err
	}
	return build(&doc)
}

// checkText rejects what is not a text file before a parser sees it, so a binary file gets a
// plain error rather than a syntax error at its first odd byte. A leading UTF-8 byte-order mark
// (written by some Windows editors) is dropped.
func checkText(data []byte) ([]byte, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty file")
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, fmt.Errorf("NUL byte at %s: a binary file, not JSON or YAML text", position(data, i))
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return nil, fmt.Errorf("invalid UTF-8 at %s: a binary file or another text encoding; save it as UTF-8", position(data, i))
	}
	return data, nil
}

// position is "line L, column C" (both from 1; the column counts bytes) of byte offset off.
func position(data []byte, off int) string {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}
