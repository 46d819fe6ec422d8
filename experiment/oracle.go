package experiment

import (
	"github.com/temple-rl/temple/episode"
	"github.com/temple-rl/temple/oracle"
)

// solutionKey is the key of the solution of t, task k of run: a stored model's is shared by every
// run and task that draws it.
func solutionKey(run, k int, t Task) oracle.Key {
	if t.Model != nil {
		return oracle.Key{Task: t.Dynamics(), Run: -1, K: -1}
	}
	return oracle.Key{Task: t.Dynamics(), Run: run, K: k}
}

// newOracleCache counts, for every task, the cells of p's shard that will run it.
func newOracleCache(p *Plan) *oracle.Cache {
	c := oracle.NewCache()
	for run, tasks := range p.Runs {
		for a := range p.Agents {
			if !p.Shard.Has(run*len(p.Agents) + a) {
				continue
			}
			for k, t := range tasks {
				c.Add(solutionKey(run, k, t))
			}
		}
	}
	return c
}

// solver solves task k of run: whole when it is stored, around its start states when it is
// computed on demand.
func (p *Plan) solver(run, k int, t Task) func() (*oracle.Solution, error) {
	return func() (*oracle.Solution, error) {
		if t.Model != nil {
			return oracle.Solve(t.Model, p.Steps, p.Gamma, p.Epsilon)
		}
		return oracle.SolveLocal(t.Dynamics(), p.starts(run, k, t), p.Steps, p.Gamma, p.Epsilon)
	}
}

// starts are the start states of every episode of task k of run, drawn as the episodes draw
// them (the start stream is the same for every agent).
func (p *Plan) starts(run, k int, t Task) []int {
	return episode.TableStarts(episode.Task{Table: t.Dynamics(), Fixed: t.Start}, p.episodes(), episode.StreamsOf(p.Seed, run, "", k))
}

// oracle returns a fresh oracle of one cell on task k of run, on the task's shared solution
// (p.oracles, set by Run) or, for a cell run on its own, on a solution of its own.
func (p *Plan) oracle(run, k int, t Task) (*oracle.Measure, error) {
	var sol *oracle.Solution
	var err error
	if p.oracles == nil {
		sol, err = p.solver(run, k, t)()
	} else {
		sol, err = p.oracles.Solution(solutionKey(run, k, t), p.solver(run, k, t))
	}
	if err != nil {
		return nil, err
	}
	return sol.Watch(), nil
}

// prepareOracles starts solving every table task of run in a goroutine of its own, so that the
// tasks of a run are solved side by side while its first cells wait for the first task.
func (p *Plan) prepareOracles(run int) {
	if p.oracles == nil {
		return
	}
	for k, t := range p.Runs[run] {
		if t.Dynamics() != nil { // a simulator has no oracle
			p.oracles.Prepare(solutionKey(run, k, t), p.solver(run, k, t))
		}
	}
}
