package families

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

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

// ReadOnce is a store of the files a runner's tasks read: each is read once, when first asked
// for, and its bytes and their SHA-256 kept for the store's life, so that every run's tasks and
// every point of a sweep are built from the bytes whose digest the runner recorded. Its zero value
// is an empty store; it is safe for concurrent use.
type ReadOnce struct {
	mu    sync.Mutex
	files map[string]readFile
	// AfterRead, when not nil, is called after a file is read (a test changes the file there).
	AfterRead func(path string)
}

// readFile is one file's content as read, or the error of reading it.
type readFile struct {
	data   []byte
	digest string
	err    error
}

// Read is the store's Reader: the file's content as first read (a file over most bytes is
// refused).
func (r *ReadOnce) Read(path string, most int64) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.files[path]
	if !ok {
		f.data, f.err = ReadFile(path, most)
		if f.err == nil {
			sum := sha256.Sum256(f.data)
			f.digest = hex.EncodeToString(sum[:])
		}
		if r.files == nil {
			r.files = map[string]readFile{}
		}
		r.files[path] = f
		if r.AfterRead != nil {
			r.AfterRead(path)
		}
	}
	if f.err == nil && int64(len(f.data)) > most {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d such a file may hold", path, len(f.data), most)
	}
	return f.data, f.err
}

// Digest is the SHA-256, in hex, of the input's file as the store holds it (read now if it was
// not).
func (r *ReadOnce) Digest(input Input) (string, error) {
	if _, err := r.Read(input.Path, input.MaxBytes); err != nil {
		return "", err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.files[input.Path].digest, nil
}
