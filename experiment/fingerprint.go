package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env/published"
	"github.com/temple-rl/temple/families"
)

// An experiment's identity is its resolved spec (spec.yaml, whose SHA-256 is the fingerprint every
// cell carries) and the content of every file its tasks read — a custom MDP file, a task-sequence
// file, a published sequence — and of the sources of its learners written outside temple
// (outside.go). The spec records each such file's SHA-256 under inputs:, so a file
// changed after some cells ran makes another spec: a resume refuses the directory, naming the
// file (results.OccupiedError), and shards run against two versions of it do not merge.
//
// Each file is read once (families.ReadOnce): the bytes whose SHA-256 spec.yaml records are the bytes
// every run's tasks are built from, and those every point of a sweep reads, whatever happens to
// the file meanwhile (a file replaced while the experiment starts gave runs of two contents under
// one digest). A learner's source is digested from one read too; its worker, which reads the
// source itself, checks it against that digest (Host.RunCell).

// ReadInputsOnce is s with a store of the files its tasks read: each is read once, when first
// needed, and the digests spec.yaml records, every run's tasks and every point of a sweep take
// those bytes. Execute, Check, Build and package study's runners call it themselves; a caller
// that checks s (Check) before it runs it calls it first, so that both read the same bytes. A
// spec that has its store keeps it.
func (s Spec) ReadInputsOnce() Spec {
	if s.inputs == nil {
		s.inputs = &families.ReadOnce{}
	}
	return s
}

// reader is the families.Reader of the tasks of s: its store's, or the file system's when it has
// none.
func (s Spec) reader() families.Reader {
	if s.inputs == nil {
		return families.ReadFile
	}
	return s.inputs.Read
}

// digestInputs is the SHA-256 of every file the tasks of s read, by the path the spec gives, and
// of every published sequence they read. A file that cannot be read is left out: building the
// tasks reports it, naming the file.
func digestInputs(s Spec) map[string]string {
	var out map[string]string
	add := func(path, sum string) {
		if out == nil {
			out = map[string]string{}
		}
		out[path] = sum
	}
	store := s.inputs
	if store == nil { // a spec without its store: read once here
		store = &families.ReadOnce{}
	}
	for _, input := range s.Tasks.Inputs() {
		if sum, err := store.Digest(input); err == nil {
			add(input.Path, sum)
		}
	}
	for _, path := range agentInputs(s) {
		if sum, err := store.Digest(families.Input{Path: path, MaxBytes: maxSourceBytes}); err == nil {
			add(path, sum)
		}
	}
	for _, name := range publishedInputs(s.Tasks) {
		if sum, err := published.Digest(name); err == nil {
			add(published.Prefix+name, sum)
		}
	}
	return out
}

// maxSourceBytes bounds a file of a learner's source (outside.go): 256 MiB.
const maxSourceBytes = 256 << 20

// digestFile is the SHA-256, in hex, of the regular file at path (of at most maxSourceBytes), or
// of the published sequences of a "published:NAME" path.
func digestFile(path string) (string, error) {
	if name, ok := strings.CutPrefix(path, published.Prefix); ok {
		return published.Digest(name)
	}
	b, err := families.ReadFile(path, maxSourceBytes)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// publishedInputs are the names of the published sequences the tasks read (published:NAME).
func publishedInputs(t families.Spec) []string {
	switch p := t.Params.(type) {
	case *families.FileParams:
		if name, ok := strings.CutPrefix(p.File, published.Prefix); ok {
			return []string{name}
		}
	case *families.MixedParams:
		var out []string
		for _, part := range p.Parts {
			out = append(out, publishedInputs(part)...)
		}
		return out
	}
	return nil
}

// resolved is s with inputs: the digest of every file its tasks read (a config's own inputs: are
// replaced).
func (s Spec) resolved() Spec {
	s.Inputs = digestInputs(s)
	return s
}

// resolvedYAML is the YAML of s resolved: spec.yaml's content, whose SHA-256 is the fingerprint.
func (s Spec) resolvedYAML() ([]byte, error) {
	b, err := yaml.Marshal(s.resolved())
	if err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	return b, nil
}
