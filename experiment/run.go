package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
)

// StartRule says where episodes start (decision 19).
type StartRule string

const (
	// StartPerTask draws one start cell per task, uniformly over the open cells, shared by every
	// agent of the run and every episode of the task (as published).
	StartPerTask StartRule = "random-per-task"
	// StartPerEpisode draws a new start cell for every episode (the same draws for every agent).
	StartPerEpisode StartRule = "random-per-episode"
	// StartFixed starts every episode in a fixed cell.
	StartFixed StartRule = "fixed"
)

// Task is one task of a run's sequence: its definition and its true MDP — stored as a model, or,
// for a task too large to store, computed on demand — or, for a task given as a simulator, the
// simulator's definition and no MDP.
type Task struct {
	Def env.Task
	// Truth is the task's true MDP: Model, or the task computed on demand (OnDemandPairs). A task
	// given with its Model alone has that as its truth.
	Truth mdp.Dynamics
	// Model is the stored model, nil for a task computed on demand.
	Model *mdp.Model
	// Sim is the task as a simulator (Model is nil): each cell builds its own from it.
	Sim env.Simulated
	// Start is the start state under start: fixed, −1 under the other rules.
	Start int
	// terminates says that Sim's episodes can end in a terminal state.
	terminates bool
}

// Dynamics is the task's true MDP: Truth, or Model when only it is given; nil for a simulator.
func (t Task) Dynamics() mdp.Dynamics {
	if t.Truth == nil && t.Model != nil {
		return t.Model
	}
	return t.Truth
}

// RunContext is what an agent factory knows when it builds the agent of one run: the run's task
// sequence (offline baselines such as Abs-RL and MaxQInit use the true models, decisions 24-25).
type RunContext struct {
	Run   int
	Tasks []Task
	Gamma float64
}

// AgentFactory builds a fresh agent for each run.
type AgentFactory struct {
	Name string
	New  func(RunContext) (agent.Agent, error)
}

// Plan is a resolved experiment, ready to run: every task built, every agent constructible.
type Plan struct {
	Seed     uint64
	Episodes int
	Steps    int
	Gamma    float64
	Start    StartRule
	Runs     [][]Task // the task sequence of every run
	Agents   []AgentFactory
	// Episodes output: write every episode's return to episodes/run-RRR--AGENT.csv.
	EpisodeReturns bool
	// TemplateSnapshots writes the template snapshot of agents that have one after every task to
	// templates/run-RRR--AGENT.jsonl.
	TemplateSnapshots bool
	// Oracle measures every cell against the optimal policy of each task's true model; Epsilon
	// is the ε of ε-mistakes as a fraction of V_max (OracleSpec).
	Oracle  bool
	Epsilon float64
	// PolicyMistakes also counts Kakade's ε-mistakes of agents with agent.PolicyInfo.
	PolicyMistakes bool
	// Fingerprint identifies the resolved spec; cells on disk with another fingerprint are not
	// reused.
	Fingerprint string
	// Shard, when set, restricts Run to its share of the cells (see Shard).
	Shard Shard
	// oracles shares each task's oracle solution among the cells of a Run (nil: every cell
	// solves its own).
	oracles *oracleCache
}

// Progress is told how many tasks all cells run together, then about every finished task of
// every cell; it must be safe for concurrent use.
type Progress interface {
	Start(totalTasks int)
	TaskDone(run int, agent string, task int)
}

type silent struct{}

func (silent) Start(int)                 {}
func (silent) TaskDone(int, string, int) {}

