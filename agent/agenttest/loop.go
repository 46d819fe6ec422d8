// Package agenttest is what the learners' tests and benchmarks share, as net/http/httptest is
// for handlers: the episode loop (Loop), an agent acting in a state and observing the transition
// its action draws from a task's true MDP, step after step, the transitions drawn from one rng;
// and the benchmarks' workload (Mazes, Run), random 4×4 mazes of the online setting, one whole
// task an iteration. It is for _test files, where a test sets up BeginTask and the start states
// itself; experiments run through package episode, whose streams and start rules this loop does
// not follow.
package agenttest

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
)

// Task is what the loop needs of a task's true MDP (an *mdp.Model or any mdp.Dynamics).
type Task interface {
	// Step draws the transition from (s, a) from rng.
	Step(s, a int, rng *rand.Rand) (next int, reward float64)
	// Terminal reports whether an episode ends on reaching s.
	Terminal(s int) bool
}

// Loop is an agent on a task, the task's transitions drawn from Rand.
type Loop struct {
	Agent agent.Agent
	Task  Task
	Rand  *rand.Rand
	// StopAtTerminal ends an episode early on reaching a terminal state; without it the agent
	// goes on acting there.
	StopAtTerminal bool
	// AfterStep, if not nil, is told every transition after the agent observed it.
	AfterStep func(s, a int, r float64, next int)
}

// Steps runs at most n steps from state s, the agent acting in each state and observing each
// transition, and returns the state reached and the sum of the rewards. It ends no episode.
func (l Loop) Steps(s, n int) (last int, total float64) {
	for range n {
		a := l.Agent.Act(s)
		next, r := l.Task.Step(s, a, l.Rand)
		l.Agent.Observe(s, a, r, next)
		if l.AfterStep != nil {
			l.AfterStep(s, a, r, next)
		}
		total += r
		s = next
		if l.StopAtTerminal && l.Task.Terminal(s) {
			break
		}
	}
	return s, total
}

// Episode runs an episode of at most n steps from state s, ends it (EndEpisode) and returns its
// return (the sum of its rewards).
func (l Loop) Episode(s, n int) float64 {
	_, total := l.Steps(s, n)
	l.Agent.EndEpisode()
	return total
}
