package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/temple-rl/temple/internal/atomicfile"
)

// Discard removes the results of the experiment dir holds (temple run --force): the files its
// record (checksums.json) lists and the temporaries of their writes, then the record, and in the
// same way the points its sweep.json or scaling.json lists and the parts its record lists (a
// tuning's trials); a directory goes only when it is left empty. Nothing else is removed — no
// directory by its name, no file the record does not list (a user's own, another experiment's in
// a subdirectory) — and note (if not nil) is told of what stays. It refuses a directory in which
// an experiment is running.
func Discard(dir Dir, note func(string)) error {
	if _, err := os.Stat(dir.path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	unlock, err := lock(dir, "(discarding)", nil)
	if err != nil {
		return err
	}
	defer unlock()
	sums, err := readChecksums(dir)
	if err != nil {
		if note != nil && holdsExperiment(dir) {
			note(fmt.Sprintf("%s has no record of the files temple wrote there (%s: %v): none is removed; "+
				"those this run writes are replaced", dir, ChecksumsFile, shortError(err)))
		}
		return nil
	}
	parts := slices.Clone(sums.Parts)
	for p := range ownPoints(dir) {
		parts = append(parts, p)
	}
	slices.Sort(parts)
	for _, p := range slices.Compact(parts) {
		sub := dir.Sub(p)
		if err := inside(dir, p); err != nil {
			if note != nil {
				note(err.Error())
			}
			continue
		}
		if err := Discard(sub, note); err != nil {
			return err
		}
		removeEmpty(dir, p)
	}
	names := slices.Clone(sums.Unchecked)
	for name := range sums.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := inside(dir, name); err != nil {
			if note != nil {
				note(err.Error())
			}
			continue
		}
		if err := removeFile(dir.Path(name)); err != nil {
			return err
		}
	}
	if err := removeTemporaries(dir); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if err := removeFile(dir.Path(ChecksumsFile)); err != nil {
		return err
	}
	for _, sub := range append([]string{FiguresDir}, CellKinds...) {
		removeEmpty(dir, sub)
	}
	if note != nil {
		left(dir, note)
	}
	return nil
}

// inside refuses the path name below dir (from a record) when it goes through a symbolic link:
// a file removed there would be outside dir.
func inside(dir Dir, name string) error {
	parts := strings.Split(filepath.ToSlash(name), "/")
	for k := range parts[:len(parts)-1] {
		sub := dir.Path(strings.Join(parts[:k+1], "/"))
		if fi, err := os.Lstat(sub); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: %s, which the record lists, is left as it is", sub, name)
		}
	}
	return nil
}

// removeFile removes the file at path, if there is one (a directory there is left).
func removeFile(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) || err == nil && fi.IsDir() {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// removeEmpty removes dir's subdirectory sub if it is empty, and then its parents below dir that
// are left empty.
func removeEmpty(dir Dir, sub string) {
	for p := filepath.FromSlash(sub); p != "." && filepath.IsLocal(p); p = filepath.Dir(p) {
		path := dir.Path(p)
		if fi, err := os.Lstat(path); err != nil || !fi.IsDir() || !empty(path) || os.Remove(path) != nil {
			return
		}
	}
}

// left tells note what stays in dir after Discard: another experiment in a subdirectory (or in one
// of temple's subdirectories), and the files temple did not write there.
func left(dir Dir, note func(string)) {
	entries, err := os.ReadDir(dir.path)
	if err != nil {
		return
	}
	var files []string
	for _, e := range entries {
		path := dir.Sub(e.Name())
		switch {
		case e.Name() == LockFile:
		case e.IsDir() && holdsExperiment(path):
			note(fmt.Sprintf("%s holds experiment %s, not a part of the one in %s: left as it is", path, experimentName(path), dir))
		case e.IsDir() && slices.Contains(append([]string{FiguresDir}, CellKinds...), e.Name()):
			inner, _ := os.ReadDir(path.path)
			for _, f := range inner {
				if sub := path.Sub(f.Name()); f.IsDir() && holdsExperiment(sub) {
					note(fmt.Sprintf("%s holds experiment %s, not a part of the one in %s: left as it is", sub, experimentName(sub), dir))
				} else {
					files = append(files, e.Name()+"/"+f.Name())
				}
			}
		default:
			if _, tmp := atomicfile.Temporary(e.Name()); !tmp {
				files = append(files, e.Name())
			}
		}
	}
	if len(files) > 0 {
		if len(files) > 4 {
			files = append(files[:4], fmt.Sprintf("and %d more", len(files)-4))
		}
		note(fmt.Sprintf("%s: %s left as they are (temple's record does not list them)", dir, strings.Join(files, ", ")))
	}
}

// ownPoints are the points' directories that dir's sweep.json or scaling.json lists.
func ownPoints(dir Dir) map[string]bool {
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

// shortError is err's message without the package's prefix.
func shortError(err error) string { return strings.TrimPrefix(err.Error(), "results: ") }
