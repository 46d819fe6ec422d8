package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// sameLayoutFiles refuses shards whose experiment directory sub holds a setup.json or tasks.json
// other than the first shard's: a merge takes the first shard's, so a difference would make the
// merged results depend on the order of the shards. The error names the shard, the file and the
// field (setup.json's key, tasks.json's run and task). setup.json's other_versions may differ
// when others (shardVersions accepted them).
func sameLayoutFiles(shards []Dir, sub string, others bool) error {
	for _, name := range []string{setupFile, TasksFile} {
		first, err := readLayoutFile(shards[0].Sub(sub), name)
		if err != nil {
			return err
		}
		for _, d := range shards[1:] {
			other, err := readLayoutFile(d.Sub(sub), name)
			if err != nil {
				return err
			}
			if bytes.Equal(first, other) || others && name == setupFile && sameBut(first, other, "other_versions") {
				continue
			}
			where := differingJSON(name, first, other)
			return fmt.Errorf("results: merge: shard %s's %s differs from shard %s's in %s; "+
				"the shards did not run the same experiment, or a file was changed: run that shard again",
				d, filepath.Join(sub, name), shards[0], where)
		}
	}
	return nil
}

// differingJSON says where two versions of a layout file differ: the top-level keys of
// setup.json, the first run and task of tasks.json.
func differingJSON(name string, a, b []byte) string {
	var x, y map[string]json.RawMessage
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return "its content (one of them is not JSON)"
	}
	var keys []string
	for k, v := range x {
		if w, ok := y[k]; !ok || !jsonEqual(v, w) {
			keys = append(keys, k)
		}
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if name == TasksFile && slices.Contains(keys, "runs") {
		var r, s [][]json.RawMessage
		if json.Unmarshal(x["runs"], &r) == nil && json.Unmarshal(y["runs"], &s) == nil {
			for run := range max(len(r), len(s)) {
				if run >= len(r) || run >= len(s) {
					return fmt.Sprintf("runs (%d runs against %d)", len(r), len(s))
				}
				for task := range max(len(r[run]), len(s[run])) {
					if task >= len(r[run]) || task >= len(s[run]) || !jsonEqual(r[run][task], s[run][task]) {
						return fmt.Sprintf("runs[%d][%d] (run %d, task %d)", run, task, run, task)
					}
				}
			}
		}
	}
	if len(keys) == 0 {
		return "layout only (the same values written otherwise)"
	}
	return strings.Join(keys, ", ")
}

// sameBut reports whether two JSON objects are equal but for the key but.
func sameBut(a, b []byte, but string) bool {
	var x, y map[string]json.RawMessage
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	delete(x, but)
	delete(y, but)
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		if w, ok := y[k]; !ok || !jsonEqual(v, w) {
			return false
		}
	}
	return true
}

// jsonEqual reports whether two JSON values are equal as values.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

// differingKeysOrText is differingKeys, or a word when two spec.yaml differ in comments or
// layout only.
func differingKeysOrText(a, b []byte) []string {
	if keys := differingKeys(a, b); len(keys) > 0 {
		return keys
	}
	return []string{"comments or layout only (the same values; copy one shard's spec.yaml to the other's)"}
}

// SameSpec refuses the results directory dir unless its spec.yaml, as temple wrote it, is want:
// the error names the keys that differ (a tuning's --from directory of another search).
func SameSpec(dir Dir, want []byte) error {
	held, err := readVerified(dir, SpecFile, maxSpecBytes)
	if err != nil {
		return err
	}
	if bytes.Equal(held, want) {
		return nil
	}
	return fmt.Errorf("%s holds results of another spec: spec.yaml differs in %s%s", dir,
		strings.Join(differingKeysOrText(held, want), ", "), describeInputs(changedInputs(held, want)))
}

// describeInputs says which files read by the tasks differ, for a message ("" when none).
func describeInputs(changes []InputChange) string {
	if len(changes) == 0 {
		return ""
	}
	var files []string
	for _, c := range changes {
		files = append(files, c.Path)
	}
	return fmt.Sprintf(" (the shards read other contents of %s)", strings.Join(files, ", "))
}
