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

	"github.com/temple-rl/temple/agenttypes"
)

// configSource is where a config was read from, for the messages of checkInputFiles: the file
// at path, or standard input (path ""), whose relative paths are then the working directory's.
type configSource struct{ path string }

// base is the directory the config's relative paths are read from, absolute where it can be.
func (c configSource) base() string {
	dir := "."
	if c.path != "" {
		dir = filepath.Dir(c.path)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// rule says where a relative path of the config is read from.
func (c configSource) rule() string {
	if c.path == "" {
		return fmt.Sprintf("a relative path in a config read from standard input is read from the working directory, %s", c.base())
	}
	return fmt.Sprintf("a relative path in a config is read from the config's directory, %s, not the working directory", c.base())
}

// inputFile is a file or directory a config names that must exist before anything runs: its key
// (tasks.file, agents[0].files[1]), its path as resolved, and the rule that resolved it when it
// was written relative.
type inputFile struct {
	key, path, rule string
	dir             bool
}

// checkInputFiles refuses the config of YAML b and spec s (its paths resolved as Load or
// LoadStdin resolve them), read from src, that names a file or directory that does not exist: a
// task file (tasks.file, a mixed family's parts), or of a learner written outside temple its
// source files (files:), its module's directory (path:) or its working directory (dir:). The
// error names the key and its line, the path as written and as resolved, and the rule that
// resolved it (a relative path is read from the config's directory, or for standard input the
// working directory; a learner's files from its path: or dir:), before any work. Other faults of a
// file (a directory, too large, not a task file) are reported when the tasks are built.
func checkInputFiles(src configSource, b []byte, s Spec) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil || len(doc.Content) == 0 {
		return nil // Parse read b: not reached
	}
	for _, in := range inputFiles(src, doc.Content[0], s) {
		if _, err := os.Stat(in.path); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		where, written := "", in.path
		if n := nodeAt(doc.Content[0], in.key); n != nil {
			where, written = fmt.Sprintf("line %d: ", n.Line), n.Value
		}
		resolved, err := filepath.Abs(in.path)
		if err != nil {
			resolved = in.path
		}
		what := "file"
		if in.dir {
			what = "directory"
		}
		msg := fmt.Sprintf("%s%s = %q: no such %s %s", where, in.key, written, what, resolved)
		if !filepath.IsAbs(written) {
			msg += " (" + in.rule + ")"
		}
		return errors.New(msg)
	}
	return nil
}

// inputFiles are the files and directories of s, of the config top, that must exist, in the
// order of the config: the tasks' files, then each outside learner's directory (when the config
// names one) and source files.
func inputFiles(src configSource, top *yaml.Node, s Spec) []inputFile {
	var out []inputFile
	for _, in := range s.Tasks.Inputs() {
		out = append(out, inputFile{key: "tasks." + in.Key, path: in.Path, rule: src.rule()})
	}
	for i, a := range s.Agents {
		var dirKey, dir string
		var files []string
		switch p := a.Params.(type) {
		case *agenttypes.Python:
			dirKey, dir, files = "path", p.Path, p.Files
		case *agenttypes.External:
			dirKey, dir, files = "dir", p.Dir, p.Files
		default:
			continue
		}
		key := fmt.Sprintf("agents[%d].", i)
		filesRule := src.rule()
		if nodeAt(top, key+dirKey) != nil {
			out = append(out, inputFile{key: key + dirKey, path: dir, rule: src.rule(), dir: true})
			filesRule = fmt.Sprintf("a relative path in files: is read from the learner's %s:, %s", dirKey, absOr(dir))
		}
		for k, f := range files {
			path := f
			if !filepath.IsAbs(f) {
				path = filepath.Join(dir, f)
			}
			out = append(out, inputFile{key: fmt.Sprintf("%sfiles[%d]", key, k), path: path, rule: filesRule})
		}
	}
	return out
}

// absOr is path made absolute, or path when it cannot be.
func absOr(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
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
