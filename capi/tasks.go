package main

// Where the environments' tasks (envs.go) come from: a run's task sequence, drawn by the families
// registry from the run's sequence stream (package stream) and built as the runner builds it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/stream"
)

// runTask is one task of a run as the environments step it.
type runTask struct {
	def   env.Task
	table mdp.Dynamics  // a table task's true MDP (a stored model, or computed on demand); nil for a simulator
	sim   env.Simulated // a simulator task; nil for a table
	fixed int           // the start state under start: fixed
	S, A  int           // the task's states and actions, of the table or the simulator
}

// model is the table task's stored model, built from its definition when it is computed on demand.
func (t runTask) model() (*mdp.Model, error) {
	if m, ok := t.table.(*mdp.Model); ok {
		return m, nil
	}
	return t.def.Model()
}

// linePrefix is the line number of an error about the one-line JSON tasks block.
var linePrefix = regexp.MustCompile(`^line \d+: `)

// onDemandPairs is the size, in state-action pairs, from which a task that can compute its rows
// when they are read (env.OnDemand) is stepped that way instead of from a stored model, as the
// runner does (experiment.OnDemandPairs, which TestOnDemandPairsIsTheRunners keeps it equal to):
// the same transitions, a few bytes per cell.
const onDemandPairs = 1 << 18

// drawRun draws and builds the task sequence of run run of an experiment with seed seed whose
// tasks: block is spec, with the settings set.
func drawRun(spec families.Spec, set settings, seed uint64, run int) ([]runTask, error) {
	seq, err := spec.Params.Sequence(run, stream.New(seed, run, "", 0, stream.Sequence))
	if err != nil {
		return nil, fmt.Errorf("tasks: %w", err)
	}
	var out []runTask
	for k, def := range seq {
		t, err := buildTask(def, set)
		if err != nil {
			return nil, fmt.Errorf("tasks: run %d, task %d (%s): %w", run, k, def.Name(), err)
		}
		out = append(out, t)
	}
	return out, nil
}

// decodeFamily reads family's parameters (a JSON object of its config keys) onto its defaults, as
// a config's tasks: block is read, and validates them.
func decodeFamily(family, params string) (families.Spec, error) {
	block := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader([]byte(orEmptyObject(params))))
	dec.UseNumber() // integers stay exact
	if err := dec.Decode(&block); err != nil {
		return families.Spec{}, fmt.Errorf("family %s: parameters %s are not a JSON object: %v", family, params, err)
	}
	if _, ok := block["family"]; ok {
		return families.Spec{}, fmt.Errorf("family %s: \"family\" is not a parameter here: the family is an argument of its own", family)
	}
	block["family"] = family
	doc, err := json.Marshal(block)
	if err != nil {
		return families.Spec{}, err
	}
	var spec families.Spec
	if err := yaml.Unmarshal(doc, &spec); err != nil {
		// The line is that of the one-line JSON document: it says nothing.
		return families.Spec{}, fmt.Errorf("%s", linePrefix.ReplaceAllString(err.Error(), ""))
	}
	return spec, spec.Validate()
}

// buildTask builds a task of the sequence: a simulator (validated by building one), or a table
// — on demand when it is large, else its stored model — with its fixed start under start: fixed.
func buildTask(def env.Task, set settings) (runTask, error) {
	t := runTask{def: def}
	if sim, ok := def.(env.Simulated); ok {
		sm, err := sim.Simulator()
		if err != nil {
			return t, err
		}
		t.sim = sim
		t.S, t.A = sm.Size()
		return t, nil
	}
	var err error
	if od, ok := def.(env.OnDemand); ok && pairs(od) >= onDemandPairs {
		t.table, err = od.Dynamics()
	} else {
		t.table, err = def.Model()
	}
	if err != nil {
		return t, err
	}
	t.S, t.A = t.table.Size()
	if set.Start == startFixed {
		t.fixed, err = fixedStart(set, def, t.table)
	}
	return t, err
}

func pairs(t env.Sized) int64 {
	S, A := t.Size()
	return int64(S) * int64(A)
}

// fixedStart is a table task's start under start: fixed: start_state when given, else the state
// of start_cell in a grid task; not a terminal state.
func fixedStart(set settings, def env.Task, d mdp.Dynamics) (int, error) {
	S, _ := d.Size()
	s := 0
	if set.StartState != nil {
		if s = *set.StartState; s < 0 || s >= S {
			return 0, fmt.Errorf("start_state = %d, want a state of the task's %d", s, S)
		}
	} else if grid, ok := def.(env.CellTask); !ok {
		return 0, fmt.Errorf("start_cell = %v needs a grid task; give start_state instead", set.StartCell)
	} else if s, ok = grid.StateOfCell(env.Cell{X: set.StartCell[0], Y: set.StartCell[1]}); !ok {
		return 0, fmt.Errorf("start_cell = %v is not an open cell of the task", set.StartCell)
	}
	if d.Terminal(s) {
		return 0, fmt.Errorf("the fixed start state %d is terminal", s)
	}
	return s, nil
}
