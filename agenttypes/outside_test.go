package agenttypes_test

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners"
)

// A program given with a / is read from the learner's dir, whatever dir is: the config's
// directory given relative or absolute (a config named by its absolute path), or none (a config
// read from standard input). A name without a / is looked for on the PATH.
func TestExternalProgram(t *testing.T) {
	for _, c := range []struct {
		dir, command, want string
	}{
		{"", "./learner.sh", "./learner.sh"},
		{".", "./learner.sh", "./learner.sh"},
		{"configs", "./learner.sh", "./configs/learner.sh"},
		{"configs", "bin/learner", "./configs/bin/learner"},
		{"/tmp/x", "./a.sh", "/tmp/x/a.sh"},
		{"/tmp/x", "bin/a.sh", "/tmp/x/bin/a.sh"},
		{"/tmp/x", "../y/a.sh", "/tmp/y/a.sh"},
		{"/tmp/x", "/usr/bin/learner", "/usr/bin/learner"},
		{"/tmp/x", "python3", "python3"},
	} {
		p := &agenttypes.External{Command: []string{c.command}, Dir: c.dir}
		if got := p.Program(); got != filepath.FromSlash(c.want) {
			t.Errorf("dir %q, command [%s]: Program() = %q, want %q", c.dir, c.command, got, c.want)
		}
	}
}

// The learner's process starts in its dir from a program path relative to that dir, whether dir
// is absolute or relative to the current directory: the process answers hello.
func TestExternalStartsItsProgramInItsDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the learner is a shell script")
	}
	base := t.TempDir()
	t.Chdir(base)
	abs := filepath.Join(base, "learner")
	// The learner answers hello, then reads until temple closes its input; it runs in its dir,
	// so the marker file is found there.
	script := "#!/bin/sh\ntest -f marker || exit 3\nread hello\necho '{\"type\": \"ready\", \"protocol\": 1}'\ncat >/dev/null\n"
	if err := os.MkdirAll(filepath.Join(abs, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(abs, "bin", "learner.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(abs, "marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{abs, "learner"} {
		for _, command := range []string{"./bin/learner.sh", "bin/learner.sh"} {
			d, _ := agenttypes.Decode(agenttypes.ExternalType, nil)
			p := d.(*agenttypes.External)
			p.Command, p.Dir, p.Timeout = []string{command}, dir, 10
			a, err := p.New(agenttypes.Context{Name: "Mine", Seed: 1})
			if err != nil {
				t.Errorf("dir %s, command [%s]: %v", dir, command, err)
				continue
			}
			if err := a.(io.Closer).Close(); err != nil {
				t.Errorf("dir %s, command [%s]: close: %v", dir, command, err)
			}
		}
	}
}

// A learner's files: are read from its dir (type: external) or path (type: python), as its doc
// says; either is the config's directory unless the config names another.
func TestSourceFilesAreReadFromTheLearnersDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	py := &agenttypes.Python{Class: "mine:Mine", Path: dir, Files: []string{"helper.py", "/abs/other.py"}}
	got, err := py.SourceFiles()
	if want := []string{filepath.Join(dir, "mine.py"), filepath.Join(dir, "helper.py"), "/abs/other.py"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("python: SourceFiles() = %q, %v, want %q", got, err, want)
	}
	ext := &agenttypes.External{Command: []string{"./learner"}, Dir: dir, Files: []string{"learner.c"}}
	got, err = ext.SourceFiles()
	if want := []string{filepath.Join(dir, "learner.c")}; err != nil || !slices.Equal(got, want) {
		t.Errorf("external: SourceFiles() = %q, %v, want %q", got, err, want)
	}
	for _, c := range []struct {
		params any
		key    string
	}{{agenttypes.Python{}, "path"}, {agenttypes.External{}, "dir"}} {
		f, _ := reflect.TypeOf(c.params).FieldByName("Files")
		if doc := f.Tag.Get("doc"); !strings.Contains(doc, "relative to "+c.key+" ") {
			t.Errorf("%T's files: doc tag %q does not say its files are relative to %s, where SourceFiles reads them", c.params, doc, c.key)
		}
	}
}
