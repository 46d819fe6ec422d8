package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/temple-rl/temple/internal/regular"
)

// checksums.json is a results directory's record of what temple wrote there. It lists every file
// temple writes into the directory — spec.yaml, setup.json, tasks.json, the cells, summary.json,
// the CSV files, the figures, report.html, timings.json, compare.csv, a sweep's or scaling
// study's top-level files, a tuning's files — with its SHA-256 and size, recorded as each is
// written; the subdirectories that hold parts of the experiment with their own record (a tuning's
// trials); and the temple version and results format that wrote it (with the versions of earlier
// invocations whose cells were reused, --allow-other-version).
//
// The readers (compare, report, inspect, merge, explain, Python's temple.results.load) check the
// files they rely on against it (Verify, readVerified): a file edited after temple wrote it is
// refused, naming it, and so is one that is listed but missing, and one of temple's names that it
// does not list (a file whose entry was deleted, or that a writer stopped before recording). The
// checksums guard against damage and mistakes — an edited number, a file copied from elsewhere, a
// write cut short — not against a user who forges a file and its entry together. --force
// (Discard) removes only the files the record lists. The cells carry their own checksums too
// (EncodeCell).

// checksums is the content of checksums.json: each file's path below the directory, with /, and
// its SHA-256 in hex and size in bytes.
type checksums struct {
	// ToolVersion and FormatVersion are those of the temple that claimed the directory (Claim);
	// OtherVersions those of earlier invocations whose results it accepted (ClaimOptions).
	ToolVersion   string   `json:"tool_version,omitempty"`
	FormatVersion int      `json:"format_version,omitempty"`
	OtherVersions []string `json:"other_versions,omitempty"`
	// Parts are subdirectories, below the directory, that hold parts of this experiment with
	// their own checksums.json (a tuning's trials): Discard discards them too.
	Parts []string          `json:"parts,omitempty"`
	Files map[string]string `json:"files"`
	Sizes map[string]int64  `json:"sizes,omitempty"`
	// Unchecked are the files temple wrote whose content differs between identical runs
	// (uncheckedFiles), listed without a checksum, so that the record itself is the same bytes.
	Unchecked []string `json:"unchecked,omitempty"`
	// Writing are the files temple is writing and will record next (beginWriting): a process
	// killed between writing a file and recording it leaves it listed here, so that running again
	// knows it for temple's own, not a user's (checkForeign). Empty once they are recorded.
	Writing []string `json:"writing,omitempty"`
}

// endWriting takes the files of dir called names off the list of files being written, unrecorded:
// the writing failed (a full disk), and the record is left as it was before beginWriting.
func endWriting(dir Dir, names ...string) error {
	return updateChecksums(dir, func(sums *checksums) error {
		sums.Writing = without(sums.Writing, names)
		return nil
	})
}

// beginWriting lists the files of dir called names in its checksums.json as being written:
// temple's own until record lists them.
func beginWriting(dir Dir, names ...string) error {
	return updateChecksums(dir, func(sums *checksums) error {
		sums.Writing = withSorted(sums.Writing, names)
		return nil
	})
}

// withSorted is set (sorted, no two alike) with names added, as slash paths.
func withSorted(set, names []string) []string {
	for _, name := range names {
		if name = filepath.ToSlash(name); !slices.Contains(set, name) {
			set = append(set, name)
		}
	}
	slices.Sort(set)
	return set
}

// without is set less names (as slash paths); nil when nothing is left, so that the record omits it.
func without(set, names []string) []string {
	set = slices.DeleteFunc(set, func(n string) bool {
		return slices.ContainsFunc(names, func(x string) bool { return filepath.ToSlash(x) == n })
	})
	if len(set) == 0 {
		return nil
	}
	return set
}

// lists reports whether the record lists the file name (with a checksum or without).
func (sums checksums) lists(name string) bool {
	_, ok := sums.Files[filepath.ToSlash(name)]
	return ok || slices.Contains(sums.Unchecked, filepath.ToSlash(name))
}

// records serialises the updates of checksums.json within this process (the cells of an
// experiment end on several workers); the directory's lock keeps other processes out.
var records sync.Mutex

