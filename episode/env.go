package episode

import (
	"errors"
	"fmt"
)

// Env is a task's episodes stepped one action at a time by a learner that Run does not drive (the
// C library's environments, stepped from Python): Run without its agent. Its episodes follow
// Run's rules, stated once for both — the start rule, a simulator's resets, the transitions drawn
// from the same streams in the same order, terminal states, truncation at T — so a learner that
// acts as Run's agent would sees the same episodes. The learner is told no terminal states up
// front: a step says when it terminated.
type Env struct {
	w         *world
	s         int  // the current state
	steps     int  // the steps taken in the episode
	inEpisode bool // Reset was called and the episode has not ended
}

// NewEnv is the environment of task t with its streams at their beginning: st.Env draws a table
// task's transitions and st.Start its starts or a simulator's resets, as Run draws them (st.Agent
// is not read).
func NewEnv(t Task, c Config, st Streams) (*Env, error) {
	w, err := newWorld(t, c, st)
	if err != nil {
		return nil, err
	}
	return &Env{w: w}, nil
}

// Size is the task's number of states and of actions.
func (e *Env) Size() (states, actions int) { return e.w.S, e.w.A }

// Reset starts the next episode and returns its start state.
func (e *Env) Reset() (int, error) {
	s, err := e.w.reset()
	if err != nil {
		return 0, err
	}
	e.s, e.steps, e.inEpisode = s, 0, true
	return s, nil
}

// errNoEpisode is the error of a step before the first Reset.
var errNoEpisode = errors.New("no episode in progress: call reset first")

// ErrEpisodeOver is the error of a step after the episode terminated or was truncated.
var ErrEpisodeOver = errors.New("the episode has ended (terminated or truncated): call reset")

// Step takes action a in the current state and returns the next state, the reward, and whether
// the step ended the episode: terminated in a terminal state, or truncated (after T steps, or by
// a simulator's own time limit). A step before Reset or after the end of its episode, and an
// action out of range, are refused and change nothing.
func (e *Env) Step(a int) (next int, reward float64, terminated, truncated bool, err error) {
	switch {
	case !e.inEpisode && e.w.episodes == 0:
		return 0, 0, false, false, errNoEpisode
	case !e.inEpisode:
		return 0, 0, false, false, ErrEpisodeOver
	case a < 0 || a >= e.w.A:
		return 0, 0, false, false, fmt.Errorf("action %d out of range [0, %d)", a, e.w.A)
	}
	if next, reward, terminated, truncated, err = e.w.transition(e.s, a); err != nil {
		return 0, 0, false, false, err
	}
	e.steps++
	truncated = e.w.truncates(e.steps, terminated, truncated)
	e.s, e.inEpisode = next, !terminated && !truncated
	return next, reward, terminated, truncated, nil
}
