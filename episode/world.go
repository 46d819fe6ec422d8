package episode

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// world is one task as the loop steps it: exactly one of m (a stored model), d (a table computed
// on demand) and sim is read per step.
type world struct {
	c    Config
	t    Task
	S, A int
	// A table task: m or d, its terminal flags (the loop's copy; the agent gets its own), the
	// streams of its transitions and its starts, and the start of the current episode.
	m        *mdp.Model
	d        mdp.Dynamics
	terminal []bool
	env      *rand.Rand
	starts   *rand.Rand
	start    int
	// A simulator: the agent learning its terminal states, the states already reported
	// terminal, and the stream of its resets — re-seeded with taskSeed before every reset under
	// StartPerTask, so every episode starts with the same draw.
	sim      Simulator
	observer agent.TerminalObserver
	seen     []bool
	resets   *rand.Rand
	perTask  *rand.PCG
	taskSeed uint64
}

// begin makes the world of task t and begins the task for ag.
func begin(ag agent.Agent, t Task, c Config, st Streams) (*world, error) {
	w := &world{c: c, t: t}
	if t.Sim != nil {
		return w, w.beginSimulator(ag, st)
	}
	w.d, w.env, w.starts = t.Table, st.Env, st.Start
	w.m, _ = t.Table.(*mdp.Model)
	w.S, w.A = t.Table.Size()
	w.terminal = t.Table.TerminalStates()
	return w, ag.BeginTask(agent.Task{Index: t.Index, S: w.S, A: w.A, Gamma: c.Gamma, Rand: st.Agent,
		Terminal: t.Table.TerminalStates(), Truth: w.m})
}

// beginSimulator begins a simulator task: the agent is told no terminal states and no model.
func (w *world) beginSimulator(ag agent.Agent, st Streams) error {
	if w.c.Starts == StartFixed {
		return errors.New("a simulator's episodes start where its reset lands: a fixed start needs a table task")
	}
	w.sim = w.t.Sim
	w.S, w.A = w.sim.Size()
	if err := ag.BeginTask(agent.Task{Index: w.t.Index, S: w.S, A: w.A, Gamma: w.c.Gamma, Rand: st.Agent}); err != nil {
		return err
	}
	if w.sim.Terminates() {
		var ok bool
		if w.observer, ok = ag.(agent.TerminalObserver); !ok {
			return fmt.Errorf("agent type %T: %w, but task %d (%s) is a simulator whose episodes terminate", ag, ErrNoTerminalObserver, w.t.Index, w.t.Name)
		}
		w.seen = make([]bool, w.S)
	}
	w.resets = st.Start
	if w.c.Starts == StartPerTask {
		w.taskSeed = st.Start.Uint64()
		w.perTask = rand.NewPCG(w.taskSeed, 0)
		w.resets = rand.New(w.perTask)
	}
	return nil
}

// reset starts episode e and returns its start state.
func (w *world) reset(e int) (int, error) {
	if w.sim != nil {
		if w.perTask != nil {
			w.perTask.Seed(w.taskSeed, 0)
		}
		return w.sim.Reset(w.resets)
	}
	if e == 0 || w.c.Starts == StartPerEpisode {
		w.start = startState(w.t, w.c, w.starts)
	}
	return w.start, nil
}

// episode runs one episode from s until it terminates, is truncated or has taken T steps, and
// returns its return, its steps and whether it terminated.
func (w *world) episode(ag agent.Agent, s int, phases agent.StepInfo, h Hooks) (ret float64, steps int, terminated bool, err error) {
	watch, acting := h.Steps, h.Acting
	for t := 0; t < w.c.Steps; t++ {
		if acting != nil {
			acting.Acting(s)
		}
		a := ag.Act(s)
		ph := agent.Unclassified
		if phases != nil {
			ph = phases.Phase(s)
		}
		var next int
		var r float64
		var truncated bool
		switch {
		case w.m != nil:
			next, r = w.m.Step(s, a, w.env)
			terminated = w.terminal != nil && w.terminal[next]
		case w.sim != nil:
			if next, r, terminated, truncated, err = w.sim.Step(a); err != nil {
				return ret, t, false, err
			}
			if terminated && !w.seen[next] {
				w.seen[next] = true
				w.observer.ObserveTerminal(next)
			}
		default:
			next, r = w.d.Step(s, a, w.env)
			terminated = w.terminal != nil && w.terminal[next]
		}
		ag.Observe(s, a, r, next)
		if watch != nil {
			watch.Stepped(s, a, r, next, w.c.Steps-t, ph)
		}
		ret += r
		s = next
		if terminated || truncated {
			return ret, t + 1, terminated, nil
		}
	}
	return ret, w.c.Steps, false, nil
}

// unvisited is a simulator that counts its grid cells never visited (discretize.Sim).
type unvisited interface{ Unvisited() int }

// metrics are the task's metrics after EndTask (Record.Metrics).
func (w *world) metrics(ag agent.Agent, terminated, episodes int) []agent.Metric {
	var out []agent.Metric
	if rep, ok := ag.(agent.Reporter); ok {
		out = rep.TaskMetrics()
	}
	if w.terminal != nil || w.sim != nil && w.sim.Terminates() {
		out = append(out, agent.Metric{Name: "terminated_episodes", Value: float64(terminated)},
			agent.Metric{Name: "truncated_episodes", Value: float64(episodes - terminated)})
	}
	if u, ok := w.sim.(unvisited); ok {
		out = append(out, agent.Metric{Name: "unvisited_cells", Value: float64(u.Unvisited())})
	}
	return out
}
