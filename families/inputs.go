package families

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/env/custom"
	"github.com/temple-rl/temple/env/published"
	"github.com/temple-rl/temple/internal/regular"
	"github.com/temple-rl/temple/stream"
)

// Families whose tasks are read from files (custom, file, and a mixed family's parts) read them
// through a Reader, so that a runner can read each file once and build every run's tasks from the
// bytes it hashed (a file replaced while an experiment starts would otherwise give runs of two
// contents under one recorded digest).

// Reader gives the content of the file at path, a regular file of at most most bytes.
type Reader func(path string, most int64) ([]byte, error)

// ReadFile is the Reader of the file system: each call reads the file (regular.ReadFile).
func ReadFile(path string, most int64) ([]byte, error) { return regular.ReadFile(path, most) }

// Input is a file a family's tasks read, with the most bytes it may hold, and the key of the
// tasks: block that names it (file, parts[1].file), for messages.
type Input struct {
	Path     string
	MaxBytes int64
	Key      string
}

// reading is implemented by the parameters of families whose tasks are read from files.
type reading interface {
	// inputs lists the files, published sequences (published:NAME) left out.
	inputs() []Input
	// sequenceFrom is Sequence with the files read through read.
	sequenceFrom(read Reader, run int, rng *rand.Rand) (env.Sequence, error)
}

// Inputs lists the files the tasks of s read, in order (a custom MDP file, a task-sequence file,
// those of a mixed family's parts); the published sequences shipped with temple are not files.
func (s Spec) Inputs() []Input {
	if r, ok := s.Params.(reading); ok {
		return r.inputs()
	}
	return nil
}

// DrawFrom is Draw with every file the tasks read read through read.
func (s Spec) DrawFrom(read Reader, seed uint64, run int) (env.Sequence, error) {
	rng := stream.New(seed, run, "", 0, stream.Sequence)
	if r, ok := s.Params.(reading); ok {
		return r.sequenceFrom(read, run, rng)
	}
	return s.Params.Sequence(run, rng)
}

func (p *CustomParams) inputs() []Input {
	return []Input{{Path: p.File, MaxBytes: custom.MaxBytes(p.File), Key: "file"}}
}

func (p *FileParams) inputs() []Input {
	if strings.HasPrefix(p.File, published.Prefix) {
		return nil
	}
	return []Input{{Path: p.File, MaxBytes: env.MaxSequenceBytes, Key: "file"}}
}

func (p *MixedParams) inputs() []Input {
	var out []Input
	for k, part := range p.Parts {
		for _, in := range part.Inputs() {
			in.Key = fmt.Sprintf("parts[%d].%s", k, in.Key)
			out = append(out, in)
		}
	}
	return out
}
