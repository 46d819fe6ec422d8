package experiment

import (
	"fmt"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/episode"
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
	return Task{Def: sim, Sim: sim, Start: -1, terminates: sm.Terminates(), rewards: episode.SimRewards(sm)}, nil
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
var ErrNoTerminalObserver = episode.ErrNoTerminalObserver

func errNoTerminalObserver(typ string, k int, name string) error {
	return fmt.Errorf("agent type %s: %w, but task %d (%s) is a simulator whose episodes terminate", typ, ErrNoTerminalObserver, k, name)
}
