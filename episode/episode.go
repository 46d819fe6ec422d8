// Package episode is the one loop that runs an agent through a task's episodes: E episodes of at
// most T steps, the agent acting in every state and observing every transition, on a task given
// by its true MDP (a stored mdp.Model, read directly, or any mdp.Dynamics computed on demand) or
// as a simulator. The runner (experiment) runs every cell of an experiment through it, task by
// task. Env is the same episodes stepped one action at a time by a learner outside the loop (the
// C library's environments, driven from Python): the rules of an episode — where it starts, a
// simulator's resets, which stream draws what and in which order, terminal states, truncation
// at T — are stated once, in world.go, for both.
//
// What observes the episodes comes in through narrow hooks (Hooks): a Watcher sees every step
// (the oracle), a Returns recorder every episode's return. The loop draws only from the streams
// it is given (Streams, from package stream), so a Watcher that draws nothing leaves every
// result unchanged, and the loop allocates nothing per step.
//
// It may import the learner interface (agent), the tabular model (mdp) and the seeded streams
// (stream); nothing of the runner, the results or the environments (a simulator is the small
// Simulator interface below), so that a caller outside the runner can use it.
package episode

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/stream"
)

// Starts says where a task's episodes start (decision 19).
type Starts int

const (
	// StartPerTask draws one start for the task, shared by its episodes: a table task's start
	// state, or for a simulator the same reset draw (the same continuous start) in every episode.
	StartPerTask Starts = iota
	// StartPerEpisode draws a new start for every episode.
	StartPerEpisode
	// StartFixed starts every episode of a table task in Task.Fixed.
	StartFixed
)

// Config is how the episodes of a task run: the same for every task of an experiment.
type Config struct {
	Episodes int     // E: the episodes of a task
	Steps    int     // T: the most steps of an episode
	Gamma    float64 // γ, told to the agent
	Starts   Starts
}

// Streams are the random streams of one agent on one task.
type Streams struct {
	Agent *rand.Rand // the agent's own draws (agent.Task.Rand)
	Env   *rand.Rand // a table task's transitions; a simulator's steps draw nothing
	Start *rand.Rand // the start states, or a simulator's resets: the same for every agent of a run
}

// StreamsOf are the streams of agent name on task k of run in an experiment of seed seed, as the
// runner draws them.
func StreamsOf(seed uint64, run int, name string, k int) Streams {
	return Streams{
		Agent: stream.New(seed, run, name, k, stream.Agent),
		Env:   stream.New(seed, run, name, k, stream.Env),
		Start: stream.New(seed, run, "", k, stream.Start),
	}
}

// Simulator is a task that only steps (env.Simulator): its episodes end when a step terminates
// or truncates them, and the agent learns its terminal states from the steps that reach them.
type Simulator interface {
	Size() (states, actions int)
	Terminates() bool
	Reset(rng *rand.Rand) (int, error)
	Step(a int) (next int, reward float64, terminated, truncated bool, err error)
}

// Task is one task as the loop runs it: a table (its true MDP) or a simulator.
type Task struct {
	Index int    // k, the task's position in its sequence (agent.Task.Index)
	Name  string // the task's name, for errors
	// Table is the task's true MDP, nil for a simulator. A stored *mdp.Model is read directly;
	// the agent is given it as agent.Task.Truth.
	Table mdp.Dynamics
	// Fixed is the start state of every episode under StartFixed.
	Fixed int
	// Sim is the task as a simulator, nil for a table.
	Sim Simulator
}

// Hooks are what observes a task's episodes; a nil hook observes nothing.
type Hooks struct {
	Steps   Watcher
	Acting  ActWatcher
	Returns Returns
}

