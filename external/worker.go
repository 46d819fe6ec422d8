package external

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// A Python learner's cell runs in a Python process, the worker (python -m temple._cell, in the
// Python package): it loads the learner's module, checks that its content is the content the
// experiment recorded, and asks temple's C library to run the cell — the runner's own code,
// building the run's tasks from the spec — calling the learner's methods from Go through C
// function pointers. A call costs about a microsecond where a pipe's round trip costs tens (the
// protocol of Process), so that a Python learner runs within the time of a plain Python loop over
// the same tasks. The worker writes the cell's file itself and tells its progress on a pipe of
// its own (file descriptor 3), a line at a time:
//
//	task K        task K of the cell finished
//	error "TEXT"  the cell failed (TEXT a JSON string: the learner's error, with its traceback)
//	done          the cell is written

// CellRequest is one cell for a worker: which (the spec it belongs to, the run and the agent),
// where its file goes, and the learner.
type CellRequest struct {
	Version     string         `json:"version"`     // temple's version: the worker's library must be the same
	Spec        string         `json:"spec"`        // the resolved spec (spec.yaml)
	Fingerprint string         `json:"fingerprint"` // its SHA-256: the worker's must be the same
	Run         int            `json:"run"`
	Agent       string         `json:"agent"`
	Dir         string         `json:"dir"` // the results directory
	Class       string         `json:"class"`
	ModuleFile  string         `json:"module_file"`
	Digest      string         `json:"digest"` // the module file's SHA-256 as the spec records it
	Params      map[string]any `json:"params"`
	Timeout     float64        `json:"timeout"` // seconds one call may take
}

// Python is the interpreter the workers run: $TEMPLE_PYTHON, else python3 on the PATH.
func Python() string {
	if p := os.Getenv("TEMPLE_PYTHON"); p != "" {
		return p
	}
	return "python3"
}

// workerEnv is the worker's environment: temple's, with the directory of the Python package that
// holds this executable (a wheel's temple/bin/temple) on PYTHONPATH, so that the worker imports
// the package, and its library, of the same installation.
func workerEnv() []string {
	env := os.Environ()
	exe, err := os.Executable()
	if err != nil {
		return env
	}
	pkg := filepath.Dir(filepath.Dir(exe)) // .../temple/bin/temple → .../temple
	if _, err := os.Stat(filepath.Join(pkg, "__init__.py")); err != nil {
		return env
	}
	path := filepath.Dir(pkg)
	if old := os.Getenv("PYTHONPATH"); old != "" {
		path = old + string(os.PathListSeparator) + path
	}
	return append(env, "PYTHONPATH="+path)
}

// RunPythonCell runs the cell of req in a worker and calls taskDone as each task finishes. The
// cell's file is written by the worker; an error says why the cell failed, with the learner's
// own error where it had one.
func RunPythonCell(ctx context.Context, req CellRequest, taskDone func(task int)) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	progR, progW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer progR.Close()
	out := &tail{}
	cmd := exec.CommandContext(ctx, Python(), "-m", "temple._cell")
	cmd.Env = workerEnv()
	cmd.Stdin = strings.NewReader(string(body))
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = []*os.File{progW}
	if err := cmd.Start(); err != nil {
		progW.Close()
		return fmt.Errorf("starting the Python worker (%s -m temple._cell; set TEMPLE_PYTHON to choose the interpreter): %w", Python(), err)
	}
	progW.Close()
	var failure error
	done := false
	lines := bufio.NewScanner(progR)
	lines.Buffer(make([]byte, 64<<10), maxLine)
	for lines.Scan() {
		word, rest, _ := strings.Cut(lines.Text(), " ")
		switch word {
		case "task":
			if k, err := strconv.Atoi(rest); err == nil {
				taskDone(k)
			}
		case "error":
			var msg string
			if json.Unmarshal([]byte(rest), &msg) != nil {
				msg = rest
			}
			failure = errors.New(msg)
		case "done":
			done = true
		}
	}
	err = cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case failure != nil:
		return failure
	case err != nil:
		return fmt.Errorf("the Python worker ended (%v) before the cell was done%s", err, out.String())
	case !done:
		return fmt.Errorf("the Python worker ended before the cell was done%s", out.String())
	}
	return nil
}
