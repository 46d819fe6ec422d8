package external

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxLine bounds a line of the learner's: a longer one is junk, not an answer.
const maxLine = 1 << 20

// Process is a learner in a process of its own, speaking the protocol on its standard input and
// output (type: external). Each answer is awaited at most Timeout; a process that does not answer
// in time is killed.
type Process struct {
	cmd     *exec.Cmd
	in      *os.File
	w       *bufio.Writer
	out     *os.File
	r       *bufio.Reader
	stderr  *tail
	timeout time.Duration
	exited  chan struct{} // closed once cmd.Wait has returned
	waitErr error
	closed  bool
}

// Command says how to start a learner's process.
type Command struct {
	Args    []string // the program and its arguments
	Dir     string   // its working directory ("": temple's)
	Env     []string // its environment (nil: temple's)
	Timeout time.Duration
}

// Start starts the process of c and opens its cell with hello: the learner named name, of the
// given seed and parameters. It returns once the learner has answered ready.
func Start(c Command, name string, seed uint64, params map[string]any) (*Process, error) {
	if len(c.Args) == 0 {
		return nil, errors.New("no command to start")
	}
	if c.Timeout <= 0 {
		return nil, fmt.Errorf("timeout %v, want a duration > 0", c.Timeout)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p := &Process{in: inW, w: bufio.NewWriter(inW), out: outR, r: bufio.NewReaderSize(outR, 64<<10),
		stderr: &tail{}, timeout: c.Timeout, exited: make(chan struct{})}
	p.cmd = exec.Command(c.Args[0], c.Args[1:]...)
	p.cmd.Dir, p.cmd.Env = c.Dir, c.Env
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, p.stderr
	err = p.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("starting %s: %w", strings.Join(c.Args, " "), err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.exited)
	}()
	if params == nil {
		params = map[string]any{}
	}
	a, err := p.ask(hello{Type: "hello", Protocol: Version, Name: name, Seed: seed, Params: params}, "hello")
	if err == nil && (a.Type != "ready" || a.Protocol != Version) {
		err = fmt.Errorf("answered hello with type %q and protocol %d, want type \"ready\" and protocol %d", a.Type, a.Protocol, Version)
	}
	if err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// send writes msg as a line, to be flushed with the next request.
func (p *Process) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	p.w.Write(b)
	return p.w.WriteByte('\n')
}

// ask writes msg, flushes, and reads the answer's line within the timeout.
func (p *Process) ask(msg any, what string) (answer, error) {
	if err := p.send(msg); err != nil {
		return answer{}, p.lost(err)
	}
	if err := p.w.Flush(); err != nil {
		return answer{}, p.lost(err)
	}
	p.out.SetReadDeadline(time.Now().Add(p.timeout))
	line, err := p.r.ReadSlice('\n')
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		p.kill()
		return answer{}, fmt.Errorf("no answer to %s within %v (timeout; the process was stopped)%s", what, p.timeout, p.stderr.String())
	case errors.Is(err, bufio.ErrBufferFull):
		p.kill()
		return answer{}, fmt.Errorf("answered %s with a line longer than %d bytes", what, p.r.Size())
	case err != nil:
		return answer{}, p.lost(err)
	}
	return decodeAnswer(bytes.TrimSpace(line), what)
}

// lost is the error of a pipe that failed: the process ended, with its status and the last lines
// it wrote on its standard error.
func (p *Process) lost(err error) error {
	select {
	case <-p.exited:
	case <-time.After(p.timeout):
		p.kill()
	}
	if p.waitErr != nil {
		return fmt.Errorf("the process ended (%v)%s", p.waitErr, p.stderr.String())
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("the process ended before answering%s", p.stderr.String())
	}
	return fmt.Errorf("the process's pipe: %v%s", err, p.stderr.String())
}

// kill stops the process and waits for it.
func (p *Process) kill() {
	p.cmd.Process.Kill()
	<-p.exited
}

func (p *Process) BeginTask(t Task) error {
	if t.Terminal == nil {
		t.Terminal = []int{}
	}
	return p.send(beginTask{Type: "begin_task", Index: t.Index, NStates: t.States, NActions: t.Actions, Gamma: t.Gamma,
		Terminal: t.Terminal, Seed: t.Seed})
}

func (p *Process) Act(s int) (int, error) {
	return p.action(act{Type: "act", State: s}, "act")
}

func (p *Process) ObserveAct(st Step) (int, error) {
	return p.action(step{Type: "observe_act", State: st.State, Action: st.Action, Reward: st.Reward, NextState: st.Next,
		Terminated: st.Terminated}, "observe_act")
}

// action asks msg and reads the action of its answer.
func (p *Process) action(msg any, what string) (int, error) {
	a, err := p.ask(msg, what)
	if err != nil {
		return 0, err
	}
	if a.Action == nil {
		return 0, fmt.Errorf("answered %s without an action", what)
	}
	return *a.Action, nil
}

func (p *Process) Observe(st Step) error {
	return p.send(step{Type: "observe", State: st.State, Action: st.Action, Reward: st.Reward, NextState: st.Next,
		Terminated: st.Terminated})
}

func (p *Process) EndEpisode() error { return p.send(bare{Type: "end_episode"}) }

func (p *Process) EndTask() (map[string]float64, error) {
	a, err := p.ask(bare{Type: "end_task"}, "end_task")
	if err != nil {
		return nil, err
	}
	return a.Metrics, nil
}

// Close says close, closes the process's input and waits for it to end, at most the timeout
// (then it is stopped). A process that ends with an error status fails.
func (p *Process) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	p.send(bare{Type: "close"})
	p.w.Flush()
	p.in.Close()
	defer p.out.Close()
	select {
	case <-p.exited:
	case <-time.After(p.timeout):
		p.kill()
		return fmt.Errorf("the process did not end within %v of close (it was stopped)", p.timeout)
	}
	if p.waitErr != nil {
		return fmt.Errorf("the process ended with %v%s", p.waitErr, p.stderr.String())
	}
	return nil
}

// tail keeps the last lines a process writes on its standard error, for the error of a failed
// cell.
type tail struct {
	mu    sync.Mutex
	lines []string
	part  []byte
}

// tailLines is how many lines a tail keeps.
const tailLines = 12

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.part = append(t.part, b...)
	for {
		i := bytes.IndexByte(t.part, '\n')
		if i < 0 {
			break
		}
		t.lines = append(t.lines, string(t.part[:i]))
		t.part = t.part[i+1:]
	}
	if len(t.part) > maxLine {
		t.lines, t.part = append(t.lines, string(t.part[:200])+"…"), nil
	}
	if len(t.lines) > tailLines {
		t.lines = t.lines[len(t.lines)-tailLines:]
	}
	return len(b), nil
}

// reset forgets the lines kept so far.
func (t *tail) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines, t.part = nil, nil
}

// String is ":" and the kept lines, indented, or "" when the process wrote none.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	if len(t.part) > 0 {
		lines = append(slices.Clone(lines), string(t.part))
	}
	if len(lines) == 0 {
		return ""
	}
	return "; its last lines on standard error:\n    " + strings.Join(lines, "\n    ")
}
