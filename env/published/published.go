// Package published ships the task sequences of the paper's published experiments inside the
// binary, so that a clone of this repository reproduces them on exactly the published tasks with
// nothing else on the machine. Each is named by the base name of its file:
//
//   - online-maze-4x4: Figure 2 "Online MTRL", 30 sequences of 100 4×4 mazes (per-cell slips;
//     goal (4,4) and lava (2,2) fixed);
//   - finite-model-grid-4x4: Figure 2 "Finite-Model MTRL", 30 sequences of 50 4×4 grids with slip
//     0.4, each task its goal cell (two goals per sequence);
//   - varying-size-20 and varying-size-80: Figure 2 "Varying-sized MTRL", 30 sequences of 20 or
//     80 mazes in equal blocks of 3×3, 4×4, 5×5 and 6×6 (goals were drawn at run time and are not
//     stored; the reader draws them from the run's stream).
//
// The command line and a config's file family take them as "published:NAME".
package published

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	"github.com/temple-rl/temple/env"
)

//go:embed data/*.json
var files embed.FS

// Prefix marks a published sequence where a task-sequence file path is expected.
const Prefix = "published:"

// Names lists the published task sequences, sorted.
func Names() []string {
	entries, err := files.ReadDir("data")
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	slices.Sort(names)
	return names
}

// Read parses the published task sequences called name (see Names) with env.ParseSequences.
func Read(name string) (env.SequenceSet, error) {
	data, err := files.ReadFile("data/" + name + ".json")
	if err != nil {
		return env.SequenceSet{}, fmt.Errorf("published: no task sequences %q; the published ones are %s",
			name, strings.Join(Names(), ", "))
	}
	set, err := env.ParseSequences(data)
	if err != nil {
		return env.SequenceSet{}, fmt.Errorf("published: %s: %w", name, err)
	}
	return set, nil
}

// Open reads the task sequences at path: a published one if path is "published:NAME", the file
// at path otherwise (env.ReadSequences).
func Open(path string) (env.SequenceSet, error) {
	if name, ok := strings.CutPrefix(path, Prefix); ok {
		return Read(name)
	}
	return env.ReadSequences(path)
}
