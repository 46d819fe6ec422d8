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
	"github.com/temple-rl/temple/internal/regular"
)

// A results directory belongs to one experiment: the first run into it writes its resolved spec
// (spec.yaml) before any result (Claim), and a run of another spec is refused (OccupiedError)
// instead of overwriting or mixing results; the same spec resumes. While an experiment runs, a
// lock file (LockFile) names its process, and a second run into the same directory fails at once
// (LockedError); a lock left by a process that is gone is taken over.

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

// ClaimOptions say how Claim treats what a directory holds already.
type ClaimOptions struct {
	// Note, if not nil, is told of a stale lock taken over, and of the versions accepted.
	Note func(string)
	// Force takes a directory that holds files of temple's names that temple did not write there
	// (a user's own summary.json), or results of another spec that no record lists (temple run
	// --force, after Discard removed the files the record lists).
	Force bool
	// OtherVersions resumes results written by another temple version or results format (not a
	// newer format): the directory's record then names those versions (temple run
	// --allow-other-version).
	OtherVersions bool
}

// Claim takes the directory at path for an experiment named name whose resolved spec is
// specYAML, and returns it: it refuses a directory inside another experiment's (NestedError),
// locks the directory, refuses it if another process runs an experiment in it (LockedError), if
// it holds results of another spec (OccupiedError) or of another temple version (VersionError), or
// files of temple's names that temple did not write (ForeignError), and writes spec.yaml when
// there is none. The caller calls release when done.
func Claim(path, name string, specYAML []byte, o ClaimOptions) (dir Dir, release func(), err error) {
	return claim(At(path), name, specYAML, o, false)
}

// ClaimPoint is Claim of the directory sub below d for a point of the experiment claimed in d (a
// sweep's or scaling study's, or a merge's): d is not refused as another experiment, and its
// record lists sub among its parts.
func (d Dir) ClaimPoint(sub, name string, specYAML []byte, o ClaimOptions) (point Dir, release func(), err error) {
	return claim(d.Sub(sub), name, specYAML, o, true)
}

// claim is Claim of dir, a point of the experiment in its parent directory when point.
func claim(dir Dir, name string, specYAML []byte, o ClaimOptions, point bool) (Dir, func(), error) {
	if err := checkNesting(dir, point); err != nil {
		return Dir{}, nil, err
	}
	if err := os.MkdirAll(dir.path, 0o755); err != nil {
		return Dir{}, nil, fmt.Errorf("results: %w", atomicfile.NotWritable(dir.path, err))
	}
	unlock, err := lock(dir, name, o.Note)
	if err != nil {
		return Dir{}, nil, err
	}
	fail := func(err error) (Dir, func(), error) {
		unlock()
		return Dir{}, nil, err
	}
	other, err := checkVersion(dir, o.OtherVersions)
	if err != nil {
		return fail(err)
	}
	if err := checkOwner(dir, name, specYAML, o.Force); err != nil {
		return fail(err)
	}
	if !o.Force && other == "" { // the files of the other version are the results it resumes
		if err := checkForeign(dir); err != nil {
			return fail(err)
		}
	}
	if err := removeTemporaries(dir); err != nil { // of a process killed while writing
		return fail(fmt.Errorf("results: %w", err))
	}
	if err := atomicfile.Write(dir.Path(SpecFile), specYAML); err != nil {
		return fail(fmt.Errorf("results: writing %s: %w", dir.Path(SpecFile), err))
	}
	if err := stamp(dir, other); err != nil {
		return fail(err)
	}
	if other != "" && o.Note != nil {
		o.Note(fmt.Sprintf("%s holds results of temple %s; resuming them with temple %s, format %d (--allow-other-version), as its %s records",
			dir, other, Version, FormatVersion, ChecksumsFile))
	}
	if err := record(dir, SpecFile); err != nil {
		return fail(err)
	}
	if point { // its parent's record lists it, for Discard
		if err := RecordParts(At(filepath.Dir(dir.path)), filepath.Base(dir.path)); err != nil {
			return fail(err)
		}
	}
	return dir, unlock, nil
}