// record adds the current content of the files of dir called names (paths below dir) to dir's
// checksums.json.
func record(dir Dir, names ...string) error {
	return updateChecksums(dir, func(sums *checksums) error {
		sums.Writing = without(sums.Writing, names) // written: recorded below
		for _, name := range names {
			if slices.Contains(uncheckedFiles, filepath.ToSlash(name)) {
				if !slices.Contains(sums.Unchecked, name) {
					sums.Unchecked = append(sums.Unchecked, name)
					slices.Sort(sums.Unchecked)
				}
				continue
			}
			sum, size, err := fileSHA256(dir.Path(name), maxHashedBytes)
			if err != nil {
				return fmt.Errorf("results: recording the checksum of %s: %w", dir.Path(name), err)
			}
			sums.Files[filepath.ToSlash(name)] = sum
			sums.Sizes[filepath.ToSlash(name)] = size
		}
		return nil
	})
}

// Record adds the files of dir called names (paths below dir), which the caller wrote, to dir's
// checksums.json: a tuning's record and tuned config (package tune).
func Record(dir Dir, names ...string) error { return record(dir, names...) }

// RecordParts adds the subdirectories parts of dir (paths below it), each holding part of dir's
// experiment with its own checksums.json, to dir's checksums.json: Discard discards them with it.
func RecordParts(dir Dir, parts ...string) error {
	return updateChecksums(dir, func(sums *checksums) error {
		sums.Parts = withSorted(sums.Parts, parts)
		return nil
	})
}

// updateChecksums changes dir's checksums.json by change: a new record, of this temple, when
// there is none.
func updateChecksums(dir Dir, change func(*checksums) error) error {
	records.Lock()
	defer records.Unlock()
	sums, err := readChecksums(dir)
	if errors.Is(err, os.ErrNotExist) {
		sums, err = checksums{ToolVersion: Version, FormatVersion: FormatVersion, Files: map[string]string{}}, nil
	}
	if err != nil {
		return err
	}
	if sums.Sizes == nil {
		sums.Sizes = map[string]int64{}
	}
	if err := change(&sums); err != nil {
		return err
	}
	return writeJSON(dir.Path(ChecksumsFile), sums)
}

// maxChecksumsBytes bounds checksums.json: about 200 bytes an entry, so five million files.
const maxChecksumsBytes = 1 << 30

// readChecksums reads dir's checksums.json: an error wrapping os.ErrNotExist when there is none,
// a *DamagedError when it is not a record of checksums.
func readChecksums(dir Dir) (checksums, error) {
	path := dir.Path(ChecksumsFile)
	b, err := regular.ReadFile(path, maxChecksumsBytes)
	if errors.Is(err, os.ErrNotExist) {
		return checksums{}, err
	}
	if err != nil {
		return checksums{}, &DamagedError{Path: path, Problem: err.Error()}
	}
	var sums checksums
	if err := json.Unmarshal(b, &sums); err != nil || sums.Files == nil {
		return checksums{}, &DamagedError{Path: path, Problem: "not a record of checksums (it was changed after temple wrote it)"}
	}
	for name, sum := range sums.Files {
		if !cleanLocal(name) || len(sum) != 2*sha256.Size {
			return checksums{}, &DamagedError{Path: path, Problem: fmt.Sprintf("entry %q: %q is not a file below the directory with its SHA-256", name, sum)}
		}
	}
	for name, size := range sums.Sizes {
		if _, ok := sums.Files[name]; !ok || size < 0 {
			return checksums{}, &DamagedError{Path: path, Problem: fmt.Sprintf("size %d of %q: not a listed file's", size, name)}
		}
	}
	for _, name := range sums.Unchecked {
		if !slices.Contains(uncheckedFiles, name) {
			return checksums{}, &DamagedError{Path: path, Problem: fmt.Sprintf("unchecked file %q: not one of %q", name, uncheckedFiles)}
		}
	}
	for _, p := range sums.Parts {
		if !cleanLocal(p) {
			return checksums{}, &DamagedError{Path: path, Problem: fmt.Sprintf("part %q is not a directory below it", p)}
		}
	}
	return sums, nil
}