// Watcher sees every step of every episode as the agent takes it (the oracle). It must draw no
// random numbers and change nothing the agent sees.
type Watcher interface {
	// Episode is told the start state of every episode.
	Episode(start int)
	// Stepped is told every transition (s, a, r, next) after the agent observed it, with togo
	// steps to go in the episode's horizon T counting this one, and the agent's phase in s
	// (agent.StepInfo, read after Act; agent.Unclassified for an agent without phases).
	Stepped(s, a int, r float64, next, togo int, ph agent.Phase)
}

// ActWatcher is told every state s before the agent acts in it (the oracle's policy
// evaluation, which reads the agent's policy then). Like a Watcher it must draw no random
// numbers and change nothing the agent sees.
type ActWatcher interface {
	Acting(s int)
}

// Returns records the return of every episode (the undiscounted sum of its rewards).
type Returns interface {
	Return(episode int, ret float64)
}

// Record is what a task's episodes leave.
type Record struct {
	Start     int     // the start state of the first episode
	Steps     int     // steps taken: an episode ends early when it terminates or is truncated
	Reward    float64 // the sum of every episode's return
	States    int
	Actions   int
	Simulated bool // the task was a simulator
	// Metrics are the agent's (agent.Reporter) then, when episodes can terminate,
	// terminated_episodes and truncated_episodes, and a simulator's unvisited_cells.
	Metrics []agent.Metric
}

// ErrNoTerminalObserver is the error of an agent that cannot learn terminal states from
// experience (it does not implement agent.TerminalObserver) on a simulator whose episodes
// terminate.
var ErrNoTerminalObserver = errors.New("the agent cannot learn terminal states from experience (it does not implement agent.TerminalObserver)")

// Run runs ag through the c.Episodes episodes of task t, each of at most c.Steps steps: BeginTask,
// then every step Act and Observe, EndEpisode after every episode, EndTask at the end. A table
// task's terminal states are declared to the agent up front; on a simulator the first step that
// terminates into a state s calls ObserveTerminal(s) before Observe.
func Run(ag agent.Agent, t Task, c Config, st Streams, h Hooks) (Record, error) {
	w, err := begin(ag, t, c, st)
	if err != nil {
		return Record{}, err
	}
	rec := Record{States: w.S, Actions: w.A, Simulated: t.Sim != nil}
	var phases agent.StepInfo
	if h.Steps != nil {
		phases, _ = ag.(agent.StepInfo)
	}
	terminated := 0 // episodes that reached a terminal state; the others were truncated
	for e := 0; e < c.Episodes; e++ {
		s, err := w.reset()
		if err != nil {
			return Record{}, fmt.Errorf("episode %d: %w", e, err)
		}
		if e == 0 {
			rec.Start = s
		}
		if h.Steps != nil {
			h.Steps.Episode(s)
		}
		ret, steps, term, err := w.episode(ag, s, phases, h)
		if err != nil {
			return Record{}, fmt.Errorf("episode %d, step %d: %w", e, steps, err)
		}
		if term {
			terminated++
		}
		ag.EndEpisode()
		rec.Steps += steps
		rec.Reward += ret
		if h.Returns != nil {
			h.Returns.Return(e, ret)
		}
	}
	ag.EndTask()
	rec.Metrics = w.metrics(ag, terminated, c.Episodes)
	return rec, nil
}

// TableStarts are the start states of every episode of table task t as Run draws them from
// st.Start: one for the task but under StartPerEpisode (the oracle solves a task computed on
// demand around them).
func TableStarts(t Task, c Config, st Streams) []int {
	out := []int{startState(t, c, st.Start)}
	if c.Starts == StartPerEpisode {
		for e := 1; e < c.Episodes; e++ {
			out = append(out, startState(t, c, st.Start))
		}
	}
	return out
}

// startState draws the start state of an episode of table task t: the fixed state, or from the
// task's start distribution (for a maze, uniform over its open cells).
func startState(t Task, c Config, rng *rand.Rand) int {
	if c.Starts == StartFixed {
		return t.Fixed
	}
	return t.Table.SampleStart(rng)
}
