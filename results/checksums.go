package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/temple-rl/temple/internal/atomicfile"
)

// Every file temple derives in an experiment directory — summary.json, the CSV files, tasks.json,
// setup.json, the figures, report.html, a sweep's or scaling study's top-level files — has its
// SHA-256 in the directory's checksums.json, recorded when it is written. The readers (compare,
// report, inspect, merge, explain) check the files they rely on against it first (Verify,
// verifyFile): a file edited after temple wrote it is refused, naming it, and so is one that is
// listed but missing. report.html embeds only the figures listed there. The cells carry their
// own checksums (EncodeCell).

// ChecksumsFile is the name of the record of the derived files' checksums.
const ChecksumsFile = "checksums.json"

// checksums is the content of checksums.json: each file's path below the directory, with /, and
// its SHA-256 in hex.
type checksums struct {
	Files map[string]string `json:"files"`
}

// record adds the current content of the files of dir called names (paths below dir) to dir's
// checksums.json.
func record(dir string, names ...string) error {
	sums, err := readChecksums(dir)
	if errors.Is(err, os.ErrNotExist) {
		sums, err = checksums{Files: map[string]string{}}, nil
	}
	if err != nil {
		return err
	}
	for _, name := range names {
		sum, err := fileSHA256(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("results: recording the checksum of %s: %w", filepath.Join(dir, name), err)
		}
		sums.Files[filepath.ToSlash(name)] = sum
	}
	return writeJSON(filepath.Join(dir, ChecksumsFile), sums)
}

// recordDir is record of every file of dir's subdirectory sub (a missing one records nothing).
func recordDir(dir, sub string) error {
	entries, err := os.ReadDir(filepath.Join(dir, sub))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	var names []string
	for _, e := range entries {
		if _, tmp := atomicfile.Temporary(e.Name()); e.Type().IsRegular() && !tmp {
			names = append(names, filepath.Join(sub, e.Name()))
		}
	}
	return record(dir, names...)
}

// readChecksums reads dir's checksums.json: an error wrapping os.ErrNotExist when there is none,
// a *DamagedError when it is not a record of checksums.
func readChecksums(dir string) (checksums, error) {
	path := filepath.Join(dir, ChecksumsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return checksums{}, err
	}
	var sums checksums
	if err := json.Unmarshal(b, &sums); err != nil || sums.Files == nil {
		return checksums{}, &DamagedError{Path: path, Problem: "not a record of checksums (it was changed after temple wrote it)"}
	}
	for name, sum := range sums.Files {
		if !filepath.IsLocal(filepath.FromSlash(name)) || len(sum) != 2*sha256.Size {
			return checksums{}, &DamagedError{Path: path, Problem: fmt.Sprintf("entry %q: %q is not a file below the directory with its SHA-256", name, sum)}
		}
	}
	return sums, nil
}

// checksumsOf reads dir's checksums.json for a reader: a missing one is refused with what to do.
func checksumsOf(dir string) (checksums, error) {
	sums, err := readChecksums(dir)
	if errors.Is(err, os.ErrNotExist) {
		return checksums{}, fmt.Errorf("results: %s has no %s: it is not a results directory of this temple (%s, results format %d), "+
			"or one written before its files were checksummed, or the file was removed; run the experiment again with this version "+
			"(temple run %s --out %s: it resumes from the cells and writes every file again)",
			dir, ChecksumsFile, Version, FormatVersion, filepath.Join(dir, "spec.yaml"), dir)
	}
	return sums, err
}

// Verify checks every file that dir's checksums.json lists: there, and as temple wrote it. The
// error names the first file missing or changed.
func Verify(dir string) error {
	sums, err := checksumsOf(dir)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(sums.Files))
	for name := range sums.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := checkSum(dir, name, sums.Files[name]); err != nil {
			return err
		}
	}
	return nil
}

// verifyFile checks the file name of dir against dir's checksums.json: listed, there, and as
// temple wrote it.
func verifyFile(dir, name string) error {
	sums, err := checksumsOf(dir)
	if err != nil {
		return err
	}
	want, ok := sums.Files[filepath.ToSlash(name)]
	if !ok {
		return &DamagedError{Path: filepath.Join(dir, name), Problem: fmt.Sprintf("%s has no checksum of it: temple did not write it there", ChecksumsFile)}
	}
	return checkSum(dir, name, want)
}

// checkSum checks that the file name of dir has the SHA-256 want.
func checkSum(dir, name, want string) error {
	path := filepath.Join(dir, filepath.FromSlash(name))
	got, err := fileSHA256(path)
	if errors.Is(err, os.ErrNotExist) {
		return &DamagedError{Path: path, Problem: fmt.Sprintf("it is missing (temple wrote it: %s lists it); "+
			"run the experiment again to write it again (it resumes from the cells)", ChecksumsFile)}
	}
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if got != want {
		return &DamagedError{Path: path, Problem: fmt.Sprintf("its content is not what temple wrote (SHA-256 %.12s…, %s records %.12s…): "+
			"it was changed after it was written; run the experiment again to write it again (it resumes from the cells)", got, ChecksumsFile, want)}
	}
	return nil
}

// fileSHA256 is the SHA-256, in hex, of the file at path; a directory or other non-regular file
// is refused.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a file", path)
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
