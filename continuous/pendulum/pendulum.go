// Package pendulum is Gymnasium's Pendulum-v1 in pure Go: swinging a frictionless pendulum up and
// keeping it upright with a bounded torque, with the constants, semi-implicit Euler step, cost,
// initial-state distribution and 200-step time limit of
// gymnasium/envs/classic_control/pendulum.py.
//
// The state is (θ, θ̇), θ = 0 upright; the observation is (cos θ, sin θ, θ̇). The action is a
// torque u ∈ [−max_torque, max_torque] (continuous; the discretize package makes a discrete set
// of torques from it). A step pays −(norm(θ)² + 0.1·θ̇² + 0.001·u²), norm(θ) ∈ [−π, π), then
//
//	θ̇ ← clip(θ̇ + (3g/(2l)·sin θ + 3/(m l²)·u)·dt, −max_speed, max_speed);  θ ← θ + θ̇·dt
//
// and never terminates. Observations are float64, not rounded to float32.
package pendulum

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous"
)

// StateDim is the length of the state (θ, θ̇), ObsDim of the observation (cos θ, sin θ, θ̇).
const (
	StateDim = 2
	ObsDim   = 3
)

// The initial state is uniform in [−ResetAngle, ResetAngle) × [−ResetSpeed, ResetSpeed)
// (Gymnasium's DEFAULT_X and DEFAULT_Y).
const (
	ResetAngle = math.Pi
	ResetSpeed = 1.0
)

// Params are the physics of one pendulum; DefaultParams are Pendulum-v1's. The yaml/json keys
// are the names Validate uses in its errors.
type Params struct {
	Gravity   float64 `yaml:"gravity" json:"gravity"`       // g: 0 < g <= 100 (Gymnasium's g, default 10)
	Mass      float64 `yaml:"mass" json:"mass"`             // m: 0 < m <= 1000
	Length    float64 `yaml:"length" json:"length"`         // l: 0 < l <= 100
	MaxSpeed  float64 `yaml:"max_speed" json:"max_speed"`   // |θ̇| limit: 0 < max_speed <= 1000
	MaxTorque float64 `yaml:"max_torque" json:"max_torque"` // |u| limit: 0 < max_torque <= 1000
	Dt        float64 `yaml:"dt" json:"dt"`                 // seconds per step: 0 < dt <= 1
	MaxSteps  int     `yaml:"max_steps" json:"max_steps"`   // time limit (truncation), 200 in Pendulum-v1
}

// DefaultParams are the physics and time limit of Pendulum-v1.
func DefaultParams() Params {
	return Params{Gravity: 10, Mass: 1, Length: 1, MaxSpeed: 8, MaxTorque: 2, Dt: 0.05, MaxSteps: 200}
}

// Validate names the first parameter out of its range.
func (p Params) Validate() error {
	for _, c := range []struct {
		key    string
		v, max float64
	}{{"gravity", p.Gravity, 100}, {"mass", p.Mass, 1000}, {"length", p.Length, 100},
		{"max_speed", p.MaxSpeed, 1000}, {"max_torque", p.MaxTorque, 1000}, {"dt", p.Dt, 1}} {
		if err := continuous.CheckParam(c.key, c.v, 0, c.max); err != nil {
			return fmt.Errorf("pendulum: %w", err)
		}
	}
	if err := continuous.CheckSteps("max_steps", p.MaxSteps); err != nil {
		return fmt.Errorf("pendulum: %w", err)
	}
	return nil
}

// AngleNormalize maps θ into [−π, π) as Gymnasium's angle_normalize: ((θ + π) mod 2π) − π, the
// modulo taking the sign of the divisor.
func AngleNormalize(theta float64) float64 {
	m := math.Mod(theta+math.Pi, 2*math.Pi)
	if m < 0 {
		m += 2 * math.Pi
	}
	return m - math.Pi
}

