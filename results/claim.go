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
	"strconv"
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
	if err := removeTemporaries(dir); err != nil { // of a process killed while writing
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

// holdsResults reports whether dir holds a finished cell (its own, a sweep point's or a temple
// tune trial's) or a summary.
func holdsResults(dir string) bool {
	for _, pattern := range []string{"cells/*.json", "*/cells/*.json", "trials/*/cells/*.json", "summary.json", "sweep.csv"} {
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

// Discard removes the results of whatever experiment dir holds: the files and directories an
// experiment writes at its top (resultFiles), and the points' directories that its own record
// (sweep.json, scaling.json) lists. Everything else stays: other files, and a directory below
// that holds another experiment, which note (if not nil) is told of. It refuses a directory in
// which an experiment is running.
func Discard(dir string, note func(string)) error {
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
	points := ownPoints(dir)
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case slices.Contains(resultFiles, e.Name()) || e.IsDir() && points[e.Name()]:
			if err := os.RemoveAll(path); err != nil {
				return fmt.Errorf("results: %w", err)
			}
		case e.IsDir() && holdsExperiment(path) && note != nil:
			note(fmt.Sprintf("%s holds experiment %s, not a point of the one in %s: left as it is", path, experimentName(path), dir))
		}
	}
	return nil
}

// ownPoints are the points' directories that dir's sweep.json or scaling.json lists.
func ownPoints(dir string) map[string]bool {
	out := map[string]bool{}
	var sw SweepSetup
	if readLayout(dir, sweepFile, &sw) == nil {
		for _, pt := range sw.Points {
			out[pt.Dir] = true
		}
	}
	var sc ScalingSetup
	if readLayout(dir, scalingFile, &sc) == nil {
		for _, pt := range sc.Points {
			out[pt.Dir] = true
		}
	}
	for d := range out {
		if !filepath.IsLocal(d) || strings.ContainsAny(d, `/\`) {
			delete(out, d) // a damaged record names no directory outside dir
		}
	}
	return out
}

// holdsExperiment reports whether path holds an experiment's results: a spec.yaml or cells.
func holdsExperiment(path string) bool {
	for _, inner := range []string{"spec.yaml", "cells"} {
		if _, err := os.Stat(filepath.Join(path, inner)); err == nil {
			return true
		}
	}
	return false
}

// experimentName is the quoted name in path's spec.yaml, for a message.
func experimentName(path string) string {
	b, err := os.ReadFile(filepath.Join(path, "spec.yaml"))
	if err != nil {
		return "(no spec.yaml)"
	}
	return strconv.Quote(specName(b))
}

// RemoveTemporaries removes the temporary files that writes into the results directory dir left
// when their process was killed, as Claim does for the directory it claims: a tuning search
// (package tune) calls it for the trial directories below the one it claims.
func RemoveTemporaries(dir string) error { return removeTemporaries(dir) }

// removeTemporaries removes the temporary files that writes of an experiment into dir left when
// their process was killed: those of its own files at the top of dir (resultFiles) and every
// one in its own subdirectories of files (cells, episodes, templates, figures). A temporary of
// another name, or below another directory (a point's, or another experiment's, whose process
// may be writing it now), is not this experiment's.
func removeTemporaries(dir string) error {
	remove := func(sub string, ours func(target string) bool) error {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if target, ok := atomicfile.Temporary(e.Name()); ok && e.Type().IsRegular() && ours(target) {
				if err := os.Remove(filepath.Join(dir, sub, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
		}
		return nil
	}
	if err := remove("", func(target string) bool { return slices.Contains(resultFiles, target) || target == "compare.csv" }); err != nil {
		return err
	}
	for _, sub := range append([]string{"figures"}, CellKinds...) {
		if err := remove(sub, func(string) bool { return true }); err != nil {
			return err
		}
	}
	return nil
}

// resultFiles are the files and directories an experiment writes at the top of its directory.
var resultFiles = []string{"spec.yaml", "tasks.json", "per_task.csv", "metrics.csv", "oracle.csv", "regret.csv",
	"summary.json", "timings.json", "report.html", "sweep.csv", "figures", "cells", "episodes", "templates",
	setupFile, sweepFile, "scaling.csv", "scaling_fit.csv", scalingFile, ChecksumsFile}
