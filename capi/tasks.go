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
	"github.com/temple-rl/temple/internal/sysmem"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/mdp"
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

// linePrefix is the line number of an error about a one-line JSON block of parameters.
var linePrefix = regexp.MustCompile(`^line \d+: `)

// drawRun draws and builds the task sequence of run run of an experiment with seed seed whose
// tasks: block is spec, with the settings set.
func drawRun(spec families.Spec, set settings, seed uint64, run int) ([]runTask, error) {
	seq, err := spec.Draw(seed, run)
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
		// In a config's words, not the YAML library's (width = "five", want an integer). The line
		// is that of the one-line JSON document: it says nothing.
		var root yaml.Node
		_ = yaml.Unmarshal(doc, &root) // it decoded as JSON above: it parses
		return families.Spec{}, fmt.Errorf("%s", linePrefix.ReplaceAllString(yamlkeys.Words(err, &root).Error(), ""))
	}
	if err := spec.Validate(); err != nil {
		return families.Spec{}, err
	}
	// Sizes before any draw: a draw that exhausts the memory kills the caller's process, which no
	// recover at the boundary can turn into an error.
	if n := families.TasksPerRun(spec.Params); n > families.MaxTasksPerRun {
		return families.Spec{}, fmt.Errorf("family %s: a run would hold %d tasks (count, per_size × sizes, repeat), more than the %d a run may hold",
			family, n, families.MaxTasksPerRun)
	}
	if need, have := families.DrawBytes(spec.Params), sysmem.Total(); have > 0 && need > have {
		return families.Spec{}, fmt.Errorf("family %s: drawing a run's tasks holds about %d MB, more than the machine's %d MB", family, need>>20, have>>20)
	}
	return spec, nil
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
	if sz, ok := def.(env.Sized); ok {
		if S, A := sz.Size(); int64(S)*int64(A) > maxPairs {
			return t, fmt.Errorf("task %s: %d states · %d actions, more than the %d pairs a task may have", def.Name(), S, A, maxPairs)
		}
	}
	var err error
	if od, ok := env.LargeOnDemand(def); ok {
		t.table, err = od.Dynamics()
	} else {
		t.table, err = def.Model()
	}
	if err != nil {
		return t, err
	}
	t.S, t.A = t.table.Size()
	if set.Start == startFixed {
		t.fixed, err = env.FixedStart(def, t.table, set.StartState, env.Cell{X: set.StartCell[0], Y: set.StartCell[1]})
	}
	return t, err
}
