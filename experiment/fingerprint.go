package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env/published"
	"github.com/temple-rl/temple/families"
)

// An experiment's identity is its resolved spec (spec.yaml, whose SHA-256 is the fingerprint every
// cell carries) and the content of every file its tasks read: a custom MDP file, a task-sequence
// file, a published sequence. The spec records each such file's SHA-256 under inputs:, so a file
// changed after some cells ran makes another spec: a resume refuses the directory, naming the
// file (results.OccupiedError), and shards run against two versions of it do not merge.

// inputFiles lists the files the tasks of s read — every string parameter named file (yaml tag
// "file") of its tasks block, parts of a mixed family included, in order — and then the files of
// the sources of its learners written outside temple (outside.go).
func inputFiles(s Spec) []string {
	var out []string
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			if spec, ok := v.Interface().(families.Spec); ok {
				walk(reflect.ValueOf(spec.Params))
				return
			}
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if !f.IsExported() {
					continue
				}
				name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
				if name == "file" && f.Type.Kind() == reflect.String {
					if path := v.Field(i).String(); path != "" {
						out = append(out, path)
					}
					continue
				}
				walk(v.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(s.Tasks))
	return append(out, agentInputs(s)...)
}

// digestInputs is the SHA-256 of every file the tasks of s read, by the path the spec gives. A
// file that cannot be read is left out: building the tasks reports it, naming the file.
func digestInputs(s Spec) map[string]string {
	var out map[string]string
	for _, path := range inputFiles(s) {
		sum, err := digestFile(path)
		if err != nil {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[path] = sum
	}
	return out
}

// digestFile is the SHA-256, in hex, of the file at path, or of the published sequences of a
// "published:NAME" path.
func digestFile(path string) (string, error) {
	if name, ok := strings.CutPrefix(path, published.Prefix); ok {
		return published.Digest(name)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// resolved is s with inputs: the digest of every file its tasks read now (a config's own
// inputs: are replaced).
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
