package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/memory"
	"github.com/temple-rl/temple/results"
)

// Build resolves a validated spec into a plan: every run's task sequence (generated from the seed
// or read from a file) with its models, and a factory per agent whose parameters were checked.
func Build(s Spec) (*Plan, error) {
	s = s.ReadInputsOnce()
	p, err := BuildTasks(s)
	if err != nil {
		return nil, err
	}
	for k, a := range s.Agents {
		fac := a.factory()
		if a.outside() { // started only to run: its parameters and its source checked here
			if err := checkOutside(a); err != nil {
				return nil, fmt.Errorf("%s: %w", s.agentLabel(k), err)
			}
			p.Agents = append(p.Agents, fac)
			continue
		}
		if err := checkSimulatorAgent(a, fac, p.Runs); err != nil {
			return nil, fmt.Errorf("%s: %w", s.agentLabel(k), err)
		}
		if err := checkNeeds(s, a, p.Runs); err != nil { // applies.go
			return nil, fmt.Errorf("%s: %w", s.agentLabel(k), err)
		}
		ag, err := fac.New(RunContext{Run: 0, Tasks: p.Runs[0], Gamma: s.Gamma, Seed: s.Seed})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.agentLabel(k), err)
		}
		if err := checkTasks(s, ag, p.Runs); err != nil {
			return nil, fmt.Errorf("%s: %w", s.agentLabel(k), err)
		}
		p.Agents = append(p.Agents, fac)
	}
	if err := checkRMax(s, p.Runs); err != nil { // optimism.go
		return nil, err
	}
	return p, nil
}

// BuildTasks is Build without the agents: the plan's task sequences only (for inspecting them).
// The memory estimate (package memory) is checked before the sequences are drawn, once they are
// drawn and once their models are built, so that an experiment the machine cannot hold is
// refused before it takes the memory.
func BuildTasks(s Spec) (*Plan, error) {
	s = s.ReadInputsOnce() // the digests of newPlan and the draws read the same bytes
	if err := s.Validate(); err != nil {
		return nil, err
	}
	p, err := newPlan(s)
	if err != nil {
		return nil, err
	}
	budget := s.memory()
	if err := budget.Check(nil); err != nil { // drawing the sequences alone
		return nil, err
	}
	seqs, err := drawSequences(s)
	if err != nil {
		return nil, err
	}
	if s.Tuning != nil { // a tuned config is not judged on its design runs' tasks, whatever the seed
		digests, err := sequenceDigests(seqs)
		if err != nil {
			return nil, err
		}
		if err := s.Tuning.CheckTasks(digests); err != nil {
			return nil, err
		}
	}
	if err := budget.Check(budget.Known(seqs)); err != nil {
		return nil, err
	}
	built := modelCache{}
	for run, seq := range seqs {
		tasks, err := built.run(s, run, seq)
		if err != nil {
			return nil, err
		}
		p.Runs = append(p.Runs, tasks)
	}
	if err := budget.Check(memory.BuiltSizes(budget, p.Runs)); err != nil {
		return nil, err
	}
	if err := checkRewards(s, p.Runs); err != nil { // size.go
		return nil, err
	}
	return p, nil
}

// newPlan is the plan of s without tasks or agents: its settings and the spec's fingerprint.
func newPlan(s Spec) (*Plan, error) {
	specYAML, err := s.resolvedYAML()
	if err != nil {
		return nil, err
	}
	return &Plan{Seed: s.Seed, Episodes: s.Episodes, Steps: s.Steps, Gamma: s.Gamma, Start: s.Start, EpisodeReturns: s.Output.Episodes,
		TemplateSnapshots: s.Output.Templates, Oracle: s.Oracle.Enabled, Epsilon: s.Oracle.Epsilon, PolicyMistakes: s.Oracle.PolicyMistakes,
		Fingerprint: results.Fingerprint(specYAML), spec: specYAML}, nil
}

// modelCache holds the task models built so far, by taskKey. Equal task definitions — a task drawn
// twice from a pool, or runs of one fixed task — share one model, and so one oracle solution
// (oracle.Cache). Models are immutable.
type modelCache map[[sha256.Size]byte]builtTask

