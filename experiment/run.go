package experiment

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/external"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/oracle"
	"github.com/temple-rl/temple/results"
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
	// rewards is the range of Sim's rewards when its environment states one (agent.Task.Rewards).
	rewards *agent.RewardRange
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
	// Seed is the experiment's seed: a learner outside temple is built with a seed drawn from
	// the stream of its name and run (stream.Learner).
	Seed uint64
}

// AgentFactory builds a fresh agent for each run.
type AgentFactory struct {
	Name string
	New  func(RunContext) (agent.Agent, error)
	// Python, when set, is a Python learner: its cells run in a Python process (worker.go), and
	// New is not called.
	Python *agenttypes.Python
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
	// EpisodeReturns (output.episodes) writes every episode's return to
	// episodes/run-RRR--AGENT.csv.
	EpisodeReturns bool
	// TemplateSnapshots (output.templates) writes the template snapshot of agents that have one after every task to
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
	// Shard, when set, restricts Run to its share of the cells (see cluster.Shard).
	Shard cluster.Shard
	// spec is the resolved spec (spec.yaml), which a Python learner's worker builds its cell from.
	spec []byte
	// workers are the Python workers of the Python learners' cells while Run runs (nil: none).
	workers *external.Pool
	// oracles shares each task's oracle solution among the cells of a Run (nil: every cell
	// solves its own).
	oracles *oracle.Cache
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

// Workers is the number of parallel workers --jobs n asks for: n, or one per core when n is 0 or
// less (the runner's default).
func Workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// Run executes every (run, agent) cell of the plan — or of its shard — on up to jobs workers (0:
// one per core), storing each finished cell under dir's cells/ so that an interrupted experiment
// resumes where it stopped. The cells are returned in (run, agent) order and do not depend on
// jobs. Run does not claim dir (Execute does): a program that runs a plan of its own gives it a
// directory of its own (results.At).
func Run(ctx context.Context, p *Plan, dir results.Dir, jobs int, progress Progress) ([]results.CellResult, error) {
	jobs = Workers(jobs)
	if progress == nil {
		progress = silent{}
	}
	if err := results.MakeCellDirs(dir, p.EpisodeReturns, p.TemplateSnapshots); err != nil {
		return nil, err
	}
	if err := p.checkCellPaths(dir); err != nil {
		return nil, err
	}
	progress.Start(p.shardTasks())
	if p.Oracle {
		p.oracles = newOracleCache(p)
		defer func() { p.oracles = nil }()
	}
	if slices.ContainsFunc(p.Agents, func(f AgentFactory) bool { return f.Python != nil }) {
		p.workers = &external.Pool{}
		defer func() { p.workers.Close(); p.workers = nil }()
	}
	// A cell that fails does not stop the others: every cell that can finish is stored, so that
	// running again resumes after the failure is mended (a learner outside temple that raises,
	// say). The errors are returned together, in cell order.
	cells := make([]results.CellResult, len(p.Runs)*len(p.Agents))
	failed := make([]error, len(cells))
	var g errgroup.Group
	g.SetLimit(jobs)
	for run := range p.Runs {
		for k, fac := range p.Agents {
			idx := run*len(p.Agents) + k
			if !p.Shard.Has(idx) {
				continue
			}
			g.Go(func() error {
				cells[idx], failed[idx] = p.cell(ctx, dir, run, fac, progress)
				return nil
			})
		}
	}
	g.Wait()
	if err := cellErrors(ctx, failed); err != nil {
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

// cellErrors joins the errors of the cells that failed; when the run was interrupted, its
// context's error alone (every unfinished cell fails with it).
func cellErrors(ctx context.Context, failed []error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var errs []error
	for _, err := range failed {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 1 {
		errs = append([]error{fmt.Errorf("%d cells failed; the other cells are stored, and running again resumes them", len(errs))}, errs...)
	}
	return errors.Join(errs...)
}

// checkCellPaths refuses, before any cell runs, a cell's path that holds something other than a
// file (a directory there made every run fail once its cell had run).
func (p *Plan) checkCellPaths(dir results.Dir) error {
	for run := range p.Runs {
		for k, fac := range p.Agents {
			if !p.Shard.Has(run*len(p.Agents) + k) {
				continue
			}
			path := dir.Cell(run, fac.Name)
			if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
				return fmt.Errorf("experiment: %s is not a file (a directory?) but the place of the cell of run %d, agent %s: remove it", path, run, fac.Name)
			}
		}
	}
	return nil
}

// shardTasks is the number of tasks the cells of p's shard run together.
func (p *Plan) shardTasks() int {
	total := 0
	for run, tasks := range p.Runs {
		for k := range p.Agents {
			if p.Shard.Has(run*len(p.Agents) + k) {
				total += len(tasks)
			}
		}
	}
	return total
}

// cell is the cell of fac in run: read back from dir's cells/ when a finished cell of this spec is
// there (resumed), otherwise run and stored there; a damaged one is run again, with a note that
// says which and why.
func (p *Plan) cell(ctx context.Context, dir results.Dir, run int, fac AgentFactory, progress Progress) (results.CellResult, error) {
	if err := ctx.Err(); err != nil {
		return results.CellResult{}, err
	}
	res, err := results.ReadCell(dir.Cell(run, fac.Name), p.cellWant(run, fac.Name))
	if err == nil {
		for k, t := range p.Runs[run] {
			p.oracles.Release(solutionKey(run, k, t))
		}
		res.Resumed = true
		for t := range res.Tasks {
			progress.TaskDone(run, fac.Name, t)
		}
		return res, results.RecordResumed(dir, res)
	}
	if n, ok := progress.(Noter); ok && !errors.Is(err, fs.ErrNotExist) {
		n.Note(fmt.Sprintf("%v: running the cell again", err))
	}
	if fac.Python != nil {
		return p.pythonCell(ctx, dir, run, fac, progress)
	}
	res, err = runCell(ctx, p, dir, run, fac, progress)
	if err != nil {
		return results.CellResult{}, err
	}
	return res, results.WriteCell(dir, res)
}