// Run executes every (run, agent) cell of the plan — or of its shard — on up to jobs workers (0:
// one per core), storing each finished cell under dir/cells so that an interrupted experiment
// resumes where it stopped. The cells are returned in (run, agent) order and do not depend on
// jobs.
func Run(ctx context.Context, p *Plan, dir string, jobs int, progress Progress) ([]CellResult, error) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if progress == nil {
		progress = silent{}
	}
	for _, sub := range results.CellKinds {
		if sub == "episodes" && !p.EpisodeReturns || sub == "templates" && !p.TemplateSnapshots {
			continue
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("experiment: %w", err)
		}
	}
	total := 0
	for run, tasks := range p.Runs {
		for k := range p.Agents {
			if p.Shard.Has(run*len(p.Agents) + k) {
				total += len(tasks)
			}
		}
	}
	progress.Start(total)
	if p.Oracle {
		p.oracles = newOracleCache(p)
		defer func() { p.oracles = nil }()
	}
	cells := make([]CellResult, len(p.Runs)*len(p.Agents))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(jobs)
	for run := range p.Runs {
		for k, fac := range p.Agents {
			idx := run*len(p.Agents) + k
			if !p.Shard.Has(idx) {
				continue
			}
			g.Go(func() error {
				if err := ctx.Err(); err != nil {
					return err
				}
				path := filepath.Join(dir, "cells", results.CellName(run, fac.Name)+".json")
				res, err := results.ReadCell(path, results.CellWant{Fingerprint: p.Fingerprint, Run: run, Agent: fac.Name,
					Tasks: len(p.Runs[run]), Episodes: p.Episodes, Oracle: p.Oracle, PolicyMistakes: p.PolicyMistakes})
				if err == nil {
					for k, t := range p.Runs[run] {
						p.oracles.release(solutionKey(run, k, t))
					}
					res.Resumed = true
					cells[idx] = res
					for t := range res.Tasks {
						progress.TaskDone(run, fac.Name, t)
					}
					return nil
				}
				if n, ok := progress.(Noter); ok && !errors.Is(err, fs.ErrNotExist) {
					n.Note(fmt.Sprintf("%v: running the cell again", err))
				}
				res, err = runCell(ctx, p, dir, run, fac, progress)
				if err != nil {
					return err
				}
				cells[idx] = res
				return saveCell(path, res)
			})
		}
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if p.Shard.Count > 1 {
		mine := cells[:0]
		for idx, res := range cells {
			if p.Shard.Has(idx) {
				mine = append(mine, res)
			}
		}
		cells = mine
	}
	return cells, nil
}

// snapshotter is an agent with a template library (O-TempLe, FM-TempLe).
type snapshotter interface {
	TemplateSnapshot() template.Snapshot
}

// saveCell writes the cell atomically, so an interrupted write never looks like a finished cell.
func saveCell(path string, res CellResult) error {
	b, err := results.EncodeCell(res)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, b); err != nil {
		return fmt.Errorf("experiment: writing %s: %w", path, err)
	}
	return nil
}