// builtTask is a task definition with its model: stored (m), or computed on demand (d alone).
type builtTask struct {
	def env.Task
	m   *mdp.Model
	d   mdp.Dynamics
}

// run builds the tasks of run's sequence seq: their models, or their simulators, and under
// start: fixed their start states.
func (built modelCache) run(s Spec, run int, seq env.Sequence) ([]Task, error) {
	var tasks []Task
	for k, def := range seq {
		if sim, ok := def.(env.Simulated); ok {
			task, err := simulatorTask(s, sim)
			if err != nil {
				return nil, fmt.Errorf("tasks: run %d, task %d (%s): %w", run, k, def.Name(), err)
			}
			tasks = append(tasks, task)
			continue
		}
		b, err := built.model(s, def)
		if err != nil {
			return nil, fmt.Errorf("tasks: run %d, task %d: %w", run, k, err)
		}
		task := Task{Def: def, Truth: b.d, Model: b.m, Start: -1}
		if s.Start == StartFixed {
			if task.Start, err = fixedStart(s, task); err != nil {
				return nil, fmt.Errorf("run %d, task %d (%s): %w", run, k, def.Name(), err)
			}
		}
		tasks = append(tasks, task)
	}
	return tasks, nil
}

// model is the model of def: the one built for an equal definition, or a new one (stored unless
// another definition holds its key).
func (built modelCache) model(s Spec, def env.Task) (builtTask, error) {
	key, keyed := taskKey(def)
	b, ok := built[key]
	if keyed && ok && reflect.DeepEqual(b.def, def) {
		return b, nil
	}
	b = builtTask{def: def}
	var err error
	if od, isOnDemand := onDemand(s, def); isOnDemand {
		b.d, err = od.Dynamics()
	} else if b.m, err = def.Model(); err == nil {
		b.d = b.m
	}
	if err != nil {
		return builtTask{}, err
	}
	if keyed && !ok {
		built[key] = b
	}
	return b, nil
}

// drawSequences draws every run's task sequence, runs side by side on the machine's cores: each
// run draws from its own stream, so the sequences do not depend on the order. The runs of the
// first round stand for the others in a memory check before those are drawn, so that a run count
// the machine could never hold is refused rather than drawn until memory runs out. The error of
// the first failing run is returned.
func drawSequences(s Spec) ([]env.Sequence, error) {
	first, err := drawRuns(s, 0, min(s.Runs, generators(s)))
	if err != nil || len(first) == s.Runs {
		return first, err
	}
	budget := s.memory()
	if err := budget.CheckRuns(budget.Known(first), s.Runs); err != nil {
		return nil, err
	}
	rest, err := drawRuns(s, len(first), s.Runs)
	return append(first, rest...), err
}

// drawRuns draws the sequences of runs from to to−1, a run per core.
func drawRuns(s Spec, from, to int) ([]env.Sequence, error) {
	seqs := make([]env.Sequence, to-from)
	errs := make([]error, to-from)
	var g errgroup.Group
	g.SetLimit(generators(s))
	for k := range seqs {
		g.Go(func() error {
			seqs[k], errs[k] = s.Tasks.DrawFrom(s.reader(), s.Seed, from+k)
			return nil
		})
	}
	g.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("tasks: %w", err)
		}
	}
	return seqs, nil
}

// SequenceDigests are the SHA-256 of the task sequence of every run of the plan (sequenceDigests).
func (p *Plan) SequenceDigests() ([]string, error) {
	seqs := make([]env.Sequence, len(p.Runs))
	for k, tasks := range p.Runs {
		for _, t := range tasks {
			seqs[k] = append(seqs[k], t.Def)
		}
	}
	return sequenceDigests(seqs)
}

// SequenceDigests are the SHA-256 of the task sequence of every run of s (sequenceDigests), drawn
// or read as Build would, without building their models.
func SequenceDigests(s Spec) ([]string, error) {
	s = s.ReadInputsOnce()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	seqs, err := drawSequences(s)
	if err != nil {
		return nil, err
	}
	return sequenceDigests(seqs)
}

