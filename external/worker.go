package external

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A Python learner's cell runs in a Python process, the worker (python -m temple._cell, in the
// Python package): it loads the learner's module, checks that its content is the content the
// experiment recorded, and asks temple's C library to run the cell — the runner's own code,
// building the run's tasks from the spec — calling the learner's methods from Go through C
// function pointers. A call costs about a microsecond where a pipe's round trip costs tens (the
// protocol of Process), so that a Python learner runs within the time of a plain Python loop over
// the same tasks. A worker runs the cells it is given one after another (Pool), a request (a
// CellRequest as JSON) a line on its standard input; it writes each cell's file itself and tells
// its progress on a pipe of its own (file descriptor 3), a line at a time:
//
//	task K        task K of the cell finished
//	error "TEXT"  the cell failed (TEXT a JSON string: the learner's error, with its traceback)
//	fatal "TEXT"  the cell failed and the worker ends (a call of the learner's past its timeout)
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

// Pool keeps the Python workers of one experiment's run: a worker, once started, runs cell after
// cell (its start, its library and the learner's module cost about a tenth of a second each
// time), one at a time. Cells run in parallel on as many workers as run at once. Close ends them.
type Pool struct {
	mu   sync.Mutex
	idle []*worker
	all  []*worker
}

// worker is one Python worker process: requests a line each on its standard input, its progress
// on a pipe of its own.
type worker struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines *bufio.Scanner
	out   *tail // its standard output and error, since the cell began
	dead  bool
}

// RunPythonCell runs the cell of req in a worker of the pool and calls taskDone as each task
// finishes. The cell's file is written by the worker; an error says why the cell failed, with
// the learner's own error where it had one.
func (p *Pool) RunPythonCell(ctx context.Context, req CellRequest, taskDone func(task int)) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	w, err := p.get()
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { w.cmd.Process.Kill() })
	defer stop()
	w.out.reset()
	if _, err := w.in.Write(append(body, '\n')); err != nil {
		w.dead = true
	}
	var failure error
	done := false
	for !done && failure == nil && !w.dead && w.lines.Scan() {
		word, rest, _ := strings.Cut(w.lines.Text(), " ")
		switch word {
		case "task":
			if k, err := strconv.Atoi(rest); err == nil {
				taskDone(k)
			}
		case "error", "fatal": // fatal: the worker ends after this line
			var msg string
			if json.Unmarshal([]byte(rest), &msg) != nil {
				msg = rest
			}
			failure, w.dead = errors.New(msg), word == "fatal"
		case "done":
			done = true
		}
	}
	if !done && failure == nil {
		w.dead = true
	}
	p.put(w)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case failure != nil:
		return failure
	case !done:
		w.cmd.Wait()
		return fmt.Errorf("the Python worker ended (%v) before the cell was done%s", w.cmd.ProcessState, w.out.String())
	}
	return nil
}

// get is an idle worker, or a new one.
func (p *Pool) get() (*worker, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	w, err := startWorker()
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.all = append(p.all, w)
	p.mu.Unlock()
	return w, nil
}

// put gives w back, unless it died (a worker stopped by its watchdog, or that crashed).
func (p *Pool) put(w *worker) {
	if w.dead {
		w.cmd.Process.Kill()
		return
	}
	p.mu.Lock()
	p.idle = append(p.idle, w)
	p.mu.Unlock()
}

// startWorker starts a Python worker.
func startWorker() (*worker, error) {
	progR, progW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	w := &worker{out: &tail{}}
	w.cmd = exec.Command(Python(), "-m", "temple._cell")
	w.cmd.Env = workerEnv()
	w.cmd.Stdout, w.cmd.Stderr = w.out, w.out
	w.cmd.ExtraFiles = []*os.File{progW}
	if w.in, err = w.cmd.StdinPipe(); err != nil {
		progR.Close()
		progW.Close()
		return nil, err
	}
	err = w.cmd.Start()
	progW.Close()
	if err != nil {
		progR.Close()
		return nil, fmt.Errorf("starting the Python worker (%s -m temple._cell; set TEMPLE_PYTHON to choose the interpreter): %w", Python(), err)
	}
	w.lines = bufio.NewScanner(progR)
	w.lines.Buffer(make([]byte, 64<<10), maxLine)
	return w, nil
}

// Close ends every worker: each ends when its input closes, or is stopped.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.all {
		w.in.Close()
		done := make(chan struct{})
		go func() { w.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			w.cmd.Process.Kill()
			<-done
		}
	}
	p.all, p.idle = nil, nil
}
