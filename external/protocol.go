// Package external runs learners written outside temple as temple agents: a program in any
// language that speaks temple's agent protocol on its standard input and output (type: external),
// and the pieces a Python learner needs (type: python), whose calls cross into the Python process
// through the C library instead of a pipe. To the runner either is an agent.Agent like any other,
// with agent.Remote: a failure of the other side ends its cell with the agent's name and the
// error, never the run's other cells.
//
// # The protocol, version 1
//
// One JSON object a line, UTF-8, in both directions (docs/reference/external-agents.md has it for
// the learner's author, with a complete learner in Python). temple writes:
//
//	{"type":"hello","protocol":1,"name":N,"seed":U,"params":{...}}   → {"type":"ready","protocol":1}
//	{"type":"begin_task","index":K,"n_states":S,"n_actions":A,"gamma":G,"terminal":[...],"seed":U}
//	{"type":"act","state":s}                                            → {"action":a}
//	{"type":"observe_act","state":s,"action":a,"reward":r,"next_state":s2,"terminated":false}
//	                                                                    → {"action":a2}
//	{"type":"observe","state":s,"action":a,"reward":r,"next_state":s2,"terminated":t}
//	{"type":"end_episode"}
//	{"type":"end_task"}                                                 → {"metrics":{...}}
//	{"type":"close"}
//
// A line with → waits for the learner's answer, the others do not: a step of an episode is one
// round trip (observe_act: the step just taken and the action in the state it led to), the last
// step of an episode is an observe, followed by end_episode. Any answer may instead be
// {"type":"error","message":"..."}, which fails the cell with that message. The learner's standard
// error is its own (temple keeps its last lines for the error of a failed cell).
package external

import (
	"encoding/json"
	"fmt"
)

// Version is the protocol's version, sent in hello; a learner that answers another refuses to run.
const Version = 1

// hello opens a cell: the learner is built with its name, its seed (the runner's stream of this
// agent and run) and its parameters.
type hello struct {
	Type     string         `json:"type"`
	Protocol int            `json:"protocol"`
	Name     string         `json:"name"`
	Seed     uint64         `json:"seed"`
	Params   map[string]any `json:"params"`
}

// beginTask is agent.Task for the other side: the task's sizes, γ, its terminal states and a seed
// drawn from the learner's stream of the task.
type beginTask struct {
	Type     string  `json:"type"`
	Index    int     `json:"index"`
	NStates  int     `json:"n_states"`
	NActions int     `json:"n_actions"`
	Gamma    float64 `json:"gamma"`
	Terminal []int   `json:"terminal"`
	Seed     uint64  `json:"seed"`
}

// step is a transition (s, a, r, s′), with whether s′ is terminal.
type step struct {
	Type       string  `json:"type"`
	State      int     `json:"state"`
	Action     int     `json:"action"`
	Reward     float64 `json:"reward"`
	NextState  int     `json:"next_state"`
	Terminated bool    `json:"terminated"`
}

// act asks for the action in a state.
type act struct {
	Type  string `json:"type"`
	State int    `json:"state"`
}

// bare is a message with no fields but its type (end_episode, end_task, close).
type bare struct {
	Type string `json:"type"`
}

// answer is any line the learner writes.
type answer struct {
	Type     string             `json:"type"`
	Protocol int                `json:"protocol"`
	Action   *int               `json:"action"`
	Metrics  map[string]float64 `json:"metrics"`
	Message  string             `json:"message"`
}

// decodeAnswer reads one line of the learner's; what (act, ready, metrics) names the answer
// awaited, for the errors.
func decodeAnswer(line []byte, what string) (answer, error) {
	var a answer
	if err := json.Unmarshal(line, &a); err != nil {
		return answer{}, fmt.Errorf("answered %s with %q, not a JSON object: %v", what, clip(line), err)
	}
	if a.Type == "error" {
		return answer{}, fmt.Errorf("the learner's error: %s", a.Message)
	}
	return a, nil
}

// clip is at most 200 bytes of line, for an error message.
func clip(line []byte) string {
	if len(line) > 200 {
		return string(line[:200]) + "…"
	}
	return string(line)
}