// sequenceDigests are the SHA-256 of each run's task sequence as tasks.json encodes a run: the
// identity of the tasks a run faces, whatever family drew or read them (results.Tuning).
func sequenceDigests(seqs []env.Sequence) ([]string, error) {
	out := make([]string, len(seqs))
	for k, seq := range seqs {
		b, err := env.EncodeSequences(env.SequenceSet{Format: env.SequenceFormat, Runs: []env.Sequence{seq}})
		if err != nil {
			return nil, fmt.Errorf("tasks: run %d: %w", k, err)
		}
		sum := sha256.Sum256(b)
		out[k] = hex.EncodeToString(sum[:])
	}
	return out, nil
}

// generators is how many runs draw their sequences at once: one per core.
func generators(s Spec) int { return max(1, min(s.Runs, runtime.GOMAXPROCS(0))) }

// taskKey is a digest of a task definition's type, family, name and JSON form, false when it has
// no JSON form. Equal definitions have equal keys; Build confirms a match with reflect.DeepEqual,
// since a JSON form need not hold every field.
func taskKey(def env.Task) (key [sha256.Size]byte, ok bool) {
	b, err := json.Marshal(def)
	if err != nil {
		return key, false
	}
	return sha256.Sum256(fmt.Appendf(nil, "%T\n%s\n%s\n%s", def, def.Kind(), def.Name(), b)), true
}

// fixedStart is the start state of t under start: fixed (env.FixedStart).
func fixedStart(s Spec, t Task) (int, error) {
	return env.FixedStart(t.Def, t.Dynamics(), s.StartState, env.Cell{X: s.StartCell[0], Y: s.StartCell[1]})
}

// OnDemandPairs is the size, in state-action pairs, from which a task that can compute its rows
// when they are read is not stored as a model (env.OnDemandPairs); the oracle solves such a task
// only around its start states (oracle.SolveLocal), and its agents get no true model
// (agent.Task.Truth), so template learners report no ground-truth diagnostics on it.
const OnDemandPairs = env.OnDemandPairs

// onDemand returns def as a task computed on demand in the experiment of s: one that can be
// (env.OnDemand) with at least OnDemandPairs pairs, unless an agent is built from the true models
// (Abs-RL, MaxQInit) or the oracle evaluates policies on them.
func onDemand(s Spec, def env.Task) (env.OnDemand, bool) {
	od, ok := env.LargeOnDemand(def)
	if !ok || s.Oracle.Enabled && s.Oracle.PolicyMistakes {
		return nil, false
	}
	for _, a := range s.Agents {
		if agenttypes.NeedsModels(a.Params) {
			return nil, false
		}
	}
	return od, true
}

// memory is what the memory estimate (package memory) reads of s.
func (s Spec) memory() memory.Experiment {
	x := memory.Experiment{Episodes: s.Episodes, Steps: s.Steps, Gamma: s.Gamma, StartPerEpisode: s.Start == StartPerEpisode,
		Oracle: s.Oracle.Enabled, PolicyMistakes: s.Oracle.PolicyMistakes, DrawBytes: families.DrawBytes(s.Tasks.Params),
		Generators: generators(s), MaxMemory: s.MaxMemory, Runs: s.Runs, TasksPerRun: families.TasksPerRun(s.Tasks.Params), OnDemand: func(def env.Task) (env.OnDemand, bool) { return onDemand(s, def) }}
	for _, a := range s.Agents {
		x.Agents = append(x.Agents, memory.Agent{Type: a.Type, Params: a.Params})
	}
	return x
}

// Definition is the task's definition (memory.BuiltTask).
func (t Task) Definition() env.Task { return t.Def }

// Table is the task's stored model, built from its definition when it is computed on demand (a
// large task's model takes about 80 bytes per pair: what only reads rows takes Dynamics instead).
func (t Task) Table() (*mdp.Model, error) {
	if t.Model != nil {
		return t.Model, nil
	}
	return t.Def.Model()
}
