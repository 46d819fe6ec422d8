package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/internal/atomicfile"
)

// A results directory belongs to one experiment: the first run into it writes its resolved spec
// (spec.yaml) before any result (Claim), and a run of another spec is refused (OccupiedError)
// instead of overwriting or mixing results; the same spec resumes. While an experiment runs, a
// lock file (LockFile) names its process, and a second run into the same directory fails at once
// (LockedError); a lock left by a process that is gone is taken over.

// LockFile is the lock file of a results directory while an experiment runs in it.
const LockFile = ".temple.lock"

// OccupiedError is the refusal of a directory that holds results of another experiment.
type OccupiedError struct {
	Dir string
	// Held is the name of the experiment whose results dir holds ("" when only cells of another
	// spec are there, without a spec.yaml); Want the name of the refused one.
	Held, Want string
	// Differs lists the top-level keys of spec.yaml that differ when both have the same name.
	Differs []string
	// Inputs lists the files the tasks read whose content differs (spec.yaml's inputs:), each
	// with its SHA-256 in the held spec and in the refused one ("" when it is not in one).
	Inputs []InputChange
}

// InputChange is a file an experiment's tasks read whose content is not the one the results
// were made from.
type InputChange struct{ Path, Held, Want string }

func (e *OccupiedError) Error() string {
	switch {
	case e.Held == "":
		return fmt.Sprintf("%s holds cells of another spec (and no spec.yaml), not of experiment %q; "+
			"use a fresh directory, or remove those results first", e.Dir, e.Want)
	case e.Held == e.Want && len(e.Inputs) > 0:
		var files []string
		for _, c := range e.Inputs {
			switch {
			case c.Held == "":
				files = append(files, fmt.Sprintf("%s (not read by those results)", c.Path))
			case c.Want == "":
				files = append(files, fmt.Sprintf("%s (read by those results, not by this spec)", c.Path))
			default:
				files = append(files, fmt.Sprintf("%s (SHA-256 %.12s… then, %.12s… now)", c.Path, c.Held, c.Want))
			}
		}
		return fmt.Sprintf("%s holds the results of experiment %q made from other contents of the files its tasks read: %s changed "+
			"since; restore the file, or use a fresh directory, or remove those results first", e.Dir, e.Want, strings.Join(files, ", "))
	case e.Held == e.Want:
		return fmt.Sprintf("%s holds the results of another spec of experiment %q (spec.yaml differs in %s); "+
			"use a fresh directory, or remove those results first", e.Dir, e.Want, strings.Join(e.Differs, ", "))
	}
	return fmt.Sprintf("%s holds the results of experiment %q, not of experiment %q; "+
		"use a fresh directory, or remove those results first", e.Dir, e.Held, e.Want)
}

// LockedError is the refusal of a directory in which another process is running an experiment.
type LockedError struct {
	Dir  string
	PID  int
	Host string
	Name string // the experiment that process runs
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is in use: process %d on %s is running experiment %q in it (lock file %s); "+
		"wait for it to finish or use another directory", e.Dir, e.PID, e.Host, e.Name, filepath.Join(e.Dir, LockFile))
}

// lockInfo is the content of a lock file.
type lockInfo struct {
	PID        int    `json:"pid"`
	Host       string `json:"host"`
	Experiment string `json:"experiment"`
}

// Claim takes dir for an experiment named name whose resolved spec is specYAML: it locks the
// directory, refuses it if it holds results of another spec (OccupiedError) or another process
// runs an experiment in it (LockedError), and writes spec.yaml when there is none. note, if not
// nil, is told of a stale lock taken over. The caller calls release when done.
func Claim(dir, name string, specYAML []byte, note func(string)) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", atomicfile.NotWritable(dir, err))
	}
	unlock, err := lock(dir, name, note)
	if err != nil {
		return nil, err
	}
	if err := checkOwner(dir, name, specYAML); err != nil {
		unlock()
		return nil, err
	}
	if err := atomicfile.RemoveTemporaries(dir); err != nil { // of a process killed while writing
		unlock()
		return nil, fmt.Errorf("results: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, "spec.yaml"), specYAML); err != nil {
		unlock()
		return nil, fmt.Errorf("results: writing %s: %w", filepath.Join(dir, "spec.yaml"), err)
	}
	return unlock, nil
}

