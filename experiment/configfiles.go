package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// checkTaskFiles refuses the config at path, of YAML b and spec s (its paths resolved by Load),
// whose tasks read a file that does not exist: the error names the key and its line, the path as
// written and as resolved, and the rule that resolved it (a relative path is read from the
// config's directory, not the working directory), before any work. Other faults of a file (a
// directory, too large, not a task file) are reported when the tasks are built.
func checkTaskFiles(path string, b []byte, s Spec) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil || len(doc.Content) == 0 {
		return nil // Parse read b: not reached
	}
	for _, in := range s.Tasks.Inputs() {
		if _, err := os.Stat(in.Path); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		where, written := "", in.Path
		if n := nodeAt(doc.Content[0], "tasks."+in.Key); n != nil {
			where, written = fmt.Sprintf("line %d: ", n.Line), n.Value
		}
		resolved, err := filepath.Abs(in.Path)
		if err != nil {
			resolved = in.Path
		}
		msg := fmt.Sprintf("%stasks.%s = %q: no such file %s", where, in.Key, written, resolved)
		if !filepath.IsAbs(written) {
			dir, err := filepath.Abs(filepath.Dir(path))
			if err != nil {
				dir = filepath.Dir(path)
			}
			msg += fmt.Sprintf(" (a relative path in a config is read from the config's directory, %s, not the working directory)", dir)
		}
		return errors.New(msg)
	}
	return nil
}

// indexed is a key with an index into its list, parts[1].
var indexed = regexp.MustCompile(`^(.+)\[(\d+)\]$`)

// nodeAt is the value at key path under mapping n ("tasks.parts[1].file"), or nil when the
// document does not spell it.
func nodeAt(n *yaml.Node, path string) *yaml.Node {
	for _, key := range strings.Split(path, ".") {
		index := -1
		if m := indexed.FindStringSubmatch(key); m != nil {
			key, index = m[1], atoi(m[2])
		}
		if n = valueOf(n, key); n == nil {
			return nil
		}
		if index >= 0 {
			if n.Kind != yaml.SequenceNode || index >= len(n.Content) {
				return nil
			}
			n = n.Content[index]
		}
	}
	return n
}

// valueOf is the value of key in mapping n, or nil.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func atoi(s string) int {
	i, _ := strconv.Atoi(s) // the pattern's digits
	return i
}
