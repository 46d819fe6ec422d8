package episode

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// world is one task's episodes as Run and Env step them: every rule of the environment's side
// of an episode (its start, the resets, a transition, terminal states, truncation at T) is
// stated once here. Exactly one of m (a stored model), d (a table computed on demand) and sim
// is read per step.
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
	// A simulator, and the stream of its resets: re-seeded with taskSeed before every reset
	// under StartPerTask, so every episode starts with the same draw.
	sim      Simulator
	resets   *rand.Rand
	perTask  *rand.PCG
	taskSeed uint64
	// The agent of Run learning a simulator's terminal states, and the states already reported
	// terminal to it; nil under Env, whose learner is told terminated by each step.
	observer agent.TerminalObserver
	seen     []bool

	episodes int // episodes started
}

// newWorld makes the world of task t, its streams at their beginning. Under StartPerTask a
// simulator's task seed is drawn here, the first draw of st.Start.
func newWorld(t Task, c Config, st Streams) (*world, error) {
	w := &world{c: c, t: t}
	switch {
	case c.Steps < 1:
		return nil, fmt.Errorf("steps = %d, want at least 1", c.Steps)
	case (t.Table == nil) == (t.Sim == nil):
		return nil, fmt.Errorf("task %d (%s): give exactly one of a table and a simulator", t.Index, t.Name)
	case t.Sim != nil && c.Starts == StartFixed:
		return nil, fmt.Errorf("task %d (%s) is a simulator, whose episodes start where its reset lands: a fixed start needs a table task", t.Index, t.Name)
	case t.Sim != nil:
		w.sim = t.Sim
		w.S, w.A = w.sim.Size()
		w.resets = st.Start
		if c.Starts == StartPerTask {
			w.taskSeed = st.Start.Uint64()
			w.perTask = rand.NewPCG(w.taskSeed, 0)
			w.resets = rand.New(w.perTask)
		}
		return w, nil
	}
	w.d, w.env, w.starts = t.Table, st.Env, st.Start
	w.m, _ = t.Table.(*mdp.Model)
	w.S, w.A = t.Table.Size()
	w.terminal = t.Table.TerminalStates()
	return w, nil
}

// begin makes the world of task t and begins the task for ag: a table task's agent is told its
// terminal states and its true model, a simulator's neither.
func begin(ag agent.Agent, t Task, c Config, st Streams) (*world, error) {
	w, err := newWorld(t, c, st)
	if err != nil {
		return nil, err
	}
	if w.sim == nil {
		return w, ag.BeginTask(agent.Task{Index: t.Index, S: w.S, A: w.A, Gamma: c.Gamma, Rand: st.Agent,
			Terminal: t.Table.TerminalStates(), Truth: w.m, Rewards: agent.RewardsOf(t.Table)})
	}
	if err := ag.BeginTask(agent.Task{Index: t.Index, S: w.S, A: w.A, Gamma: c.Gamma, Rand: st.Agent, Rewards: SimRewards(w.sim)}); err != nil {
		return nil, err
	}
	if w.sim.Terminates() {
		var ok bool
		if w.observer, ok = ag.(agent.TerminalObserver); !ok {
			return nil, fmt.Errorf("agent type %T: %w, but task %d (%s) is a simulator whose episodes terminate", ag, ErrNoTerminalObserver, t.Index, t.Name)
		}
		w.seen = make([]bool, w.S)
	}
	return w, nil
}

// RewardRanger is a simulator that states the range of its rewards (ok false: it states none).
type RewardRanger interface {
	RewardRange() (lo, hi float64, ok bool)
}

// SimRewards is the reward range a simulator states (RewardRanger), nil when it states none.
func SimRewards(sim any) *agent.RewardRange {
	r, ok := sim.(RewardRanger)
	if !ok {
		return nil
	}
	lo, hi, ok := r.RewardRange()
	if !ok {
		return nil
	}
	return &agent.RewardRange{Min: lo, Max: hi}
}

// reset starts the next episode and returns its start state: a simulator's reset; a table
// task's start drawn for the first episode and, under StartPerEpisode, for every episode.
func (w *world) reset() (int, error) {
	first := w.episodes == 0
	w.episodes++
	if w.sim != nil {
		if w.perTask != nil {
			w.perTask.Seed(w.taskSeed, 0)
		}
		return w.sim.Reset(w.resets)
	}
	if first || w.c.Starts == StartPerEpisode {
		w.start = startState(w.t, w.c, w.starts)
	}
	return w.start, nil
}

// terminates reports whether a table task's step into next ends the episode there.
func (w *world) terminates(next int) bool { return w.terminal != nil && w.terminal[next] }

// truncates reports whether the steps-th step of an episode truncates it: a simulator's own time
// limit did (simTruncated), or it is the T-th step and did not terminate.
func (w *world) truncates(steps int, terminated, simTruncated bool) bool {
	return simTruncated || !terminated && steps >= w.c.Steps
}

// transition is the outcome of action a in state s: a table task's next state and reward drawn
// from the environment stream, and whether next is terminal; or the simulator's step. Env steps
// through it; Run's loop writes it out.
func (w *world) transition(s, a int) (next int, r float64, terminated, simTruncated bool, err error) {
	if w.sim != nil {
		return w.sim.Step(a)
	}
	next, r = w.d.Step(s, a, w.env)
	return next, r, w.terminates(next), false, nil
}

// episode runs one episode of ag from s until it terminates or is truncated, and returns its
// return, its steps and whether it terminated. On a simulator the first step that terminates
// into a state tells the agent (ObserveTerminal) before it observes the step.
func (w *world) episode(ag agent.Agent, s int, phases agent.StepInfo, h Hooks) (ret float64, steps int, terminated bool, err error) {
	watch, acting := h.Steps, h.Acting
	for t := 1; ; t++ {
		if acting != nil {
			acting.Acting(s)
		}
		a := ag.Act(s)
		ph := agent.Unclassified
		if phases != nil {
			ph = phases.Phase(s)
		}
		// transition, written out: a stored model is read without an interface call, and the
		// call of transition itself costs a simulator's step here about 40% (BenchmarkSimulatorRunner).
		var next int
		var r float64
		var truncated bool
		switch {
		case w.m != nil:
			next, r = w.m.Step(s, a, w.env)
			terminated = w.terminates(next)
		case w.sim != nil:
			if next, r, terminated, truncated, err = w.sim.Step(a); err != nil {
				return ret, t - 1, false, err
			}
		default:
			next, r = w.d.Step(s, a, w.env)
			terminated = w.terminates(next)
		}
		if terminated && w.observer != nil && !w.seen[next] {
			w.seen[next] = true
			w.observer.ObserveTerminal(next)
		}
		ag.Observe(s, a, r, next)
		if watch != nil {
			watch.Stepped(s, a, r, next, w.c.Steps-t+1, ph)
		}
		ret += r
		s = next
		if terminated || w.truncates(t, terminated, truncated) {
			return ret, t, terminated, nil
		}
	}
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
