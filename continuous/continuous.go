// Package continuous holds environments with continuous states for the deep extension of TempLe
// (paper Appendix F.6) and for discretized tasks (package continuous/discretize), and the
// collection of transitions (s_t, a_t, s_{t+1}) from them on which dynamics models are learned.
//
// Gymnasium's classic control is pure Go — CartPole, MountainCar, Acrobot and Pendulum (packages
// continuous/cartpole, …), each with its physics as a Params struct that a task sequence may vary.
// LunarLander (Box2D) and Hopper (MuJoCo) need C libraries and live behind the build tags box2d
// and mujoco, so that the module builds and tests without them.
package continuous

import (
	"fmt"
	"math/rand/v2"
)

// Env is an episodic environment with a continuous state. It is stateful: Reset starts an
// episode, Step advances it. Actions are vectors of ActionDim numbers: a discrete action is a
// single number holding its index (CartPole: 0 pushes left, 1 pushes right).
type Env interface {
	// Name is the environment's name, as Gymnasium spells it (e.g. "CartPole-v1").
	Name() string
	// StateDim is the length of an observation, ActionDim the length of an action.
	StateDim() int
	ActionDim() int
	// RandomAction writes an action drawn uniformly from the action space into a.
	RandomAction(rng *rand.Rand, a []float64)
	// Reset starts an episode from a random initial state and writes its observation into obs.
	Reset(rng *rand.Rand, obs []float64)
	// Step applies action a, writes the next observation into obs and reports the reward and
	// whether the episode terminated (a terminal state) or was truncated (time limit). An action
	// outside the action space is an error, and so is a step after the end of an episode.
	Step(a, obs []float64) (reward float64, terminated, truncated bool, err error)
}

// RewardRanger is an environment that states the range of its rewards: every step's reward lies
// in [lo, hi] (lo = hi when every step pays the same). A discretized task passes it on to its
// learners (agent.Task.Rewards).
type RewardRanger interface {
	RewardRange() (lo, hi float64)
}

// Transitions are n samples (s_t, a_t, s_{t+1}) stored row-major in flat slices: row i of S is
// S[i*StateDim:(i+1)*StateDim], and likewise for A and Next.
type Transitions struct {
	StateDim, ActionDim int
	S, A, Next          []float64
}

// Len is the number of transitions.
func (t *Transitions) Len() int {
	if t.StateDim == 0 {
		return 0
	}
	return len(t.S) / t.StateDim
}

// Row returns the slices of transition i (sharing the storage).
func (t *Transitions) Row(i int) (s, a, next []float64) {
	sd, ad := t.StateDim, t.ActionDim
	return t.S[i*sd : (i+1)*sd], t.A[i*ad : (i+1)*ad], t.Next[i*sd : (i+1)*sd]
}

// Head returns the first n transitions (sharing the storage).
func (t *Transitions) Head(n int) *Transitions {
	sd, ad := t.StateDim, t.ActionDim
	return &Transitions{StateDim: sd, ActionDim: ad, S: t.S[:n*sd], A: t.A[:n*ad], Next: t.Next[:n*sd]}
}

// CollectRandom runs env under the uniformly random policy (every action drawn by
// env.RandomAction) and returns the first n transitions. Episodes are chained: when one
// terminates or is truncated, the next begins with Reset. Transitions into a terminal state are
// kept (their next state is the true successor); no transition leaves a terminal state.
// All randomness (initial states, actions, and the environment's own noise) comes from rng.
func CollectRandom(env Env, rng *rand.Rand, n int) (*Transitions, error) {
	if n < 0 {
		return nil, fmt.Errorf("continuous: collect n = %d transitions, want n >= 0", n)
	}
	sd, ad := env.StateDim(), env.ActionDim()
	t := &Transitions{StateDim: sd, ActionDim: ad,
		S: make([]float64, 0, n*sd), A: make([]float64, 0, n*ad), Next: make([]float64, 0, n*sd)}
	obs := make([]float64, sd)
	a := make([]float64, ad)
	env.Reset(rng, obs)
	for range n {
		env.RandomAction(rng, a)
		t.S = append(t.S, obs...)
		t.A = append(t.A, a...)
		_, term, trunc, err := env.Step(a, obs)
		if err != nil {
			return nil, fmt.Errorf("continuous: collecting from %s: %w", env.Name(), err)
		}
		t.Next = append(t.Next, obs...)
		if term || trunc {
			env.Reset(rng, obs)
		}
	}
	return t, nil
}
