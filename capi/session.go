package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners" // every built-in learner, for the C library and Python
	"github.com/temple-rl/temple/internal/sysmem"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/stream"
	"github.com/temple-rl/temple/template"
)

// maxPairs bounds S·A of a task: templates index states as int32.
const maxPairs = math.MaxInt32

// session is one agent behind a handle, with the state of the protocol of agent.Agent that the
// boundary checks: BeginTask, then Act/Observe, EndEpisode after each episode, EndTask. Its
// methods are called with mu held; they check every argument before the learner sees it, so a
// refused call leaves the learner as it was.
type session struct {
	guard

	typ    string
	params agenttypes.Params // for the memory check of each task begun
	name   string            // the agent's name in the runner, which names its random streams
	seed   uint64
	run    int

	ag   agent.Agent
	term agent.TerminalObserver

	inTask    bool
	began     int // tasks begun
	ended     int // tasks ended
	S, A      int
	terminal  []bool // states known terminal in the current task, declared or learned from a step
	inEpisode bool   // a step was observed since the last EndEpisode

}

// newSession builds an agent of type typ with the parameters of params (a JSON object of config
// keys; empty: the defaults). name, when empty, is the type's display name for these parameters:
// what the runner names it unless a config does.
func newSession(typ, params string, seed uint64, run int, name string) (*session, error) {
	t, err := agenttypes.Lookup(typ)
	if err != nil {
		return nil, err
	}
	var node *yaml.Node
	if len(bytes.TrimSpace([]byte(params))) > 0 {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(params), &doc); err != nil {
			return nil, fmt.Errorf("agent type %s: parameters %q are not a JSON object: %v", typ, params, err)
		}
		if len(doc.Content) == 1 {
			node = doc.Content[0]
		}
		if node == nil || node.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("agent type %s: parameters %q are not a JSON object", typ, params)
		}
		for i := 0; i+1 < len(node.Content); i += 2 {
			if k := node.Content[i].Value; k == "name" || k == "type" {
				return nil, fmt.Errorf("agent type %s: %q is not a parameter here: the type and the name are arguments of their own", typ, k)
			}
		}
	}
	p, err := agenttypes.Decode(t.Name, node)
	if err != nil {
		// In a config's words, not the YAML library's; the line of the one-line JSON says nothing.
		return nil, fmt.Errorf("%s", linePrefix.ReplaceAllString(yamlkeys.Words(err, node).Error(), ""))
	}
	if drivable(p) != nil {
		return nil, drivable(p)
	}
	if agenttypes.NeedsModels(p) {
		return nil, fmt.Errorf("agent type %s is built from the true models of all tasks of a run, which a learner driven step by step does not have: run it with the temple CLI; the types that can be driven are %s", typ, drivableList())
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if run < 0 {
		return nil, fmt.Errorf("run = %d, want >= 0", run)
	}
	ag, err := p.New(agenttypes.Context{})
	if err != nil {
		return nil, err
	}
	term, ok := ag.(agent.TerminalObserver)
	if !ok {
		return nil, fmt.Errorf("agent type %s cannot learn terminal states from steps (agent.TerminalObserver)", typ)
	}
	if name == "" {
		name = agenttypes.DisplayName(t, p)
	}
	return &session{typ: t.Name, params: p, name: name, seed: seed, run: run, ag: ag, term: term}, nil
}

// fits refuses a task of S states and A actions whose learner would not fit in the machine's
// memory by the registry's estimate (agenttypes.Memory): the allocation would kill the caller's
// process, which no recover at the boundary can turn into an error.
func (s *session) fits(S, A int) error {
	t, err := agenttypes.Lookup(s.typ)
	if err != nil {
		return err
	}
	need, have := agenttypes.Memory(t, s.params, int64(S), int64(A), 1, 0), sysmem.Total()
	if have > 0 && need > have {
		return fmt.Errorf("begin_task: agent type %s needs about %d MB for a task of %d states and %d actions, more than the machine's %d MB", s.typ, need>>20, S, A, have>>20)
	}
	return nil
}

// drivable refuses the learners written outside temple (type: python, type: external): from
// Python, a learner of one's own is driven directly; temple runs them only in experiments.
func drivable(p agenttypes.Params) error {
	if agenttypes.Outside(p) {
		return fmt.Errorf("agent types python and external are your own learners, for experiments (temple run): drive your class directly, or see docs/guides/own-learner.md")
	}
	return nil
}

// drivableList names the registered types that need no models and are temple's own.
func drivableList() string {
	var b bytes.Buffer
	for _, t := range agenttypes.Types() {
		if p := t.Defaults(); !agenttypes.NeedsModels(p) && drivable(p) == nil {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(t.Name)
		}
	}
	return b.String()
}

// beginTask begins task index with S states, A actions and discount γ; terminal lists the states
// declared terminal up front (as the Go runner declares a tabular task's), the others are learned
// from the steps that report terminated. The learner's random stream is the one the runner gives
// it (stream.ForAgent).
func (s *session) beginTask(index, S, A int, gamma float64, terminal []int64) error {
	switch {
	case s.inTask:
		return fmt.Errorf("begin_task: task %d has not ended: call end_task first", s.began-1)
	case index < 0:
		return fmt.Errorf("begin_task: index = %d, want >= 0", index)
	case S < 1:
		return fmt.Errorf("begin_task: n_states = %d, want >= 1", S)
	case A < 1:
		return fmt.Errorf("begin_task: n_actions = %d, want >= 1", A)
	case int64(S)*int64(A) > maxPairs:
		return fmt.Errorf("begin_task: n_states·n_actions = %d·%d, want at most %d pairs", S, A, maxPairs)
	case !(gamma >= 0 && gamma < 1):
		return fmt.Errorf("begin_task: gamma = %v, want 0 <= gamma < 1", gamma)
	}
	if err := s.fits(S, A); err != nil {
		return err
	}
	var declared []bool
	for _, x := range terminal {
		if x < 0 || x >= int64(S) {
			return fmt.Errorf("begin_task: terminal state %d out of range [0, %d)", x, S)
		}
		if declared == nil {
			declared = make([]bool, S)
		}
		declared[x] = true
	}
	err := s.ag.BeginTask(agent.Task{Index: index, S: S, A: A, Gamma: gamma,
		Rand: stream.ForAgent(s.seed, s.run, s.name, index), Terminal: declared})
	if err != nil {
		return fmt.Errorf("begin_task: %w", err)
	}
	s.inTask, s.S, s.A, s.inEpisode = true, S, A, false
	s.began++
	// The learner may keep Task.Terminal: the boundary's own record is a copy.
	s.terminal = make([]bool, S)
	copy(s.terminal, declared)
	return nil
}

