// Package agent is the learner seam: what a learner is to the rest of temple. It defines how a
// learner meets a sequence of tasks (Agent, Task), the base-learner seam that TempLe's agents
// build on (Base, with the statistics every base keeps, Stats, and NewSingle, the single-task
// agent of a base), and what the runner reads of a learner (Metric, Phase, StepInfo, PolicyInfo).
// The learners themselves are elsewhere: the single-task ones in package learners, the template
// learners in temple, the published baselines in baseline. It imports mdp alone, so that the
// readers of results, the oracle and the episode driver carry no learner.
package agent

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/mdp"
)

// Task is what a learner is told when a task begins.
type Task struct {
	Index int // position in the task sequence, from 0
	S, A  int // numbers of states and actions of this task
	Gamma float64
	// Rand is the learner's own random stream for this task.
	Rand *rand.Rand
	// Terminal[s] says that an episode ends on reaching s (nil when no state is terminal). It is
	// the environment's "terminated" signal: in a tabular task a state is terminal or not, so the
	// learner is told up front. A terminal state has value 0: learners bootstrap nothing past it.
	Terminal []bool
	// Truth is the task's true model. Learners must not read it to act: it is there for
	// ground-truth diagnostics (for instance the misidentification rate of templates).
	Truth *mdp.Model
	// Rewards is the range of the task's rewards when the task states one, nil when it does not
	// (a simulator whose environment states none, a task driven from outside through the C ABI).
	// A table task's is the smallest and largest reward of its transitions out of states that are
	// not terminal; a simulator's is its environment's. Unlike Truth, a learner may act on it: it
	// says what a reward can be, as RMax's R_max does, not where it is paid (PSRL's Beta posterior
	// scales rewards by it unless given a range).
	Rewards *RewardRange
}

// RewardRange is the closed interval [Min, Max] of a task's rewards (Min = Max when every reward
// is the same).
type RewardRange struct{ Min, Max float64 }

// RewardsOf is the reward range a table task states: the smallest and largest reward of its
// transitions out of states that are not terminal (mdp.RewardRange). Unreachable states (a maze's
// walls) count too, so the range may be wider than the rewards a learner can meet, never narrower.
func RewardsOf(d mdp.Dynamics) *RewardRange {
	lo, hi := mdp.RewardRange(d)
	return &RewardRange{Min: lo, Max: hi}
}

// Check names what is wrong with a stated range: a bound that is not a finite number, or Min > Max.
func (r RewardRange) Check() error {
	switch {
	case math.IsNaN(r.Min) || math.IsInf(r.Min, 0) || math.IsNaN(r.Max) || math.IsInf(r.Max, 0):
		return fmt.Errorf("reward range [%v, %v], want finite numbers", r.Min, r.Max)
	case r.Min > r.Max:
		return fmt.Errorf("reward range [%v, %v], want min <= max", r.Min, r.Max)
	}
	return nil
}

// TaskChecker is implemented by a learner, or a base learner, that needs more of a task than its
// size: CheckTask says what is missing before the task begins (PSRL's Beta posterior without a
// given range needs the task's, Task.Rewards). The runner checks every agent on the tasks of a
// config before any cell runs, and the seam checks each task again as it begins (BeginBase).
type TaskChecker interface {
	CheckTask(t Task) error
}

// CheckTask checks task t for x — an agent, or a base learner — when x, or the base learner it
// runs over (an agent with a Base() method), is a TaskChecker; nil otherwise.
func CheckTask(x any, t Task) error {
	if c, ok := x.(TaskChecker); ok {
		return c.CheckTask(t)
	}
	if o, ok := x.(interface{ Base() Base }); ok {
		if c, ok := o.Base().(TaskChecker); ok {
			return c.CheckTask(t)
		}
	}
	return nil
}

// BeginBase checks task t for base b (TaskChecker) and begins it: what every agent over a base
// calls in its BeginTask, so that a base refuses a task it cannot learn with an error, not a
// panic.
func BeginBase(b Base, t Task) error {
	if err := CheckTask(b, t); err != nil {
		return err
	}
	b.Begin(t)
	return nil
}

