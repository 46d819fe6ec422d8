// Package mountaincar is Gymnasium's MountainCar-v0 in pure Go: the under-powered car of Moore
// (1990) in a valley, with the constants, update order, clipping, termination rule, initial-state
// distribution and 200-step time limit of gymnasium/envs/classic_control/mountain_car.py.
//
// The state is (x, v): position and velocity. Action 0 accelerates left, 1 not at all, 2 right.
// A step updates
//
//	v ← clip(v + (a − 1)·force − cos(3x)·gravity, −max_speed, max_speed)
//	x ← clip(x + v, min_position, max_position);  v ← 0 if x = min_position and v < 0
//
// and pays −1. The episode terminates when x ≥ goal_position and v ≥ goal_velocity. Unlike
// Gymnasium, observations are the float64 state itself, not rounded to float32.
package mountaincar

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous"
)

// StateDim and NumActions of MountainCar.
const (
	StateDim   = 2
	NumActions = 3
)

// Params are the physics of one mountain car; DefaultParams are MountainCar-v0's. The yaml/json
// keys are the names Validate uses in its errors.
type Params struct {
	Force        float64 `yaml:"force" json:"force"`                 // engine force per step: 0 < force <= 1
	Gravity      float64 `yaml:"gravity" json:"gravity"`             // gravity: 0 < gravity <= 1
	MaxSpeed     float64 `yaml:"max_speed" json:"max_speed"`         // |v| limit: 0 < max_speed <= 10
	MinPosition  float64 `yaml:"min_position" json:"min_position"`   // left wall (inelastic)
	MaxPosition  float64 `yaml:"max_position" json:"max_position"`   // right end of the track
	GoalPosition float64 `yaml:"goal_position" json:"goal_position"` // min_position < goal <= max_position
	GoalVelocity float64 `yaml:"goal_velocity" json:"goal_velocity"` // required velocity at the goal: |v| <= max_speed
	MaxSteps     int     `yaml:"max_steps" json:"max_steps"`         // time limit (truncation), 200 in MountainCar-v0
}

// DefaultParams are the physics and time limit of MountainCar-v0.
func DefaultParams() Params {
	return Params{Force: 0.001, Gravity: 0.0025, MaxSpeed: 0.07, MinPosition: -1.2, MaxPosition: 0.6,
		GoalPosition: 0.5, GoalVelocity: 0, MaxSteps: 200}
}

// The initial position is uniform in [ResetLow, ResetHigh), the initial velocity 0.
const (
	ResetLow  = -0.6
	ResetHigh = -0.4
)

// Validate names the first parameter out of its range.
func (p Params) Validate() error {
	fail := func(err error) error { return fmt.Errorf("mountaincar: %w", err) }
	for _, c := range []struct {
		key    string
		v, max float64
	}{{"force", p.Force, 1}, {"gravity", p.Gravity, 1}, {"max_speed", p.MaxSpeed, 10}} {
		if err := continuous.CheckParam(c.key, c.v, 0, c.max); err != nil {
			return fail(err)
		}
	}
	// The track must hold the initial positions and the goal, in this order.
	if err := continuous.CheckParam("min_position", p.MinPosition, -100, ResetLow); err != nil {
		return fail(err)
	}
	if err := continuous.CheckParam("max_position", p.MaxPosition, ResetHigh, 100); err != nil {
		return fail(err)
	}
	if err := continuous.CheckParam("goal_position", p.GoalPosition, ResetHigh, p.MaxPosition); err != nil {
		return fail(err)
	}
	if err := continuous.CheckParam("goal_velocity", p.GoalVelocity, -p.MaxSpeed, p.MaxSpeed); err != nil {
		return fail(err)
	}
	if err := continuous.CheckSteps("max_steps", p.MaxSteps); err != nil {
		return fail(err)
	}
	return nil
}

// Dynamics is one step of the car from s under action a (0, 1 or 2), in Gymnasium's order.
func (p Params) Dynamics(s [StateDim]float64, a int) [StateDim]float64 {
	x, v := s[0], s[1]
	v += float64(a-1)*p.Force + math.Cos(3*x)*(-p.Gravity)
	v = min(max(v, -p.MaxSpeed), p.MaxSpeed)
	x += v
	x = min(max(x, p.MinPosition), p.MaxPosition)
	if x == p.MinPosition && v < 0 {
		v = 0
	}
	return [StateDim]float64{x, v}
}

// Terminal reports whether the car is at the goal: x ≥ goal_position and v ≥ goal_velocity.
func (p Params) Terminal(s [StateDim]float64) bool {
	return s[0] >= p.GoalPosition && s[1] >= p.GoalVelocity
}

// Env is one mountain-car episode at a time.
type Env struct {
	p     Params
	s     [StateDim]float64
	steps int
	live  bool
}

// New returns a MountainCar-v0 environment; call Reset before Step.
func New() *Env { return &Env{p: DefaultParams()} }

// NewWith returns a mountain car with the physics p, or the error of p.Validate.
func NewWith(p Params) (*Env, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Env{p: p}, nil
}

// Name is "MountainCar-v0".
func (e *Env) Name() string { return "MountainCar-v0" }

// Params are the environment's physics.
func (e *Env) Params() Params { return e.p }

// StateDim is 2: (x, v).
func (e *Env) StateDim() int { return StateDim }

// ActionDim is 1: the action's index.
func (e *Env) ActionDim() int { return 1 }

// NumActions is 3: accelerate left, not at all, right.
func (e *Env) NumActions() int { return NumActions }

// RandomAction draws 0, 1 or 2 uniformly.
func (e *Env) RandomAction(rng *rand.Rand, a []float64) { a[0] = float64(rng.IntN(NumActions)) }

// Reset draws x uniformly from [−0.6, −0.4) and sets v = 0.
func (e *Env) Reset(rng *rand.Rand, obs []float64) {
	e.s = [StateDim]float64{ResetLow + (ResetHigh-ResetLow)*rng.Float64(), 0}
	e.steps, e.live = 0, true
	copy(obs, e.s[:])
}

// State returns the current state.
func (e *Env) State() [StateDim]float64 { return e.s }

// Step applies action a[0] ∈ {0, 1, 2}, writes the next state into obs and pays −1. The
// episode terminates at the goal and is truncated at its max_steps-th step.
func (e *Env) Step(a, obs []float64) (reward float64, terminated, truncated bool, err error) {
	if !e.live {
		return 0, false, false, fmt.Errorf("mountaincar: step outside an episode (call Reset first)")
	}
	if len(a) != 1 || (a[0] != 0 && a[0] != 1 && a[0] != 2) {
		return 0, false, false, fmt.Errorf("mountaincar: action = %v, want [0], [1] or [2]", a)
	}
	e.s = e.p.Dynamics(e.s, int(a[0]))
	e.steps++
	copy(obs, e.s[:])
	terminated = e.p.Terminal(e.s)
	truncated = !terminated && e.steps >= e.p.MaxSteps
	e.live = !terminated && !truncated
	return -1, terminated, truncated, nil
}

// RewardRange is [−1, −1]: every step pays −1 (continuous.RewardRanger).
func (e *Env) RewardRange() (lo, hi float64) { return -1, -1 }

// Terminates is true: episodes end in terminal states.
func (e *Env) Terminates() bool { return true }