// runCell runs one agent through one run's task sequence (the published experiment loop): for every task, E episodes
// of T steps from the task's start cell; the agent observes every transition.
func runCell(ctx context.Context, p *Plan, dir string, run int, fac AgentFactory, progress Progress) (CellResult, error) {
	began := time.Now()
	tasks := p.Runs[run]
	ag, err := fac.New(RunContext{Run: run, Tasks: tasks, Gamma: p.Gamma})
	if err != nil {
		return CellResult{}, fmt.Errorf("experiment: agent %s, run %d: %w", fac.Name, run, err)
	}
	res := CellResult{Fingerprint: p.Fingerprint, Run: run, Agent: fac.Name, EpisodeSums: make([]float64, p.Episodes)}
	var episodes *episodeWriter
	if p.EpisodeReturns {
		episodes, err = newEpisodeWriter(filepath.Join(dir, "episodes", results.CellName(run, fac.Name)+".csv"), p.Episodes)
		if err != nil {
			return CellResult{}, err
		}
		defer episodes.close()
	}
	var snapshots *json.Encoder
	if _, ok := ag.(snapshotter); ok && p.TemplateSnapshots {
		f, err := os.Create(filepath.Join(dir, "templates", results.CellName(run, fac.Name)+".jsonl"))
		if err != nil {
			return CellResult{}, fmt.Errorf("experiment: %w", err)
		}
		defer f.Close()
		snapshots = json.NewEncoder(f)
	}
	// endTask writes what follows a finished task: its episode returns, the agent's templates,
	// its record and the progress.
	endTask := func(k int, rec TaskRecord) error {
		if episodes != nil {
			if err := episodes.endTask(k); err != nil {
				return err
			}
		}
		if snapshots != nil {
			if err := snapshots.Encode(TaskSnapshot{Task: k, Snapshot: ag.(snapshotter).TemplateSnapshot()}); err != nil {
				return fmt.Errorf("experiment: writing the templates of run %d, agent %s: %w", run, fac.Name, err)
			}
		}
		res.Tasks = append(res.Tasks, rec)
		progress.TaskDone(run, fac.Name, k)
		return nil
	}
	p.prepareOracles(run)
	for k, task := range tasks {
		if err := ctx.Err(); err != nil {
			return CellResult{}, err
		}
		if task.Sim != nil {
			rec, err := p.runSimulatorTask(ag, task, run, fac.Name, k, res.EpisodeSums, episodes)
			if err == nil {
				err = endTask(k, rec)
			}
			if err != nil {
				return CellResult{}, err
			}
			continue
		}
		// m is the stored model, read directly in the loop below; d the same task on demand.
		m, d := task.Model, task.Dynamics()
		S, A := d.Size()
		terminal := d.TerminalStates() // the runner's copy; the agent gets its own
		envRand := stream(p.Seed, run, fac.Name, k, purposeEnv)
		startRand := stream(p.Seed, run, "", k, purposeStart)
		if err := ag.BeginTask(agent.Task{Index: k, S: S, A: A, Gamma: p.Gamma,
			Rand: stream(p.Seed, run, fac.Name, k, purposeAgent), Terminal: d.TerminalStates(), Truth: m}); err != nil {
			return CellResult{}, fmt.Errorf("experiment: agent %s, run %d, task %d: %w", fac.Name, run, k, err)
		}
		rec := TaskRecord{Task: k, States: S, Actions: A}
		start := p.startState(task, startRand)
		rec.Start = start
		// The oracle sees the same start states and transitions as the agent, step by step; it
		// draws no random numbers, so it leaves the cells unchanged.
		var orc *taskOracle
		var info agent.StepInfo
		if p.Oracle {
			if orc, err = p.oracle(run, k, task); err != nil {
				return CellResult{}, fmt.Errorf("experiment: oracle of run %d, task %d: %w", run, k, err)
			}
			info, _ = ag.(agent.StepInfo)
			if pi, ok := ag.(agent.PolicyInfo); ok && p.PolicyMistakes {
				orc.trackPolicy(pi, p.Gamma)
			}
		}
		terminated := 0 // episodes that reached a terminal state; the others were truncated at T steps
		for e := 0; e < p.Episodes; e++ {
			if e > 0 && p.Start == StartPerEpisode {
				start = p.startState(task, startRand)
			}
			if orc != nil {
				orc.episode(start)
			}
			s, ret := start, 0.0
			for t := 0; t < p.Steps; t++ {
				if orc != nil {
					orc.policyStep(s)
				}
				a := ag.Act(s)
				ph := agent.Unclassified
				if info != nil {
					ph = info.Phase(s)
				}
				var next int
				var r float64
				if m != nil {
					next, r = m.Step(s, a, envRand)
				} else {
					next, r = d.Step(s, a, envRand)
				}
				ag.Observe(s, a, r, next)
				if orc != nil {
					orc.step(s, a, r, next, p.Steps-t, ph)
				}
				ret += r
				s = next
				rec.Steps++
				if terminal != nil && terminal[s] {
					terminated++
					break
				}
			}
			ag.EndEpisode()
			rec.Reward += ret
			res.EpisodeSums[e] += ret
			if episodes != nil {
				episodes.add(ret)
			}
		}
		ag.EndTask()
		if orc != nil {
			rec.Oracle = orc.finish(p.Episodes)
			p.oracles.release(solutionKey(run, k, task))
		}
		if rep, ok := ag.(agent.Reporter); ok {
			rec.Metrics = rep.TaskMetrics()
		}
		if terminal != nil {
			rec.Metrics = append(rec.Metrics, agent.Metric{Name: "terminated_episodes", Value: float64(terminated)},
				agent.Metric{Name: "truncated_episodes", Value: float64(p.Episodes - terminated)})
		}
		if err := endTask(k, rec); err != nil {
			return CellResult{}, err
		}
	}
	res.Seconds = time.Since(began).Seconds()
	return res, nil
}

// startState draws the start state of an episode by the plan's rule: the fixed state, or from
// the task's start distribution (for a maze, uniform over its open cells).
func (p *Plan) startState(t Task, rng *rand.Rand) int {
	if p.Start == StartFixed {
		return t.Start
	}
	return t.Dynamics().SampleStart(rng)
}
