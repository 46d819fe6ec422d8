package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/internal/regular"
)

// What Claim checks of a directory besides its spec: that it is not inside another experiment's
// (checkNesting), that its results are of this temple's version and format (checkVersion), and
// that no file there of temple's names is one temple did not write (checkForeign).

// NestedError is the refusal of a directory inside another experiment's directory (its cells/ or
// figures/, or anywhere below it, through a symbolic link too): that experiment's --force or
// clean-up would reach it.
type NestedError struct {
	Dir, Outer string
	Name       string // the outer experiment's, quoted ("(no spec.yaml)" without one)
}

func (e *NestedError) Error() string {
	return fmt.Sprintf("%s is inside the results directory %s of experiment %s: an experiment's directory is not "+
		"put inside another's; give --out a directory outside it", e.Dir, e.Outer, e.Name)
}

// ForeignError is the refusal of a directory that holds files of temple's names that temple did
// not write there (its checksums.json does not list them): a run would overwrite them.
type ForeignError struct {
	Dir   string
	Files []string // below Dir, at most a few
	// Unrecorded says that Dir has no record of temple's at all: anything there is not temple's.
	Unrecorded bool
}

func (e *ForeignError) Error() string {
	if e.Unrecorded {
		return fmt.Sprintf("%s holds %s, which temple did not write (it has no %s: temple has not written there); "+
			"give --out a fresh or empty directory, or --force to run into it all the same (files of other names stay as they are)",
			e.Dir, strings.Join(e.Files, ", "), ChecksumsFile)
	}
	return fmt.Sprintf("%s holds %s, which temple did not write there (its %s does not list them) and a run would overwrite; "+
		"give --out a fresh directory, or move them, or give --force to run into it all the same",
		e.Dir, strings.Join(e.Files, ", "), ChecksumsFile)
}

// VersionError is the refusal to resume results of another temple version or results format.
type VersionError struct {
	Dir string
	// Held is the version that wrote the results ("0.1.0, format 3"); Newer says that its format
	// is newer than this temple's, which never resumes it.
	Held  string
	Newer bool
}

func (e *VersionError) Error() string {
	if e.Newer {
		return fmt.Sprintf("%s holds results of temple %s, a newer results format than this temple's (%s, format %d): "+
			"resume them with that temple, or give --out a fresh directory", e.Dir, e.Held, Version, FormatVersion)
	}
	return fmt.Sprintf("%s holds results of temple %s, not of this temple (%s, format %d): its cells would be reused as they are; "+
		"give --allow-other-version to resume them all the same (the results then record both versions), or --out a fresh directory",
		e.Dir, e.Held, Version, FormatVersion)
}

// checkNesting refuses dir when a directory that holds it (itself excepted; its parent too when
// it is a point of the experiment there) holds an experiment: symbolic links are followed, so a
// link into an experiment's cells/ is refused too.
func checkNesting(dir Dir, point bool) error {
	abs, err := realPath(dir.path)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	up := filepath.Dir(abs)
	if point {
		up = filepath.Dir(up)
	}
	for ; ; up = filepath.Dir(up) {
		if holdsExperiment(At(up)) {
			return &NestedError{Dir: dir.path, Outer: up, Name: experimentName(At(up))}
		}
		if filepath.Dir(up) == up {
			return nil
		}
	}
}

// realPath is path, absolute, with the symbolic links of its existing part resolved.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var rest []string
	for p := abs; ; p = filepath.Dir(p) {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			slices.Reverse(rest)
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if filepath.Dir(p) == p {
			return abs, nil
		}
		rest = append(rest, filepath.Base(p))
	}
}

// holdsExperiment reports whether dir holds an experiment's results: a record of temple's
// (checksums.json), or a spec.yaml with cells, a setup.json, a sweep.json or a scaling.json.
func holdsExperiment(dir Dir) bool {
	if _, err := readChecksums(dir); err == nil {
		return true
	}
	if _, err := os.Stat(dir.Path(SpecFile)); err != nil {
		return false
	}
	for _, inner := range []string{CellsDir, setupFile, sweepFile, scalingFile} {
		if _, err := os.Stat(dir.Path(inner)); err == nil {
			return true
		}
	}
	return false
}

// experimentName is the quoted name in dir's spec.yaml, for a message.
func experimentName(dir Dir) string {
	b, err := regular.ReadFile(dir.Path(SpecFile), maxSpecBytes)
	if err != nil {
		return "(no spec.yaml)"
	}
	return fmt.Sprintf("%q", specName(b))
}