// Agent learns across a sequence of tasks. For each task the runner calls BeginTask, then for
// every step Act and Observe, EndEpisode after each episode — which ends at the step limit or on
// reaching a terminal state — and EndTask at the end. A single-task
// learner forgets everything in BeginTask; a multi-task learner keeps what it has learned.
type Agent interface {
	BeginTask(t Task) error
	// Act chooses an action in state s.
	Act(s int) int
	// Observe reports the transition (s, a, r, s′) that followed Act.
	Observe(s, a int, r float64, next int)
	EndEpisode()
	EndTask()
}

// IsTerminal reports whether state s of the task is terminal.
func (t Task) IsTerminal(s int) bool { return t.Terminal != nil && t.Terminal[s] }

// TerminalObserver is implemented by learners that can learn during a task that a state is
// terminal. An environment driven from outside — a simulator, a Gymnasium loop through the C
// ABI — reports terminated per step instead of declaring its terminal states up front in
// Task.Terminal. The driver calls ObserveTerminal(s′) before Observe the first time a step
// reports terminated into s′; from then on the learner treats s′ exactly as a declared terminal
// state (value 0, nothing bootstrapped past it).
type TerminalObserver interface {
	ObserveTerminal(s int)
}

// WithTerminal is terminal (of S states; nil: none) with s marked terminal, as a new slice: the
// old one may be shared with the task or other learners.
func WithTerminal(terminal []bool, S, s int) []bool {
	out := make([]bool, S)
	copy(out, terminal)
	out[s] = true
	return out
}

// Metric is one named per-task diagnostic number.
type Metric struct {
	Name  string
	Value float64
}

// Reporter is implemented by agents with per-task diagnostics; the runner calls TaskMetrics
// after EndTask and records them with the task.
type Reporter interface {
	TaskMetrics() []Metric
}

// Remote is implemented by learners that run in another process or language (package external:
// a learner speaking temple's agent protocol, a Python learner): a call across the boundary can
// fail where a Go learner cannot (the process exits, raises, answers junk or nothing in time).
// After its first failure the learner answers Act with action 0 without asking, so that the rest
// of the task runs at no cost, and Err says what failed; the runner checks Err after every task
// and ends the cell with it. Close ends the learner's process; the runner calls it when the
// cell ends, however it ends.
type Remote interface {
	Err() error
	Close() error
}

// Greedy returns an action maximising q, ties broken uniformly at random with rng.
func Greedy(q []float64, rng *rand.Rand) int {
	best, ties := 0, 1
	for a := 1; a < len(q); a++ {
		switch {
		case q[a] > q[best]:
			best, ties = a, 1
		case q[a] == q[best]:
			ties++
		}
	}
	if ties == 1 {
		return best
	}
	k := rng.IntN(ties)
	for a := best; ; a++ {
		if q[a] == q[best] {
			if k == 0 {
				return a
			}
			k--
		}
	}
}

// Phase is what a model-based learner's choice in a state rests on, for the decomposition of its
// regret (the runner attributes each step's regret to the phase of the state it acted in).
type Phase uint8

const (
	// Unclassified: the agent does not report its phase (model-free learners).
	Unclassified Phase = iota
	// Exploring: some action of the state is unknown (fewer than its known threshold of samples).
	Exploring
	// Misidentified: every action of the state is known, and at least one of them through a
	// transition template farther than τ̂ from the pair's true template (negative transfer).
	Misidentified
	// KnownModel: every action of the state is known and none through a wrong template; regret
	// here comes from the estimation error of the known model and the plan on it.
	KnownModel
	// Phases is the number of phases.
	Phases
)

// StepInfo is implemented by learners that can say, at every step, the phase of the state they
// act in. The runner calls Phase(s) after Act(s) and before Observe; it must not change the
// learner or draw random numbers, and must not allocate.
type StepInfo interface {
	Phase(s int) Phase
}

// PolicyInfo is implemented by learners that can give their current policy π_t, for Kakade's
// measure of sample complexity (steps where V^{π_t}(s_t) < V*(s_t) − ε). PolicyVersion changes
// whenever π_t may have changed; Policy writes π_t(·|s), the distribution of the action Act would
// take in s now, into dst (length A). Neither may change the learner or draw random numbers.
type PolicyInfo interface {
	PolicyVersion() uint64
	Policy(s int, dst []float64)
}

// String is the phase's name as the results files write it.
func (p Phase) String() string {
	switch p {
	case Unclassified:
		return "unclassified"
	case Exploring:
		return "exploring"
	case Misidentified:
		return "misidentified"
	case KnownModel:
		return "known_model"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}