// checkOwner refuses dir if it holds results of a spec other than want: a different spec.yaml
// with results beside it, or, without one, cells with another fingerprint. With force, results
// that dir's record does not list (Discard left them) are no refusal: their cells are not of
// this spec's fingerprint, so none is used, and spec.yaml is replaced.
func checkOwner(dir Dir, name string, want []byte, force bool) error {
	held, err := regular.ReadFile(dir.Path(SpecFile), maxSpecBytes)
	switch {
	case err == nil:
		if bytes.Equal(held, want) || !holdsResults(dir) || force {
			return nil // the same spec resumes; a spec that left no result (refused, or stopped early) is replaced
		}
		differs := differingKeys(held, want)
		if len(differs) == 0 {
			return nil // the same spec, its spec.yaml edited in comments or layout only: rewritten
		}
		return &OccupiedError{Dir: dir.path, Held: specName(held), Want: name, Differs: differs, Inputs: changedInputs(held, want)}
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("results: %w", err)
	case force:
		return nil
	}
	fp := Fingerprint(want)
	cells, _ := filepath.Glob(dir.Path(CellsDir + "/*.json"))
	for _, path := range cells {
		b, err := regular.ReadFile(path, maxCellFileBytes)
		if err != nil {
			return &OccupiedError{Dir: dir.path, Want: name}
		}
		var c struct {
			Fingerprint string `json:"fingerprint"`
		}
		if json.Unmarshal(b, &c) != nil || c.Fingerprint != fp {
			return &OccupiedError{Dir: dir.path, Want: name}
		}
	}
	return nil
}

// maxSpecBytes bounds a spec.yaml read back (a config is at most 4 MiB, experiment.MaxConfigBytes,
// and its resolution adds the inputs' digests).
const maxSpecBytes = 16 << 20

// maxCellFileBytes bounds a cell read to learn its fingerprint alone (a cell's own bound,
// maxCellBytes, needs the experiment's sizes).
const maxCellFileBytes = 4 << 30

// holdsResults reports whether dir holds a finished cell (its own, a sweep point's or a temple
// tune trial's) or a summary.
func holdsResults(dir Dir) bool {
	for _, pattern := range []string{CellsDir + "/*.json", "*/" + CellsDir + "/*.json", TrialsDir + "/*/" + CellsDir + "/*.json", SummaryFile, SweepFile} {
		if m, _ := filepath.Glob(dir.Path(pattern)); len(m) > 0 {
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

// RemoveTemporaries removes the temporary files that writes into the results directory dir left
// when their process was killed, as Claim does for the directory it claims: a tuning search
// (package tune) calls it for the trial directories below the one it claims.
func RemoveTemporaries(dir Dir) error { return removeTemporaries(dir) }

// removeTemporaries removes the temporary files that writes of an experiment into dir left when
// their process was killed: those of its own files at the top of dir (templeFiles) and every
// one in its own subdirectories of files (cells, episodes, templates, figures). A temporary of
// another name, or below another directory (a point's, or another experiment's, whose process
// may be writing it now), is not this experiment's.
func removeTemporaries(dir Dir) error {
	remove := func(sub string, ours func(target string) bool) error {
		entries, err := os.ReadDir(dir.Path(sub))
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if target, ok := atomicfile.Temporary(e.Name()); ok && e.Type().IsRegular() && ours(target) {
				if err := os.Remove(filepath.Join(dir.Path(sub), e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
		}
		return nil
	}
	if err := remove("", func(target string) bool { return slices.Contains(templeFiles, target) }); err != nil {
		return err
	}
	for _, sub := range append([]string{FiguresDir}, CellKinds...) {
		if err := remove(sub, func(string) bool { return true }); err != nil {
			return err
		}
	}
	return nil
}
