package families

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/env/published"
	"github.com/temple-rl/temple/internal/suggest"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: File, Summary: "task sequences read from a file: a results directory's tasks.json, or the published ones of Figure 2",
		Defaults: defaultFile})
}

// File is the family of task sequences read from a file: a results directory's tasks.json, a
// sequence in a published layout, or a published sequence shipped with temple.
const File = "file"

// FileParams read each run's task sequence from a task-sequence file (ours, or one in a published
// layout) or from the published sequences shipped with temple ("published:NAME", env/published).
type FileParams struct {
	File  string `yaml:"file" doc:"path of a task-sequence file (a results directory's tasks.json), or published:NAME" range:"not empty"`
	Count int    `yaml:"count" doc:"number of tasks of each run kept, the first ones (0: every task)" range:">= 0"`
}

func defaultFile() Params { return &FileParams{} }

// open reads the task sequences of the file, or the published ones of published:NAME, through
// read.
func (p *FileParams) open(read Reader) (env.SequenceSet, error) {
	if name, ok := strings.CutPrefix(p.File, published.Prefix); ok {
		return published.Read(name)
	}
	data, err := read(p.File, env.MaxSequenceBytes)
	if err != nil {
		return env.SequenceSet{}, fmt.Errorf("env: read task sequences %s: %w", p.File, err)
	}
	return env.DecodeSequences(p.File, data)
}

// FromFile is the file family reading the task sequences of path, every task of every run; path
// "published:NAME" is a published sequence shipped with temple (env/published).
func FromFile(path string) Spec { return Spec{Family: File, Params: &FileParams{File: path}} }

func (p *FileParams) Validate() error {
	if p.File == "" {
		return fmt.Errorf("family %q needs file: PATH (or file: %sNAME, NAME one of %s)", File,
			published.Prefix, strings.Join(published.Names(), ", "))
	}
	if p.Count < 0 {
		return fmt.Errorf("count = %d, want at least 0 (0: every task)", p.Count)
	}
	if name, ok := strings.CutPrefix(p.File, published.Prefix); ok && !slices.Contains(published.Names(), name) {
		return fmt.Errorf("file = %q: no published task sequences %q; the published ones are %s%s", p.File, name,
			strings.Join(published.Names(), ", "), suggest.DidYouMean(name, published.Names()))
	}
	return nil
}

// Sequence reads run number run of the file. Goals the file does not store (the published
// varying-size sequences) are drawn from rng.
func (p *FileParams) Sequence(run int, rng *rand.Rand) (env.Sequence, error) {
	return p.sequenceFrom(ReadFile, run, rng)
}

func (p *FileParams) sequenceFrom(read Reader, run int, rng *rand.Rand) (env.Sequence, error) {
	set, err := p.open(read)
	if err != nil {
		return nil, err
	}
	if run >= len(set.Runs) {
		return nil, fmt.Errorf("file %s holds %d task sequences, but run %d needs one more", p.File, len(set.Runs), run)
	}
	seq := set.Runs[run]
	if p.Count > 0 {
		if p.Count > len(seq) {
			return nil, fmt.Errorf("count = %d, but run %d of %s has %d tasks", p.Count, run, p.File, len(seq))
		}
		seq = seq[:p.Count]
	}
	if seq.NeedsGoals() {
		seq = env.DrawGoals(rng, seq)
	}
	return seq, nil
}