// Dynamics is one step from s under torque u (already within ±max_torque) and its reward.
func (p Params) Dynamics(s [StateDim]float64, u float64) ([StateDim]float64, float64) {
	th, thDot := s[0], s[1]
	n := AngleNormalize(th)
	cost := n*n + 0.1*thDot*thDot + 0.001*u*u
	newThDot := thDot + (3*p.Gravity/(2*p.Length)*math.Sin(th)+3.0/(p.Mass*p.Length*p.Length)*u)*p.Dt
	newThDot = min(max(newThDot, -p.MaxSpeed), p.MaxSpeed)
	return [StateDim]float64{th + newThDot*p.Dt, newThDot}, -cost
}

// Env is one pendulum episode at a time.
type Env struct {
	p     Params
	s     [StateDim]float64
	steps int
	live  bool
}

// New returns a Pendulum-v1 environment; call Reset before Step.
func New() *Env { return &Env{p: DefaultParams()} }

// NewWith returns a pendulum with the physics p, or the error of p.Validate.
func NewWith(p Params) (*Env, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Env{p: p}, nil
}

// Name is "Pendulum-v1".
func (e *Env) Name() string { return "Pendulum-v1" }

// Params are the environment's physics.
func (e *Env) Params() Params { return e.p }

// StateDim is 3: the observation (cos θ, sin θ, θ̇).
func (e *Env) StateDim() int { return ObsDim }

// ActionDim is 1: the torque.
func (e *Env) ActionDim() int { return 1 }

// ActionBounds is [−max_torque, max_torque].
func (e *Env) ActionBounds() (low, high []float64) {
	return []float64{-e.p.MaxTorque}, []float64{e.p.MaxTorque}
}

// RandomAction draws a torque uniformly from [−max_torque, max_torque).
func (e *Env) RandomAction(rng *rand.Rand, a []float64) {
	a[0] = -e.p.MaxTorque + 2*e.p.MaxTorque*rng.Float64()
}

// Reset draws θ uniformly from [−π, π) and θ̇ from [−1, 1).
func (e *Env) Reset(rng *rand.Rand, obs []float64) {
	e.s[0] = -ResetAngle + 2*ResetAngle*rng.Float64()
	e.s[1] = -ResetSpeed + 2*ResetSpeed*rng.Float64()
	e.steps, e.live = 0, true
	e.observe(obs)
}

func (e *Env) observe(obs []float64) {
	sin, cos := math.Sincos(e.s[0])
	obs[0], obs[1], obs[2] = cos, sin, e.s[1]
}

// State returns the current state (θ, θ̇).
func (e *Env) State() [StateDim]float64 { return e.s }

// Step applies torque a[0] and writes the next observation into obs. A torque outside
// [−max_torque, max_torque] is an error (Gymnasium clips it). The episode never terminates and
// is truncated at its max_steps-th step.
func (e *Env) Step(a, obs []float64) (reward float64, terminated, truncated bool, err error) {
	if !e.live {
		return 0, false, false, fmt.Errorf("pendulum: step outside an episode (call Reset first)")
	}
	if len(a) != 1 || !(a[0] >= -e.p.MaxTorque && a[0] <= e.p.MaxTorque) {
		return 0, false, false, fmt.Errorf("pendulum: action = %v, want one torque in [%v, %v]", a, -e.p.MaxTorque, e.p.MaxTorque)
	}
	e.s, reward = e.p.Dynamics(e.s, a[0])
	e.steps++
	e.observe(obs)
	truncated = e.steps >= e.p.MaxSteps
	e.live = !truncated
	return reward, false, truncated, nil
}

// RewardRange is [−(π² + 0.1·max_speed² + 0.001·max_torque²), 0] (continuous.RewardRanger): a
// step costs θ² + 0.1·θ̇² + 0.001·u², with θ normalised to [−π, π), θ̇ clipped to ±max_speed (0
// at a reset) and u to ±max_torque.
func (e *Env) RewardRange() (lo, hi float64) {
	return -(math.Pi*math.Pi + 0.1*e.p.MaxSpeed*e.p.MaxSpeed + 0.001*e.p.MaxTorque*e.p.MaxTorque), 0
}

// Terminates is false: episodes are only truncated.
func (e *Env) Terminates() bool { return false }