// checkForeign refuses dir when a file there has one of the names temple writes at the top of an
// experiment's directory (templeFiles) and dir's record does not list it; spec.yaml
// is checkOwner's. A directory without a record (one temple has not written into) is refused
// when it holds anything at all.
func checkForeign(dir Dir) error {
	entries, err := os.ReadDir(dir.path)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	sums, err := readChecksums(dir)
	recorded := err == nil
	var foreign []string
	for _, e := range entries {
		name := e.Name()
		target, tmp := atomicfile.Temporary(name)
		switch {
		case name == LockFile || name == SpecFile || name == ChecksumsFile && recorded:
		case tmp && slices.Contains(templeFiles, target): // removeTemporaries' to remove
		case !recorded && !holdsExperiment(dir):
			if e.IsDir() && empty(dir.Path(name)) {
				continue
			}
			foreign = append(foreign, name)
		case !e.IsDir() && slices.Contains(templeFiles, name):
			if !sums.lists(name) && !slices.Contains(sums.Writing, name) { // Writing: a run killed before recording it
				foreign = append(foreign, name)
			}
		}
	}
	if len(foreign) == 0 {
		return nil
	}
	slices.Sort(foreign)
	if len(foreign) > 4 {
		foreign = append(foreign[:4], fmt.Sprintf("and %d more", len(foreign)-4))
	}
	return &ForeignError{Dir: dir.path, Files: foreign, Unrecorded: !recorded && !holdsExperiment(dir)}
}

// empty reports whether dir is a directory with nothing in it.
func empty(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

// checkVersion refuses dir when it holds results of a newer results format, and, unless other,
// results of another temple version or an older format; it returns that other version ("" when
// the results are this temple's, or there are none).
func checkVersion(dir Dir, other bool) (string, error) {
	held, format, ok := heldVersion(dir)
	switch {
	case !ok || held == Version && format == FormatVersion:
		return "", nil
	case format > FormatVersion:
		return "", &VersionError{Dir: dir.path, Held: describeVersion(held, format), Newer: true}
	case !other:
		return "", &VersionError{Dir: dir.path, Held: describeVersion(held, format)}
	}
	return describeVersion(held, format), nil
}

// describeVersion is a temple version and results format as a message and a record give them.
func describeVersion(tool string, format int) string {
	if tool == "" {
		tool = "(version not recorded)"
	}
	return fmt.Sprintf("%s, format %d", tool, format)
}

// heldVersion is the temple version and results format of the results dir holds: its record's,
// or, without one, its summary.json's (a record of format 3 names no version, and no record is
// older still); the newest format any of its record, setup.json and summary.json names. ok is
// false when dir holds no results of temple's (a summary.json alone is checkForeign's), unless
// its record is of a newer format.
func heldVersion(dir Dir) (tool string, format int, ok bool) {
	if sums, err := readChecksums(dir); err == nil && sums.FormatVersion > FormatVersion {
		return sums.ToolVersion, sums.FormatVersion, true // a newer temple's directory, results or not
	}
	if !holdsResults(dir) || !holdsExperiment(dir) {
		return "", 0, false
	}
	format = 1 // cells alone: written before setup.json existed
	sums, err := readChecksums(dir)
	if err == nil {
		tool, format = sums.ToolVersion, max(sums.FormatVersion, 3)
	}
	for _, name := range []string{setupFile, SummaryFile} {
		b, err := regular.ReadFile(dir.Path(name), maxLayoutBytes)
		if err != nil {
			continue
		}
		var v struct {
			Tool   string `json:"tool_version"`
			Format int    `json:"format_version"`
		}
		if json.Unmarshal(b, &v) == nil {
			format = max(format, v.Format)
			if tool == "" {
				tool = v.Tool
			}
		}
	}
	return tool, format, true
}

// stamp makes dir's record this temple's: its version and format, with other (a version whose
// results it resumes, "" for none) among the other versions.
func stamp(dir Dir, other string) error {
	return updateChecksums(dir, func(sums *checksums) error {
		if other != "" && !slices.Contains(sums.OtherVersions, other) {
			sums.OtherVersions = append(sums.OtherVersions, other)
		}
		sums.ToolVersion, sums.FormatVersion = Version, FormatVersion
		return nil
	})
}

// OtherVersions are the temple versions, other than this one, whose results dir's record says
// its results hold (ClaimOptions.OtherVersions); none when it has no record.
func OtherVersions(dir Dir) []string {
	sums, err := readChecksums(dir)
	if err != nil {
		return nil
	}
	return sums.OtherVersions
}
