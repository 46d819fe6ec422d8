package agenttypes

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/external"
)

// Learners written outside temple: a program speaking temple's agent protocol (type: external)
// and a Python class (type: python). Their parameters are the learner's own, free-form, under
// params:; temple tune searches them only where a config's search: block gives their ranges (no
// Search).

// The outside learners' type names.
const (
	PythonType   = "python"
	ExternalType = "external"
)

func init() {
	Register(Type{Name: PythonType, Display: "Python", Summary: "a learner written as a Python class of your own (module:Class), run in a Python process by the runner's own code (docs/guides/own-learner.md)",
		Defaults: func() Params { return defaultPython() }, Rank: 220})
	Register(Type{Name: ExternalType, Display: "External", Summary: "a learner in any language, in a process of its own speaking temple's agent protocol on its standard input and output (docs/reference/external-agents.md)",
		Defaults: func() Params { return defaultExternal() }, Rank: 230})
}

// defaultTimeout is how long one call of an outside learner may take by default, in seconds.
const defaultTimeout = 60

// External is a learner in a process of its own speaking temple's agent protocol (package
// external, docs/reference/external-agents.md).
type External struct {
	Command []string       `yaml:"command" doc:"the learner's program and its arguments; a program given with a / is relative to dir (default: the config's directory)" range:"a program"`
	Params  map[string]any `yaml:"params" doc:"the learner's parameters, sent to it in hello (searched by temple tune where search: gives their ranges)"`
	Files   []string       `yaml:"files,omitempty" doc:"the files of the learner's source, relative to dir (default: the config's directory): their SHA-256 is part of the experiment's identity (inputs:)"`
	Timeout float64        `yaml:"timeout" doc:"seconds the learner may take to answer one message before its cell fails" range:"> 0"`
	Dir     string         `yaml:"dir,omitempty" doc:"the directory the learner runs in (default: the config's)"`
}

func defaultExternal() *External { return &External{Timeout: defaultTimeout} }

// Validate names the first key out of range.
func (p *External) Validate() error {
	switch {
	case len(p.Command) == 0 || p.Command[0] == "":
		return errors.New("external: command is empty: give the learner's program and its arguments, e.g. command: [python3, learner.py]")
	case !(p.Timeout > 0) || math.IsInf(p.Timeout, 0):
		return fmt.Errorf("external: timeout = %v, want a finite number of seconds > 0", p.Timeout)
	}
	return checkParams(ExternalType, p.Params)
}

// New starts the learner's process for one run and opens its cell.
func (p *External) New(ctx Context) (agent.Agent, error) {
	err := p.Validate()
	if err != nil {
		return nil, err
	}
	prog := p.Program()
	if strings.Contains(prog, "/") { // the process starts in Dir, where a relative path would be read from Dir again
		if prog, err = filepath.Abs(prog); err != nil {
			return nil, fmt.Errorf("external learner %s: command: %w", ctx.Name, err)
		}
	}
	proc, err := external.Start(external.Command{Args: append([]string{prog}, p.Command[1:]...), Dir: p.Dir,
		Timeout: p.timeout()}, ctx.Name, ctx.Seed, p.Params)
	if err != nil {
		return nil, fmt.Errorf("external learner %s: %w", ctx.Name, err)
	}
	return external.NewLearner(ctx.Name, proc), nil
}

// Program is the learner's program as the current directory sees it: a name without a / as
// given (it is looked for on the PATH), an absolute path as given, any other path relative to Dir
// (with a leading ./ when that is relative too, so that it is not looked for on the PATH).
func (p *External) Program() string {
	prog := p.Command[0]
	if filepath.IsAbs(prog) || !strings.Contains(prog, "/") {
		return prog
	}
	path := filepath.Join(p.Dir, prog)
	if !filepath.IsAbs(path) {
		path = "." + string(filepath.Separator) + path
	}
	return path
}

func (p *External) timeout() time.Duration { return time.Duration(p.Timeout * float64(time.Second)) }

// SourceFiles are the learner's files whose content is part of the experiment's identity.
func (p *External) SourceFiles() ([]string, error) { return relativeTo(p.Dir, p.Files), nil }

// SetParam sets a learner's own parameter (temple tune's settings).
func (p *External) SetParam(key string, v *yaml.Node) error { return setParam(&p.Params, key, v) }

// Python is a learner written as a Python class (docs/guides/own-learner.md): its cells run in a
// Python process, which drives it through temple's C library (package capi) by the runner's own
// code, so that its results are those of any agent.
type Python struct {
	Class   string         `yaml:"class" doc:"the learner, as module:Class; the module is looked for in path (default: the config's directory), then on PYTHONPATH" range:"module:Class"`
	Params  map[string]any `yaml:"params" doc:"keyword arguments of the class besides seed= (searched by temple tune where search: gives their ranges)"`
	Files   []string       `yaml:"files,omitempty" doc:"other files of the learner's source, relative to path (default: the config's directory): their SHA-256, and the module's, are part of the experiment's identity (inputs:)"`
	Timeout float64        `yaml:"timeout" doc:"seconds one call of the learner (act, observe, …) may take before its cell fails" range:"> 0"`
	Path    string         `yaml:"path,omitempty" doc:"the directory the module is looked for first (default: the config's)"`
}