// cleanLocal reports whether name is a path below a directory, with /, written as temple writes
// it: clean (no ./ or a//b, which name the same file as another entry).
func cleanLocal(name string) bool {
	return filepath.IsLocal(filepath.FromSlash(name)) && !strings.Contains(name, `\`) && path.Clean(name) == name
}

// checksumsOf reads dir's checksums.json for a reader: a missing one, or one of another results
// format, is refused with what to do.
func checksumsOf(dir Dir) (checksums, error) {
	sums, err := readChecksums(dir)
	again := fmt.Sprintf("temple run %s --out %s --allow-other-version: it resumes from the cells and writes every file again",
		dir.Path(SpecFile), dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return checksums{}, fmt.Errorf("results: %s has no %s: it is not a results directory of this temple (%s, results format %d), "+
			"or one written before its files were checksummed, or the file was removed; run the experiment again with this version (%s)",
			dir, ChecksumsFile, Version, FormatVersion, again)
	case err != nil:
		return checksums{}, err
	case sums.FormatVersion > FormatVersion:
		return checksums{}, fmt.Errorf("results: %s is of results format %d, written by a newer temple (%s) than this one (%s, format %d); "+
			"read it with that temple", dir, sums.FormatVersion, sums.ToolVersion, Version, FormatVersion)
	case sums.FormatVersion < FormatVersion:
		return checksums{}, fmt.Errorf("results: %s is of results format %d, written by an older temple than this one (%s, format %d), "+
			"whose checksums.json does not list every file it wrote; run the experiment again with this version (%s)",
			dir, max(sums.FormatVersion, 3), Version, FormatVersion, again)
	}
	return sums, nil
}

// Verify checks the files of dir that temple wrote, but the cells (which carry their own
// checksums): every one that dir's checksums.json lists is there, as temple wrote it, and every
// file of temple's names there is listed. The error names the first file missing, changed or
// not listed.
func Verify(dir Dir) error {
	sums, err := checksumsOf(dir)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(sums.Files))
	for name := range sums.Files {
		if !strings.HasPrefix(name, "cells/") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if _, err := checkSum(dir, name, sums); err != nil {
			return err
		}
	}
	return checkListed(dir, sums)
}

// checkListed refuses a file of dir that has one of the names temple writes at the top of an
// experiment's directory (templeFiles) and that sums does not list: temple did not
// write it there, or a write stopped before it was recorded (a merge killed while writing the
// figures left summary.json unlisted). A file of figures/, episodes/ or templates/ that is not
// listed is its reader's to refuse (ReadFigures names it, ReadSnapshots refuses it).
func checkListed(dir Dir, sums checksums) error {
	for _, name := range templeFiles {
		if fi, err := os.Lstat(dir.Path(name)); err == nil && !fi.IsDir() && name != ChecksumsFile && !sums.lists(name) {
			return notListed(dir, name)
		}
	}
	return nil
}

// notListed is the refusal of the file name of dir, which checksums.json does not list.
func notListed(dir Dir, name string) error {
	return &DamagedError{Path: dir.Path(name), Problem: fmt.Sprintf("%s does not list it: temple did not write it "+
		"there, or the writing of the directory stopped before it was recorded; run the experiment again to write it again "+
		"(it resumes from the cells)", ChecksumsFile)}
}

// verifyFile checks the file name of dir against dir's checksums.json: listed, there, and as
// temple wrote it (hashed without being held).
func verifyFile(dir Dir, name string) error {
	sums, err := listedIn(dir, name)
	if err != nil {
		return err
	}
	_, err = checkSum(dir, name, sums)
	return err
}

// readVerified reads the file name of dir, once, if it is as temple wrote it: listed in dir's
// checksums.json with the SHA-256 of the bytes read, a regular file of the size recorded and of at
// most most bytes.
func readVerified(dir Dir, name string, most int64) ([]byte, error) {
	sums, err := listedIn(dir, name)
	if err != nil {
		return nil, err
	}
	path := dir.Path(name)
	b, err := regular.ReadFile(path, min(most, sizeOf(sums, name)))
	if err != nil {
		return nil, checkProblem(path, err, sums, name)
	}
	digest := sha256.Sum256(b)
	if got := hex.EncodeToString(digest[:]); got != sums.Files[filepath.ToSlash(name)] {
		return nil, changed(path, got, sums.Files[filepath.ToSlash(name)])
	}
	return b, nil
}

// readListed reads the file name of dir that temple wrote without a checksum (uncheckedFiles):
// one dir's checksums.json lists, a regular file of at most most bytes.
func readListed(dir Dir, name string, most int64) ([]byte, error) {
	sums, err := checksumsOf(dir)
	if err != nil {
		return nil, err
	}
	path := dir.Path(name)
	if !sums.lists(name) {
		if _, err := os.Lstat(path); err != nil {
			return nil, fmt.Errorf("results: %w", err)
		}
		return nil, notListed(dir, name)
	}
	b, err := regular.ReadFile(path, most)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return b, nil
}

// listedIn reads dir's checksums.json (checksumsOf) and refuses the file name of dir unless it
// lists it; a missing file it does not list is an error that wraps fs.ErrNotExist.
func listedIn(dir Dir, name string) (checksums, error) {
	sums, err := checksumsOf(dir)
	if err != nil {
		return checksums{}, err
	}
	if slices.Contains(sums.Unchecked, filepath.ToSlash(name)) {
		return checksums{}, fmt.Errorf("results: %s has no checksum (it differs between identical runs)", dir.Path(name))
	}
	if _, ok := sums.Files[filepath.ToSlash(name)]; !ok {
		if _, err := os.Lstat(dir.Path(name)); err != nil {
			return checksums{}, fmt.Errorf("results: %w", err)
		}
		return checksums{}, notListed(dir, filepath.ToSlash(name))
	}
	return sums, nil
}

// sizeOf is the size recorded of the file name (the most a file may hold when none is).
func sizeOf(sums checksums, name string) int64 {
	if size, ok := sums.Sizes[filepath.ToSlash(name)]; ok {
		return size
	}
	return maxHashedBytes
}

// maxHashedBytes bounds a file temple hashes: 64 GiB.
const maxHashedBytes = 64 << 30

// checkSum checks that the file name of dir is as sums records it, and returns its SHA-256. Its
// size is checked before it is hashed.
func checkSum(dir Dir, name string, sums checksums) (string, error) {
	path := dir.Path(name)
	want := sums.Files[filepath.ToSlash(name)]
	got, _, err := fileSHA256(path, sizeOf(sums, name))
	if err != nil {
		return "", checkProblem(path, err, sums, name)
	}
	if got != want {
		return "", changed(path, got, want)
	}
	return got, nil
}

// checkProblem is the refusal of the listed file at path that could not be read as recorded.
func checkProblem(path string, err error, sums checksums, name string) error {
	var large *regular.TooLargeError
	var notRegular *regular.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &DamagedError{Path: path, Problem: fmt.Sprintf("it is missing (temple wrote it: %s lists it); "+
			"run the experiment again to write it again (it resumes from the cells)", ChecksumsFile)}
	case errors.As(err, &large):
		return &DamagedError{Path: path, Problem: fmt.Sprintf("its content is not what temple wrote (%d bytes, %s records %d): "+
			"it was changed after it was written; run the experiment again to write it again (it resumes from the cells)",
			large.Size, ChecksumsFile, sizeOf(sums, name))}
	case errors.As(err, &notRegular):
		return &DamagedError{Path: path, Problem: fmt.Sprintf("%s, not the file temple wrote", regular.Kind(notRegular.Mode))}
	}
	return fmt.Errorf("results: %w", err)
}

// changed is the refusal of the file at path, whose SHA-256 got is not the recorded want.
func changed(path, got, want string) error {
	return &DamagedError{Path: path, Problem: fmt.Sprintf("its content is not what temple wrote (SHA-256 %.12s…, %s records %.12s…): "+
		"it was changed after it was written; run the experiment again to write it again (it resumes from the cells)", got, ChecksumsFile, want)}
}

// fileSHA256 is the SHA-256, in hex, and the size of the regular file at path, refused before it
// is read when it holds more than most bytes (a *regular.TooLargeError).
func fileSHA256(path string, most int64) (string, int64, error) {
	f, fi, err := regular.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if fi.Size() > most {
		return "", 0, &regular.TooLargeError{Path: path, Size: fi.Size(), Most: most}
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, most+1))
	if err != nil {
		return "", 0, err
	}
	if n > most {
		return "", 0, &regular.TooLargeError{Path: path, Size: n, Most: most}
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
