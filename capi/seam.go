package main

// The seam between the environments (envs.go) and where a run's tasks and random streams come
// from. For now both come from the experiment runner's package: its task families (a spec's
// tasks: block, drawn and built by experiment.BuildTasks) and a copy of its stream derivation.
// TODO(python): re-point drawRun to the families registry and streamsOf to package stream when
// they land on main, so that capi does not import experiment.

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/mdp"
)

// runTask is one task of a run as the environments step it.
type runTask struct {
	def   env.Task
	table mdp.Dynamics  // a table task's true MDP (a stored model, or computed on demand); nil for a simulator
	sim   env.Simulated // a simulator task; nil for a table
	fixed int           // the start state under start: fixed
	S, A  int
}

func (t runTask) simSize() (int, int) { return t.S, t.A }

// model is the table task's stored model, built from its definition when it is computed on demand.
func (t runTask) model() (*mdp.Model, error) {
	if m, ok := t.table.(*mdp.Model); ok {
		return m, nil
	}
	return t.def.Model()
}

// linePrefix is the line number of an error about the one-line JSON tasks block.
var linePrefix = regexp.MustCompile(`^line \d+: `)

// drawRun draws and builds the task sequence of run run of an experiment with seed seed whose
// tasks: block is family with params (a JSON object of config keys) and whose episodes go by set.
func drawRun(family, params string, set settings, seed uint64, run int) ([]runTask, error) {
	block := map[string]any{}
	dec := json.NewDecoder(strings.NewReader(orEmptyObject(params)))
	dec.UseNumber() // integers stay exact
	if err := dec.Decode(&block); err != nil {
		return nil, fmt.Errorf("family %s: parameters %s are not a JSON object: %v", family, params, err)
	}
	if _, ok := block["family"]; ok {
		return nil, fmt.Errorf("family %s: \"family\" is not a parameter here: the family is an argument of its own", family)
	}
	block["family"] = family
	doc, err := json.Marshal(block)
	if err != nil {
		return nil, err
	}
	s := experiment.Default()
	s.Name = "python"
	var ts experiment.TaskSpec
	if err := yaml.Unmarshal(doc, &ts); err != nil {
		return nil, fmt.Errorf("%s", linePrefix.ReplaceAllString(err.Error(), ""))
	}
	s.Tasks = ts
	s.Seed, s.Runs = seed, run+1
	s.Episodes, s.Steps, s.Gamma, s.Start = set.Episodes, set.Steps, set.Gamma, experiment.StartRule(set.Start)
	s.StartCell, s.StartState = set.StartCell, set.StartState
	s.Oracle.Enabled = false
	p, err := experiment.BuildTasks(s)
	if err != nil {
		return nil, err
	}
	var out []runTask
	for _, t := range p.Runs[run] {
		rt := runTask{def: t.Def, fixed: t.Start}
		if t.Sim != nil {
			sm, err := t.Sim.Simulator()
			if err != nil {
				return nil, err
			}
			rt.sim = t.Sim
			rt.S, rt.A = sm.Size()
		} else {
			rt.table = t.Dynamics()
			rt.S, rt.A = rt.table.Size()
		}
		out = append(out, rt)
	}
	return out, nil
}

// streams are the random streams of one task's environment: its transitions (per agent) and its
// starts (shared by the agents of a run).
type streams struct{ env, start *rand.Rand }

// streamsOf are the streams the runner gives agent name's environment in task k of run run of an
// experiment with seed seed.
func streamsOf(seed uint64, run int, name string, k int) streams {
	return streams{env: runnerStream(seed, run, name, k, "env"), start: runnerStream(seed, run, "", k, "start")}
}

// runnerStream is a copy of the runner's stream derivation (experiment's stream), until package
// stream lands.
func runnerStream(seed uint64, run int, agentName string, task int, purpose string) *rand.Rand {
	h := fnv.New128a()
	var buf [8]byte
	for _, x := range []uint64{seed, uint64(run), uint64(task)} {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	for _, s := range []string{agentName, purpose} {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	sum := h.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:])))
}
