package deep

import (
	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/cartpole"
)

// Env is an environment of the study and the paper's model losses on it.
type Env struct {
	Name string
	New  func() (continuous.Env, error)
	// Paper holds the losses the paper reports for Absolute, Relative and Relative + augment
	// (the source comment under its Figure 7), or nil where it gives none (LunarLander).
	Paper *[3]float64
}

// available lists the environments built into this binary; the files behind the build tags
// box2d and mujoco add LunarLander and Hopper.
var available = []Env{{
	Name:  "CartPole-v1",
	New:   func() (continuous.Env, error) { return cartpole.New(), nil },
	Paper: &[3]float64{0.05893, 0.00160, 0.00023},
}}

// Available returns the environments built into this binary, CartPole first.
func Available() []Env { return append([]Env(nil), available...) }
