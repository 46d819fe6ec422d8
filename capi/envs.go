package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/temple-rl/temple/episode"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/mdp"
)

// settings are how the episodes of a run's tasks go, the keys of an experiment config outside
// its tasks: block, with the defaults of an experiment config.
type settings struct {
	Episodes int     `json:"episodes"` // E: the episodes of a task in the runner (the environment does not count them)
	Steps    int     `json:"steps"`    // T: an episode is truncated after T steps
	Gamma    float64 `json:"gamma"`    // γ, for the learner
	Start    string  `json:"start"`    // random-per-task, random-per-episode or fixed
	// StartCell and StartState are the fixed start of start: fixed, as in a config.
	StartCell  [2]int `json:"start_cell"`
	StartState *int   `json:"start_state,omitempty"`
}

// settingWant says what each setting takes, for the message of a value of another kind.
var settingWant = map[string]string{"episodes": "an integer", "steps": "an integer", "gamma": "a number",
	"start": "a string", "start_cell": "a list of 2 integers", "start_state": "an integer"}

// The start rules of a config's start key.
const (
	startPerTask    = "random-per-task"
	startPerEpisode = "random-per-episode"
	startFixed      = "fixed"
)

// episodes is how the episodes of the settings run (episode.Config).
func (s settings) episodes() episode.Config {
	starts := map[string]episode.Starts{startPerTask: episode.StartPerTask, startPerEpisode: episode.StartPerEpisode,
		startFixed: episode.StartFixed}
	return episode.Config{Episodes: s.Episodes, Steps: s.Steps, Gamma: s.Gamma, Starts: starts[s.Start]}
}

func defaultSettings() settings {
	return settings{Episodes: 3000, Steps: 30, Gamma: 0.95, Start: startPerTask, StartCell: [2]int{1, 1}}
}

// decodeSettings reads settings given as a JSON object onto the defaults; an unknown key or a
// value out of range fails naming it.
func decodeSettings(text string) (settings, error) {
	set := defaultSettings()
	if len(bytes.TrimSpace([]byte(text))) > 0 {
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&set); err != nil {
			var typeErr *json.UnmarshalTypeError
			if errors.As(err, &typeErr) { // in the settings' words, not Go's
				return settings{}, fmt.Errorf("%s = a JSON %s, want %s", typeErr.Field, typeErr.Value, settingWant[typeErr.Field])
			}
			return settings{}, fmt.Errorf("settings %s: %v (the settings are episodes, steps, gamma, start, start_cell, start_state)", text, err)
		}
	}
	switch {
	case set.Episodes < 1:
		return settings{}, fmt.Errorf("episodes = %d, want >= 1", set.Episodes)
	case set.Steps < 1:
		return settings{}, fmt.Errorf("steps = %d, want >= 1", set.Steps)
	case !(set.Gamma >= 0 && set.Gamma < 1):
		return settings{}, fmt.Errorf("gamma = %v, want 0 <= gamma < 1", set.Gamma)
	case set.Start != startPerTask && set.Start != startPerEpisode && set.Start != startFixed:
		return settings{}, fmt.Errorf("start = %q, want %s, %s or %s", set.Start, startPerTask, startPerEpisode, startFixed)
	}
	return set, nil
}

// tasks is one run's task sequence behind a handle: the tasks of a family drawn as the runner
// draws them in run run of an experiment with seed seed, with the settings of their episodes.
// The environments of its tasks (taskEnv) step them with the random streams the runner gives
// agent name.
type tasks struct {
	guard
	family string
	spec   families.Spec // the family and its parameters, the defaults included
	seed   uint64
	run    int
	agent  string
	set    settings
	list   []runTask
	// horizons[k] are task k's finite-horizon optimal values over T steps, solved on first use.
	horizons []*mdp.Horizon
}

func newTasks(family, params, settingsJSON string, seed uint64, run int, agentName string) (*tasks, error) {
	if run < 0 {
		return nil, fmt.Errorf("run = %d, want >= 0", run)
	}
	set, err := decodeSettings(settingsJSON)
	if err != nil {
		return nil, err
	}
	spec, err := decodeFamily(family, params)
	if err != nil {
		return nil, err
	}
	list, err := drawRun(spec, set, seed, run)
	if err != nil {
		return nil, err
	}
	return &tasks{family: family, spec: spec, seed: seed, run: run, agent: agentName, set: set, list: list,
		horizons: make([]*mdp.Horizon, len(list))}, nil
}

// taskInfo describes one task of a sequence, for the caller's info and spaces.
type taskInfo struct {
	Index     int             `json:"index"`
	Family    string          `json:"family"` // the task's kind (maze, frozenlake, ...): its family key in a task-sequence file
	Name      string          `json:"name"`
	Params    json.RawMessage `json:"params"` // the task's definition, as a task-sequence file holds it
	States    int             `json:"n_states"`
	Actions   int             `json:"n_actions"`
	Terminal  []int           `json:"terminal_states"` // declared up front as the runner declares them; a simulator's are learned
	Simulator bool            `json:"simulator"`
}

