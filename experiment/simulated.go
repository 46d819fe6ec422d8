package experiment

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/stream"
)

// simulatorTask checks a task given as a simulator against the spec and builds its simulator
// once (fitting quantile bins, if any) to validate it. Its episodes start where a reset lands,
// so start: fixed has no meaning for it, and it has no true model for the oracle to solve.
func simulatorTask(s Spec, sim env.Simulated) (Task, error) {
	sm, err := sim.Simulator()
	if err != nil {
		return Task{}, err
	}
	if s.Start == StartFixed {
		return Task{}, fmt.Errorf("start = %s needs a table task: a simulator's episodes start where its reset lands (use %s or %s)",
			StartFixed, StartPerEpisode, StartPerTask)
	}
	if s.Oracle.Enabled {
		return Task{}, fmt.Errorf("oracle.enabled = true, but the task is a simulator: it has no true model to solve, and the oracle does not estimate one (set oracle.enabled: false)")
	}
	return Task{Def: sim, Sim: sim, Start: -1, terminates: sm.Terminates()}, nil
}

// modelAgents are the agent types that read every task's true model (decisions 24-25).
var modelAgents = []string{TypeAbsRL, TypeMaxQInitQ, TypeMaxQInitDelayedQ, TypeMaxQInitRMax}

// checkSimulatorAgent refuses an agent that cannot run on the plan's simulator tasks: one that
// needs true models, and one that cannot learn terminal states from experience
// (agent.TerminalObserver) when a simulator's episodes can terminate.
func checkSimulatorAgent(a AgentSpec, fac AgentFactory, runs [][]Task) error {
	for _, tasks := range runs {
		for k, t := range tasks {
			if t.Sim == nil {
				continue
			}
			if slices.Contains(modelAgents, a.Type) {
				return fmt.Errorf("agent type %s needs every task's true model, but task %d (%s) is a simulator", a.Type, k, t.Def.Name())
			}
			if !t.terminates {
				continue
			}
			ag, err := fac.New(RunContext{Tasks: tasks})
			if err != nil {
				return err
			}
			if _, ok := ag.(agent.TerminalObserver); !ok {
				return errNoTerminalObserver(a.Type, k, t.Def.Name())
			}
			return nil
		}
	}
	return nil
}

// ErrNoTerminalObserver is the error of an agent that cannot learn terminal states from
// experience (it does not implement agent.TerminalObserver) on a simulator whose episodes
// terminate.
var ErrNoTerminalObserver = errors.New("the agent cannot learn terminal states from experience (it does not implement agent.TerminalObserver)")

func errNoTerminalObserver(typ string, k int, name string) error {
	return fmt.Errorf("agent type %s: %w, but task %d (%s) is a simulator whose episodes terminate", typ, ErrNoTerminalObserver, k, name)
}

// unvisited is a simulator that counts its grid cells never visited (discretize.Sim).
type unvisited interface{ Unvisited() int }

// runSimulatorTask runs one agent through task k, a simulator, for E episodes of at most T steps
// (fewer when the simulator's own time limit truncates an episode or a step terminates it). The
// learner is not told the terminal states: the first step that terminates into a state s calls
// ObserveTerminal(s) before Observe. Episodes start with a reset drawn from the run's start
// stream, the same for every agent: a fresh draw per episode under random-per-episode, and under
// random-per-task the same draw (the same continuous start) for every episode. The simulator's
// steps draw no random numbers. There is no oracle: the task has no true model.
func (p *Plan) runSimulatorTask(ag agent.Agent, task Task, run int, name string, k int, sums []float64, episodes *episodeWriter) (TaskRecord, error) {
	fail := func(err error) (TaskRecord, error) {
		return TaskRecord{}, fmt.Errorf("experiment: agent %s, run %d, task %d (%s): %w", name, run, k, task.Def.Name(), err)
	}
	sim, err := task.Sim.Simulator()
	if err != nil {
		return fail(err)
	}
	S, A := sim.Size()
	if err := ag.BeginTask(agent.Task{Index: k, S: S, A: A, Gamma: p.Gamma, Rand: stream.New(p.Seed, run, name, k, stream.Agent)}); err != nil {
		return fail(err)
	}
	var observer agent.TerminalObserver
	var seen []bool // states already reported terminal
	if sim.Terminates() {
		var ok bool
		if observer, ok = ag.(agent.TerminalObserver); !ok {
			return fail(errNoTerminalObserver(fmt.Sprintf("%T", ag), k, task.Def.Name()))
		}
		seen = make([]bool, S)
	}
	startRand := stream.New(p.Seed, run, "", k, stream.Start)
	resetRand := startRand
	var perTask *rand.PCG
	var taskSeed uint64
	if p.Start == StartPerTask {
		taskSeed = startRand.Uint64()
		perTask = rand.NewPCG(taskSeed, 0)
		resetRand = rand.New(perTask)
	}
	rec := TaskRecord{Task: k, States: S, Actions: A, Simulated: true}
	terminated := 0
	for e := 0; e < p.Episodes; e++ {
		if perTask != nil {
			perTask.Seed(taskSeed, 0)
		}
		s, err := sim.Reset(resetRand)
		if err != nil {
			return fail(fmt.Errorf("episode %d: %w", e, err))
		}
		if e == 0 {
			rec.Start = s
		}
		ret := 0.0
		for t := 0; t < p.Steps; t++ {
			a := ag.Act(s)
			next, r, term, trunc, err := sim.Step(a)
			if err != nil {
				return fail(fmt.Errorf("episode %d, step %d: %w", e, t, err))
			}
			if term && !seen[next] {
				seen[next] = true
				observer.ObserveTerminal(next)
			}
			ag.Observe(s, a, r, next)
			ret += r
			s = next
			rec.Steps++
			if term {
				terminated++
				break
			}
			if trunc {
				break
			}
		}
		ag.EndEpisode()
		rec.Reward += ret
		sums[e] += ret
		if episodes != nil {
			episodes.add(ret)
		}
	}
	ag.EndTask()
	if rep, ok := ag.(agent.Reporter); ok {
		rec.Metrics = rep.TaskMetrics()
	}
	if sim.Terminates() {
		rec.Metrics = append(rec.Metrics, agent.Metric{Name: "terminated_episodes", Value: float64(terminated)},
			agent.Metric{Name: "truncated_episodes", Value: float64(p.Episodes - terminated)})
	}
	if u, ok := sim.(unvisited); ok {
		rec.Metrics = append(rec.Metrics, agent.Metric{Name: "unvisited_cells", Value: float64(u.Unvisited())})
	}
	return rec, nil
}
