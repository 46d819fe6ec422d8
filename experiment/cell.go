package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/episode"
	"github.com/temple-rl/temple/oracle"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
)

// runCell runs one agent through one run's task sequence (the published experiment loop): for
// every task, E episodes of T steps from the task's start (package episode), recording each
// task's episode returns, the agent's templates and the task's record.
func runCell(ctx context.Context, p *Plan, dir results.Dir, run int, fac AgentFactory, progress Progress) (res results.CellResult, err error) {
	began := time.Now()
	ag, err := fac.New(RunContext{Run: run, Tasks: p.Runs[run], Gamma: p.Gamma, Seed: p.Seed})
	if err != nil {
		return results.CellResult{}, fmt.Errorf("experiment: agent %s, run %d: %w", fac.Name, run, err)
	}
	remote, _ := ag.(agent.Remote)
	if remote != nil {
		defer func() {
			if cerr := remote.Close(); err == nil && cerr != nil {
				res, err = results.CellResult{}, fmt.Errorf("experiment: agent %s, run %d: %w", fac.Name, run, cerr)
			}
		}()
	}
	res = results.CellResult{Fingerprint: p.Fingerprint, Run: run, Agent: fac.Name, EpisodeSums: make([]float64, p.Episodes)}
	out, err := p.openCellFiles(dir, run, fac.Name, ag)
	if err != nil {
		return results.CellResult{}, err
	}
	defer out.close()
	returns := &cellReturns{sums: res.EpisodeSums, episodes: out.episodes}
	p.prepareOracles(run)
	for k, task := range p.Runs[run] {
		if err := ctx.Err(); err != nil {
			return results.CellResult{}, err
		}
		rec, err := p.runTask(ag, run, fac.Name, k, task, returns)
		if remote != nil && remote.Err() != nil {
			err = fmt.Errorf("experiment: agent %s, run %d, task %d: %w", fac.Name, run, k, remote.Err())
		}
		if err == nil {
			err = out.endTask(k, ag)
		}
		if err != nil {
			return results.CellResult{}, err
		}
		res.Tasks = append(res.Tasks, rec)
		progress.TaskDone(run, fac.Name, k)
	}
	if err := out.close(); err != nil {
		return results.CellResult{}, err
	}
	res.Seconds = time.Since(began).Seconds()
	return res, nil
}

// runTask runs agent name through the episodes of task k of run (episode.Run), with the oracle
// watching every step when the plan has one.
func (p *Plan) runTask(ag agent.Agent, run int, name string, k int, task Task, returns episode.Returns) (results.TaskRecord, error) {
	t := episode.Task{Index: k, Table: task.Dynamics(), Fixed: task.Start}
	fail := func(err error) (results.TaskRecord, error) {
		return results.TaskRecord{}, fmt.Errorf("experiment: agent %s, run %d, task %d: %w", name, run, k, err)
	}
	if task.Sim != nil {
		t.Name = task.Def.Name()
		fail = func(err error) (results.TaskRecord, error) {
			return results.TaskRecord{}, fmt.Errorf("experiment: agent %s, run %d, task %d (%s): %w", name, run, k, t.Name, err)
		}
		sim, err := task.Sim.Simulator()
		if err != nil {
			return fail(err)
		}
		t.Sim = sim
	}
	hooks := episode.Hooks{Returns: returns}
	// The oracle sees the same start states and transitions as the agent, step by step; it draws
	// no random numbers, so it leaves the cells unchanged.
	var orc *oracle.Measure
	if p.Oracle && task.Sim == nil {
		var err error
		if orc, err = p.oracle(run, k, task); err != nil {
			return results.TaskRecord{}, fmt.Errorf("experiment: oracle of run %d, task %d: %w", run, k, err)
		}
		if pi, ok := ag.(agent.PolicyInfo); ok && p.PolicyMistakes {
			orc.TrackPolicy(pi, p.Gamma)
			hooks.Acting = orc
		}
		hooks.Steps = orc
	}
	out, err := episode.Run(ag, t, p.episodes(), episode.StreamsOf(p.Seed, run, name, k), hooks)
	if err != nil {
		return fail(err)
	}
	rec := results.TaskRecord{Task: k, Reward: out.Reward, Steps: out.Steps, States: out.States, Actions: out.Actions,
		Start: out.Start, Metrics: out.Metrics, Simulated: out.Simulated}
	if orc != nil {
		rec.Oracle = orc.Finish(p.Episodes)
		p.oracles.Release(solutionKey(run, k, task))
	}
	return rec, nil
}

// episodes is how the plan's episodes run (episode.Config).
func (p *Plan) episodes() episode.Config {
	starts := map[StartRule]episode.Starts{StartPerTask: episode.StartPerTask, StartPerEpisode: episode.StartPerEpisode, StartFixed: episode.StartFixed}
	return episode.Config{Episodes: p.Episodes, Steps: p.Steps, Gamma: p.Gamma, Starts: starts[p.Start]}
}

// cellReturns records every episode's return of a cell: summed over tasks per episode
// (CellResult.EpisodeSums) and, with output.episodes, in episodes/.
type cellReturns struct {
	sums     []float64
	episodes *results.EpisodeWriter
}

func (c *cellReturns) Return(e int, ret float64) {
	c.sums[e] += ret
	if c.episodes != nil {
		c.episodes.Add(ret)
	}
}

// cellFiles are the files a cell writes as its tasks end: episodes/ (with output.episodes) and
// templates/ (with output.templates, for an agent with templates); nil when not written.
type cellFiles struct {
	episodes  *results.EpisodeWriter
	templates *results.TemplateWriter
}

// openCellFiles creates the files of agent name's cell of run.
func (p *Plan) openCellFiles(dir results.Dir, run int, name string, ag agent.Agent) (*cellFiles, error) {
	c := &cellFiles{}
	var err error
	if p.EpisodeReturns {
		if c.episodes, err = results.CreateEpisodes(dir, run, name, p.Episodes); err != nil {
			return nil, err
		}
	}
	if _, ok := ag.(template.Snapshotter); ok && p.TemplateSnapshots {
		if c.templates, err = results.CreateTemplates(dir, run, name); err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

// endTask writes what follows finished task k: its episode returns and the agent's templates.
func (c *cellFiles) endTask(k int, ag agent.Agent) error {
	if c.episodes != nil {
		if err := c.episodes.EndTask(k); err != nil {
			return err
		}
	}
	if c.templates != nil {
		return c.templates.Write(results.TaskSnapshot{Task: k, Snapshot: ag.(template.Snapshotter).TemplateSnapshot()})
	}
	return nil
}

// close closes the files; a second call does nothing.
func (c *cellFiles) close() error {
	var err error
	if c.episodes != nil {
		err = c.episodes.Close()
		c.episodes = nil
	}
	if c.templates != nil {
		if e := c.templates.Close(); err == nil {
			err = e
		}
		c.templates = nil
	}
	return err
}