// checkOwner refuses dir if it holds results of a spec other than want: a different spec.yaml
// with results beside it, or, without one, cells with another fingerprint.
func checkOwner(dir, name string, want []byte) error {
	held, err := os.ReadFile(filepath.Join(dir, "spec.yaml"))
	switch {
	case err == nil:
		if bytes.Equal(held, want) || !holdsResults(dir) {
			return nil // the same spec resumes; a spec that left no result (refused, or stopped early) is replaced
		}
		differs := differingKeys(held, want)
		if len(differs) == 0 {
			return nil // the same spec, its spec.yaml edited in comments or layout only: rewritten
		}
		return &OccupiedError{Dir: dir, Held: specName(held), Want: name, Differs: differs, Inputs: changedInputs(held, want)}
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("results: %w", err)
	}
	fp := Fingerprint(want)
	cells, _ := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
	for _, path := range cells {
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("results: %w", err)
		}
		var c struct {
			Fingerprint string `json:"fingerprint"`
		}
		if json.Unmarshal(b, &c) != nil || c.Fingerprint != fp {
			return &OccupiedError{Dir: dir, Want: name}
		}
	}
	return nil
}

// holdsResults reports whether dir holds a finished cell (its own or a sweep point's) or a summary.
func holdsResults(dir string) bool {
	for _, pattern := range []string{"cells/*.json", "*/cells/*.json", "summary.json", "sweep.csv"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pattern)); len(m) > 0 {
			return true
		}
	}
	return false
}

// specName is the name in a spec.yaml, or a placeholder when it has none.
func specName(b []byte) string {
	var head struct {
		Name string `yaml:"name"`
	}
	if yaml.Unmarshal(b, &head) != nil || head.Name == "" {
		return "(unnamed)"
	}
	return head.Name
}

// differingKeys lists the top-level keys whose values differ between two spec.yaml.
func differingKeys(a, b []byte) []string {
	var x, y map[string]any
	if yaml.Unmarshal(a, &x) != nil || yaml.Unmarshal(b, &y) != nil {
		return []string{"(unreadable)"}
	}
	var out []string
	for k, v := range x {
		if !reflect.DeepEqual(v, y[k]) {
			out = append(out, k)
		}
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// changedInputs lists the files whose digests differ between the inputs: of two spec.yaml.
func changedInputs(held, want []byte) []InputChange {
	var a, b struct {
		Inputs map[string]string `yaml:"inputs"`
	}
	if yaml.Unmarshal(held, &a) != nil || yaml.Unmarshal(want, &b) != nil {
		return nil
	}
	var out []InputChange
	for path, sum := range a.Inputs {
		if b.Inputs[path] != sum {
			out = append(out, InputChange{Path: path, Held: sum, Want: b.Inputs[path]})
		}
	}
	for path, sum := range b.Inputs {
		if _, ok := a.Inputs[path]; !ok {
			out = append(out, InputChange{Path: path, Want: sum})
		}
	}
	slices.SortFunc(out, func(x, y InputChange) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// Fingerprint identifies a resolved spec by its YAML: the first 8 bytes of its SHA-256, in hex.
// Every cell carries the fingerprint of the spec that ran it.
func Fingerprint(specYAML []byte) string {
	digest := sha256.Sum256(specYAML)
	return hex.EncodeToString(digest[:8])
}

// Discard removes the results of whatever experiment dir holds — the files and directories an
// experiment writes, and sweep points' directories — and leaves other files alone. It refuses a
// directory in which an experiment is running.
func Discard(dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	unlock, err := lock(dir, "(discarding)", nil)
	if err != nil {
		return err
	}
	defer unlock()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !resultEntry(path, e) {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			return fmt.Errorf("results: %w", err)
		}
	}
	return nil
}

// resultFiles are the files and directories an experiment writes at the top of its directory.
var resultFiles = []string{"spec.yaml", "tasks.json", "per_task.csv", "metrics.csv", "oracle.csv", "regret.csv",
	"summary.json", "timings.json", "report.html", "sweep.csv", "figures", "cells", "episodes", "templates",
	setupFile, sweepFile, "scaling.csv", "scaling_fit.csv", scalingFile}

// resultEntry reports whether path is written by an experiment: a result file, or a directory
// that holds a spec.yaml or cells (a sweep point).
func resultEntry(path string, e os.DirEntry) bool {
	if slices.Contains(resultFiles, e.Name()) {
		return true
	}
	if !e.IsDir() {
		return false
	}
	for _, inner := range []string{"spec.yaml", "cells"} {
		if _, err := os.Stat(filepath.Join(path, inner)); err == nil {
			return true
		}
	}
	return false
}
