package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/temple-rl/temple/internal/regular"
)

// maxLayoutBytes bounds a layout file read whole (setup.json, sweep.json, scaling.json,
// summary.json, timings.json, compare.csv): 256 MiB.
const maxLayoutBytes = 256 << 20

// WriteSetup writes s as dir/setup.json, of this FormatVersion, with the other versions dir's
// record names (its spec.yaml is written by Claim).
func WriteSetup(dir Dir, s Setup) error {
	s.FormatVersion = FormatVersion
	s.OtherVersions = OtherVersions(dir) // accepted by Claim or a merge
	if err := writeJSON(dir.Path(setupFile), s); err != nil {
		return err
	}
	return record(dir, setupFile)
}

// ReadSetup reads dir/setup.json and dir/spec.yaml back into a Setup. It refuses a setup.json of
// another results format (a newer one it cannot know, an older one would merge into results
// that differ from an unsharded run's) and a damaged one (*DamagedError): values out of their
// range, or a spec that is not spec.yaml's.
func ReadSetup(dir Dir) (Setup, error) {
	b, err := readLayoutFile(dir, setupFile)
	if err != nil {
		return Setup{}, err
	}
	specYAML, err := readVerified(dir, SpecFile, maxSpecBytes)
	if err != nil {
		return Setup{}, err
	}
	return parseSetup(dir, b, specYAML)
}

// parseSetup is ReadSetup of the contents of dir's setup.json, b, and spec.yaml.
func parseSetup(dir Dir, b, specYAML []byte) (Setup, error) {
	path := dir.Path(setupFile)
	var s Setup
	if err := json.Unmarshal(b, &s); err != nil {
		return Setup{}, &DamagedError{Path: path, Problem: fmt.Sprintf("not the JSON of %s (%v)", setupFile, err)}
	}
	if err := checkFormat(path, s.FormatVersion); err != nil {
		return Setup{}, err
	}
	if s.FormatVersion < FormatVersion {
		return Setup{}, fmt.Errorf("results: %s is of results format %d, written by an older temple than this one (%s, format %d); "+
			"run the experiment (or this shard) again with this temple: temple run %s --out %s (with its --shard i/n for a shard)",
			path, max(s.FormatVersion, 1), Version, FormatVersion, dir.Path(SpecFile), dir)
	}
	if err := checkSetup(path, s); err != nil {
		return Setup{}, err
	}
	s.SpecYAML = specYAML
	fromYAML, err := SpecJSON(s.SpecYAML)
	if err != nil {
		return Setup{}, &DamagedError{Path: dir.Path(SpecFile), Problem: err.Error()}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, s.Spec); err != nil || !bytes.Equal(compact.Bytes(), fromYAML) {
		return Setup{}, &DamagedError{Path: path, Problem: "its spec is not the one of spec.yaml beside it"}
	}
	s.Spec = compact.Bytes()
	return s, nil
}

// checkFormat refuses the file path of results format version when it is newer than this
// temple's (FormatVersion). A version of 0 is a file written before the version was recorded
// (format 1).
func checkFormat(path string, version int) error {
	if version > FormatVersion {
		return fmt.Errorf("results: %s is of results format %d, written by a newer temple than this one (%s, format %d); "+
			"read it with that temple, or run the experiment again with this one", path, version, Version, FormatVersion)
	}
	return nil
}

// readLayout decodes the layout file name of dir into v (readLayoutFile).
func readLayout(dir Dir, name string, v any) error {
	b, err := readLayoutFile(dir, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &DamagedError{Path: dir.Path(name), Problem: fmt.Sprintf("not the JSON of %s (%v)", name, err)}
	}
	return nil
}

// readLayoutFile reads the layout file name of dir, as temple wrote it (readVerified); a missing
// file is an error that says the directory was written by an older temple (or is not a results
// directory). A file of a newer results format is refused as such, not as an unlisted one.
func readLayoutFile(dir Dir, name string) ([]byte, error) {
	if _, err := os.Lstat(dir.Path(name)); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("results: %s has no %s: it is not a results directory of this temple (%s), "+
			"or one written before %s existed; run the experiment (or its shards) again with this version", dir, name, Version, name)
	}
	b, err := readVerified(dir, name, maxLayoutBytes)
	if err != nil {
		if held, readErr := regular.ReadFile(dir.Path(name), maxLayoutBytes); readErr == nil {
			var v struct {
				Format int `json:"format_version"`
			}
			if json.Unmarshal(held, &v) == nil {
				if newer := checkFormat(dir.Path(name), v.Format); newer != nil {
					return nil, newer
				}
			}
		}
		return nil, err
	}
	return b, nil
}