// info is the sequence as JSON: the family, its parameters (with their defaults), the settings
// and each task.
func (ts *tasks) info() (string, error) {
	params := map[string]any{}
	if b, err := ts.spec.MarshalJSON(); err != nil {
		return "", err
	} else if err := json.Unmarshal(b, &params); err != nil {
		return "", err
	}
	delete(params, "family")
	out := struct {
		Family   string         `json:"family"`
		Params   map[string]any `json:"params"`
		Seed     uint64         `json:"seed"`
		Run      int            `json:"run"`
		Agent    string         `json:"agent"`
		Settings settings       `json:"settings"`
		Tasks    []taskInfo     `json:"tasks"`
	}{Family: ts.family, Params: params, Seed: ts.seed, Run: ts.run,
		Agent: ts.agent, Settings: ts.set, Tasks: []taskInfo{}}
	for k, t := range ts.list {
		def, err := json.Marshal(t.def)
		if err != nil {
			def = []byte("null")
		}
		ti := taskInfo{Index: k, Family: t.def.Kind(), Name: t.def.Name(), Params: def, Simulator: t.sim != nil,
			States: t.S, Actions: t.A, Terminal: []int{}}
		if t.sim == nil {
			for s, term := range t.table.TerminalStates() {
				if term {
					ti.Terminal = append(ti.Terminal, s)
				}
			}
		}
		out.Tasks = append(out.Tasks, ti)
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func orEmptyObject(s string) string {
	if len(bytes.TrimSpace([]byte(s))) == 0 {
		return "{}"
	}
	return s
}

func (ts *tasks) task(k int) (runTask, error) {
	if k < 0 || k >= len(ts.list) {
		return runTask{}, fmt.Errorf("task %d out of range [0, %d)", k, len(ts.list))
	}
	return ts.list[k], nil
}

// optimalValue is V_T(s), the finite-horizon optimum of an episode of T = steps steps from state s
// of task k: the runner's optimal_reward of one episode (mdp.FiniteHorizon).
func (ts *tasks) optimalValue(k int, s int64) (float64, error) {
	t, err := ts.task(k)
	if err != nil {
		return 0, err
	}
	if t.sim != nil {
		return 0, fmt.Errorf("task %d (%s) is a simulator: it has no true model, so no optimal value", k, t.def.Name())
	}
	S, _ := t.table.Size()
	if s < 0 || s >= int64(S) {
		return 0, fmt.Errorf("optimal_value: state %d out of range [0, %d)", s, S)
	}
	if ts.horizons[k] == nil {
		m, err := t.model()
		if err != nil {
			return 0, err
		}
		h, err := mdp.FiniteHorizon(m, ts.set.Steps)
		if err != nil {
			return 0, err
		}
		ts.horizons[k] = &h
	}
	return ts.horizons[k].Value(ts.set.Steps, int(s)), nil
}

// Flags of a step's result: the next state in the low 32 bits, then whether the step terminated
// the episode and whether it truncated it.
const (
	stepTerminated = 1 << 32
	stepTruncated  = 1 << 33
)

// taskEnv is one task of a sequence stepped from outside, as the runner steps it for the agent
// the sequence names (episode.Env: the runner's rules and streams): reset starts an episode, step
// takes one action. An episode ends when it reaches a terminal state (terminated), or after T
// steps or at a simulator's own time limit (truncated).
type taskEnv struct {
	guard
	env *episode.Env
}

// newEnv is task k's environment with its streams at their beginning, for an experiment of seed
// seed (the sequence's, unless the caller re-seeds).
func (ts *tasks) newEnv(k int, seed uint64) (*taskEnv, error) {
	t, err := ts.task(k)
	if err != nil {
		return nil, err
	}
	task := episode.Task{Index: k, Name: t.def.Name(), Table: t.table, Fixed: t.fixed}
	if t.sim != nil {
		if task.Sim, err = t.sim.Simulator(); err != nil {
			return nil, err
		}
	}
	// The runner's streams for agent ts.agent.
	e, err := episode.NewEnv(task, ts.set.episodes(), episode.StreamsOf(seed, ts.run, ts.agent, k))
	if err != nil {
		return nil, err
	}
	return &taskEnv{env: e}, nil
}

// reset starts an episode and returns its start state.
func (e *taskEnv) reset() (int64, error) {
	s, err := e.env.Reset()
	if err != nil {
		return 0, fmt.Errorf("reset: %w", err)
	}
	return int64(s), nil
}

// step takes action a and returns the next state with the flags stepTerminated and
// stepTruncated, and the reward.
func (e *taskEnv) step(a int64) (int64, float64, error) {
	next, r, terminated, truncated, err := e.env.Step(int(a))
	if err != nil {
		return 0, 0, fmt.Errorf("step: %w", err)
	}
	out := int64(next)
	if terminated {
		out |= stepTerminated
	}
	if truncated {
		out |= stepTruncated
	}
	return out, r, nil
}