func defaultPython() *Python { return &Python{Timeout: defaultTimeout} }

// pythonClass is module:Class, the module a dotted Python name.
var pythonClass = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$`)

// Validate names the first key out of range.
func (p *Python) Validate() error {
	switch {
	case !pythonClass.MatchString(p.Class):
		return fmt.Errorf("python: class %q, want module:Class (e.g. class: optq:OptQ for class OptQ in optq.py beside the config)", p.Class)
	case !(p.Timeout > 0) || math.IsInf(p.Timeout, 0):
		return fmt.Errorf("python: timeout = %v, want a finite number of seconds > 0", p.Timeout)
	}
	return checkParams(PythonType, p.Params)
}

// New refuses: a Python learner is built in its Python process, one per cell (experiment runs its
// cells there).
func (p *Python) New(Context) (agent.Agent, error) {
	return nil, errors.New("python: a Python learner runs in a Python process of its own, not in temple's")
}

// Module is the module's name and Class the class's.
func (p *Python) Module() string { m, _, _ := strings.Cut(p.Class, ":"); return m }

// ModuleFile is the file of the learner's module: the first of MODULE.py and MODULE/__init__.py
// (dots of a dotted module as directories) in Path, then in each directory of PYTHONPATH, as
// Python finds it with Path first on sys.path.
func (p *Python) ModuleFile() (string, error) {
	rel := filepath.FromSlash(strings.ReplaceAll(p.Module(), ".", "/"))
	dirs := append([]string{p.Path}, filepath.SplitList(os.Getenv("PYTHONPATH"))...)
	for _, dir := range dirs {
		if dir == "" {
			dir = "."
		}
		for _, f := range []string{rel + ".py", filepath.Join(rel, "__init__.py")} {
			path := filepath.Join(dir, f)
			if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
				return path, nil
			}
		}
	}
	return "", fmt.Errorf("python: module %s of class %s: no %s.py nor %s/__init__.py in %s (the config's directory) nor on PYTHONPATH (%s)",
		p.Module(), p.Class, rel, rel, orDot(p.Path), os.Getenv("PYTHONPATH"))
}

// SourceFiles are the module's file and the declared files: their content is part of the
// experiment's identity.
func (p *Python) SourceFiles() ([]string, error) {
	f, err := p.ModuleFile()
	if err != nil {
		return nil, err
	}
	return append([]string{f}, relativeTo(p.Path, p.Files)...), nil
}

// SetParam sets a keyword argument of the class (temple tune's settings).
func (p *Python) SetParam(key string, v *yaml.Node) error { return setParam(&p.Params, key, v) }

// TimeoutDuration is Timeout as a duration.
func (p *Python) TimeoutDuration() time.Duration {
	return time.Duration(p.Timeout * float64(time.Second))
}

// Outside reports whether p are the parameters of a learner written outside temple (type:
// python, type: external): it has no defaults to run on (its class or command is the user's), is
// not driven from the C library, and runs only in experiments.
func Outside(p Params) bool {
	_, ok := p.(Sourced)
	return ok
}

// Sourced is implemented by the parameters of learners whose source is a file of the user's: the
// files' content is part of the experiment's identity (inputs:).
type Sourced interface {
	SourceFiles() ([]string, error)
}

// paramSetter is implemented by parameters whose searched keys are a learner's own parameters,
// not fields (the outside learners' params:).
type paramSetter interface {
	SetParam(key string, v *yaml.Node) error
}

// checkParams refuses parameters that are not plain values: each is a number, a string, a
// boolean, or a list or mapping of them.
func checkParams(typ string, params map[string]any) error {
	for k := range params {
		if k == "seed" {
			return fmt.Errorf("%s: params: seed is given by temple (the runner's stream of the agent and run), not by the config", typ)
		}
		if err := plain(params[k]); err != nil {
			return fmt.Errorf("%s: params: %s: %w", typ, k, err)
		}
	}
	return nil
}

// plain reports a value that JSON cannot carry (a non-finite number).
func plain(v any) error {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%v is not a finite number", x)
		}
	case []any:
		for _, e := range x {
			if err := plain(e); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, e := range x {
			if err := plain(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// setParam sets params[key] to the value of v, as a new map (the original may be shared).
func setParam(params *map[string]any, key string, v *yaml.Node) error {
	var x any
	if err := v.Decode(&x); err != nil {
		return err
	}
	out := make(map[string]any, len(*params)+1)
	for k, e := range *params {
		out[k] = e
	}
	out[key] = x
	*params = out
	return nil
}

// relativeTo is each path made relative to dir unless absolute.
func relativeTo(dir string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if filepath.IsAbs(p) {
			out[i] = p
		} else {
			out[i] = filepath.Join(dir, p)
		}
	}
	return out
}

func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