var errNoTask = errors.New("no task in progress: call begin_task first")

// act is the learner's action in state st.
func (s *session) act(st int64) (int, error) {
	if !s.inTask {
		return 0, fmt.Errorf("act: %w", errNoTask)
	}
	if st < 0 || st >= int64(s.S) {
		return 0, fmt.Errorf("act: state %d out of range [0, %d)", st, s.S)
	}
	a := s.ag.Act(int(st))
	if a < 0 || a >= s.A {
		return 0, fmt.Errorf("act: agent %s chose action %d out of range [0, %d)", s.name, a, s.A)
	}
	return a, nil
}

// observe reports the step (st, a, r, next); terminated says that next is terminal, which the
// learner is told (ObserveTerminal) before the step the first time.
func (s *session) observe(st, a int64, r float64, next int64, terminated bool) error {
	switch {
	case !s.inTask:
		return fmt.Errorf("observe: %w", errNoTask)
	case st < 0 || st >= int64(s.S):
		return fmt.Errorf("observe: state %d out of range [0, %d)", st, s.S)
	case a < 0 || a >= int64(s.A):
		return fmt.Errorf("observe: action %d out of range [0, %d)", a, s.A)
	case math.IsNaN(r) || math.IsInf(r, 0):
		return fmt.Errorf("observe: reward %v, want a finite number", r)
	case next < 0 || next >= int64(s.S):
		return fmt.Errorf("observe: next state %d out of range [0, %d)", next, s.S)
	}
	if terminated && !s.terminal[next] {
		s.terminal[next] = true
		s.term.ObserveTerminal(int(next))
	}
	s.ag.Observe(int(st), int(a), r, int(next))
	s.inEpisode = true
	return nil
}

// observeAct is observe of a step that did not terminate, then act in its next state: the two
// calls of one step of an episode that goes on, in the order the runner makes them.
func (s *session) observeAct(st, a int64, r float64, next int64) (int, error) {
	if err := s.observe(st, a, r, next, false); err != nil {
		return 0, err
	}
	return s.act(next)
}

func (s *session) endEpisode() error {
	if !s.inTask {
		return fmt.Errorf("end_episode: %w", errNoTask)
	}
	s.ag.EndEpisode()
	s.inEpisode = false
	return nil
}

func (s *session) endTask() error {
	switch {
	case !s.inTask:
		return fmt.Errorf("end_task: %w", errNoTask)
	case s.inEpisode:
		return errors.New("end_task: the episode in progress has not ended: call end_episode first")
	}
	s.ag.EndTask()
	s.inTask = false
	s.ended++
	return nil
}

// metrics are the learner's diagnostics of the task that ended last (agent.Reporter), as a JSON
// object in the learner's order; {} for learners without any. Non-finite values are written as
// NaN, Infinity and -Infinity, which Python's json reads.
func (s *session) metrics() (string, error) {
	if s.ended == 0 {
		return "", errors.New("metrics: no task has ended yet: they are the diagnostics of the last ended task")
	}
	rep, ok := s.ag.(agent.Reporter)
	if !ok {
		return "{}", nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range rep.TaskMetrics() {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(m.Name)
		b.Write(k)
		b.WriteString(": ")
		switch {
		case math.IsNaN(m.Value):
			b.WriteString("NaN")
		case math.IsInf(m.Value, 1):
			b.WriteString("Infinity")
		case math.IsInf(m.Value, -1):
			b.WriteString("-Infinity")
		default:
			b.WriteString(strconv.FormatFloat(m.Value, 'g', -1, 64))
		}
	}
	b.WriteByte('}')
	return b.String(), nil
}

// templates is the template snapshot (template.Snapshot: the library and each pair's template)
// as JSON, or null for learners without templates.
func (s *session) templates() (string, error) {
	sn, ok := s.ag.(template.Snapshotter)
	if !ok {
		return "null", nil
	}
	b, err := json.Marshal(sn.TemplateSnapshot())
	if err != nil {
		return "", fmt.Errorf("templates: %w", err)
	}
	return string(b), nil
}

// typeInfo describes one registered agent type for agent_types.
type typeInfo struct {
	Name     string   `json:"name"`
	Display  string   `json:"display"`
	Summary  string   `json:"summary"`
	Keys     []string `json:"keys"`
	Drivable bool     `json:"drivable"` // false: built from the tasks' true models, refused here
}

func agentTypes() string {
	var out []typeInfo
	for _, t := range agenttypes.Types() {
		p := t.Defaults()
		out = append(out, typeInfo{Name: t.Name, Display: agenttypes.DisplayName(t, p), Summary: t.Summary,
			Keys: agenttypes.Keys(p), Drivable: !agenttypes.NeedsModels(p) && drivable(p) == nil})
	}
	b, _ := json.Marshal(out) // strings and bools only: cannot fail
	return string(b)
}
