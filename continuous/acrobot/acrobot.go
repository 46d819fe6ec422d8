// Package acrobot is Gymnasium's Acrobot-v1 in pure Go: two links hanging from a joint, the
// joint between them actuated, to be swung up until the free end is one link length above the
// base. It follows gymnasium/envs/classic_control/acrobot.py: the "book" dynamics (Sutton &
// Barto), one fourth-order Runge-Kutta step of dt = 0.2 s per action as its rk4 integrates, angles
// wrapped to [−π, π] and speeds clipped after the step, the termination rule
// −cos θ₁ − cos(θ₁ + θ₂) > 1, reward −1 per step and 0 on the terminating one, no torque noise,
// initial state uniform in [−0.1, 0.1)⁴ and the 500-step time limit.
//
// The state is (θ₁, θ₂, θ̇₁, θ̇₂); the observation is (cos θ₁, sin θ₁, cos θ₂, sin θ₂, θ̇₁, θ̇₂), in
// float64. Actions 0, 1, 2 apply the torques −1, 0, +1 (times the torque parameter).
package acrobot

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous"
)

// StateDim is the length of the state, ObsDim of the observation, NumActions the number of
// torques.
const (
	StateDim   = 4
	ObsDim     = 6
	NumActions = 3
)

// ResetBound: every state variable starts uniform in [−0.1, 0.1).
const ResetBound = 0.1

// Params are the physics of one acrobot; DefaultParams are Acrobot-v1's (its class constants,
// and g = 9.8 of its _dsdt). The yaml/json keys are the names Validate uses in its errors.
type Params struct {
	LinkLength1 float64 `yaml:"link_length_1" json:"link_length_1"`   // l₁, m: 0 < l₁ <= 100
	LinkLength2 float64 `yaml:"link_length_2" json:"link_length_2"`   // l₂, m: used only by the goal height (as in Gymnasium)
	LinkMass1   float64 `yaml:"link_mass_1" json:"link_mass_1"`       // m₁, kg: 0 < m₁ <= 1000
	LinkMass2   float64 `yaml:"link_mass_2" json:"link_mass_2"`       // m₂, kg: 0 < m₂ <= 1000
	LinkCOM1    float64 `yaml:"link_com_pos_1" json:"link_com_pos_1"` // l_c1, centre of mass of link 1, m: 0 < l_c1 <= 100
	LinkCOM2    float64 `yaml:"link_com_pos_2" json:"link_com_pos_2"` // l_c2, m: 0 < l_c2 <= 100
	LinkMOI     float64 `yaml:"link_moi" json:"link_moi"`             // I₁ = I₂, moment of inertia: 0 < I <= 1000
	Gravity     float64 `yaml:"gravity" json:"gravity"`               // g, m/s²: 0 < g <= 100
	Torque      float64 `yaml:"torque" json:"torque"`                 // |τ| of actions 0 and 2: 0 < τ <= 100
	MaxVel1     float64 `yaml:"max_vel_1" json:"max_vel_1"`           // |θ̇₁| limit: 0 < v <= 1000
	MaxVel2     float64 `yaml:"max_vel_2" json:"max_vel_2"`           // |θ̇₂| limit: 0 < v <= 1000
	Dt          float64 `yaml:"dt" json:"dt"`                         // seconds per action: 0 < dt <= 1
	MaxSteps    int     `yaml:"max_steps" json:"max_steps"`           // time limit (truncation), 500 in Acrobot-v1
}

// DefaultParams are the physics and time limit of Acrobot-v1.
func DefaultParams() Params {
	return Params{LinkLength1: 1, LinkLength2: 1, LinkMass1: 1, LinkMass2: 1, LinkCOM1: 0.5, LinkCOM2: 0.5,
		LinkMOI: 1, Gravity: 9.8, Torque: 1, MaxVel1: 4 * math.Pi, MaxVel2: 9 * math.Pi, Dt: 0.2, MaxSteps: 500}
}

// Validate names the first parameter out of its range.
func (p Params) Validate() error {
	for _, c := range []struct {
		key    string
		v, max float64
	}{{"link_length_1", p.LinkLength1, 100}, {"link_length_2", p.LinkLength2, 100}, {"link_mass_1", p.LinkMass1, 1000},
		{"link_mass_2", p.LinkMass2, 1000}, {"link_com_pos_1", p.LinkCOM1, 100}, {"link_com_pos_2", p.LinkCOM2, 100},
		{"link_moi", p.LinkMOI, 1000}, {"gravity", p.Gravity, 100}, {"torque", p.Torque, 100},
		{"max_vel_1", p.MaxVel1, 1000}, {"max_vel_2", p.MaxVel2, 1000}, {"dt", p.Dt, 1}} {
		if err := continuous.CheckParam(c.key, c.v, 0, c.max); err != nil {
			return fmt.Errorf("acrobot: %w", err)
		}
	}
	if err := continuous.CheckSteps("max_steps", p.MaxSteps); err != nil {
		return fmt.Errorf("acrobot: %w", err)
	}
	return nil
}

// derivs is Gymnasium's _dsdt (book dynamics): the time derivative of (θ₁, θ₂, θ̇₁, θ̇₂) under
// torque a on the second joint.
func (p Params) derivs(s [StateDim]float64, a float64) [StateDim]float64 {
	m1, m2, l1, lc1, lc2, I1, I2, g := p.LinkMass1, p.LinkMass2, p.LinkLength1, p.LinkCOM1, p.LinkCOM2, p.LinkMOI, p.LinkMOI, p.Gravity
	th1, th2, dth1, dth2 := s[0], s[1], s[2], s[3]
	sin2, cos2 := math.Sincos(th2)
	d1 := m1*lc1*lc1 + m2*(l1*l1+lc2*lc2+2*l1*lc2*cos2) + I1 + I2
	d2 := m2*(lc2*lc2+l1*lc2*cos2) + I2
	phi2 := m2 * lc2 * g * math.Cos(th1+th2-math.Pi/2)
	phi1 := -m2*l1*lc2*dth2*dth2*sin2 - 2*m2*l1*lc2*dth2*dth1*sin2 + (m1*lc1+m2*l1)*g*math.Cos(th1-math.Pi/2) + phi2
	ddth2 := (a + d2/d1*phi1 - m2*l1*lc2*dth1*dth1*sin2 - phi2) / (m2*lc2*lc2 + I2 - d2*d2/d1)
	ddth1 := -(d2*ddth2 + phi1) / d1
	return [StateDim]float64{dth1, dth2, ddth1, ddth2}
}

// rk4 is one classical Runge-Kutta step of length dt with the torque held constant, as
// Gymnasium's rk4 over the times [0, dt].
func (p Params) rk4(s [StateDim]float64, a float64) [StateDim]float64 {
	dt, dt2 := p.Dt, p.Dt/2
	axpy := func(h float64, k [StateDim]float64) [StateDim]float64 {
		var out [StateDim]float64
		for i := range out {
			out[i] = s[i] + h*k[i]
		}
		return out
	}
	k1 := p.derivs(s, a)
	k2 := p.derivs(axpy(dt2, k1), a)
	k3 := p.derivs(axpy(dt2, k2), a)
	k4 := p.derivs(axpy(dt, k3), a)
	var out [StateDim]float64
	for i := range out {
		out[i] = s[i] + dt/6*(k1[i]+2*k2[i]+2*k3[i]+k4[i])
	}
	return out
}

// wrap is Gymnasium's wrap(x, −π, π): add or subtract 2π until x is in [−π, π].
func wrap(x float64) float64 {
	for x > math.Pi {
		x -= 2 * math.Pi
	}
	for x < -math.Pi {
		x += 2 * math.Pi
	}
	return x
}

// Dynamics is one step from s under action a (0, 1, 2): rk4, angles wrapped, speeds clipped.
func (p Params) Dynamics(s [StateDim]float64, a int) [StateDim]float64 {
	ns := p.rk4(s, float64(a-1)*p.Torque)
	ns[0], ns[1] = wrap(ns[0]), wrap(ns[1])
	ns[2] = min(max(ns[2], -p.MaxVel1), p.MaxVel1)
	ns[3] = min(max(ns[3], -p.MaxVel2), p.MaxVel2)
	return ns
}

// Terminal reports whether the free end is above the goal height: −cos θ₁ − cos(θ₂ + θ₁) > 1
// (Gymnasium's test, written for links of length 1).
func Terminal(s [StateDim]float64) bool { return -math.Cos(s[0])-math.Cos(s[1]+s[0]) > 1 }

// Env is one acrobot episode at a time.
type Env struct {
	p     Params
	s     [StateDim]float64
	steps int
	live  bool
}

// New returns an Acrobot-v1 environment; call Reset before Step.
func New() *Env { return &Env{p: DefaultParams()} }

// NewWith returns an acrobot with the physics p, or the error of p.Validate.
func NewWith(p Params) (*Env, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Env{p: p}, nil
}

// Name is "Acrobot-v1".
func (e *Env) Name() string { return "Acrobot-v1" }

// Params are the environment's physics.
func (e *Env) Params() Params { return e.p }

// StateDim is 6: the observation (cos θ₁, sin θ₁, cos θ₂, sin θ₂, θ̇₁, θ̇₂).
func (e *Env) StateDim() int { return ObsDim }

// ActionDim is 1: the action's index.
func (e *Env) ActionDim() int { return 1 }

// NumActions is 3: torques −1, 0, +1.
func (e *Env) NumActions() int { return NumActions }

// RandomAction draws 0, 1 or 2 uniformly.
func (e *Env) RandomAction(rng *rand.Rand, a []float64) { a[0] = float64(rng.IntN(NumActions)) }

// Reset draws every state variable uniformly from [−0.1, 0.1).
func (e *Env) Reset(rng *rand.Rand, obs []float64) {
	for i := range e.s {
		e.s[i] = -ResetBound + 2*ResetBound*rng.Float64()
	}
	e.steps, e.live = 0, true
	e.observe(obs)
}

func (e *Env) observe(obs []float64) {
	s1, c1 := math.Sincos(e.s[0])
	s2, c2 := math.Sincos(e.s[1])
	obs[0], obs[1], obs[2], obs[3], obs[4], obs[5] = c1, s1, c2, s2, e.s[2], e.s[3]
}

// State returns the current state (θ₁, θ₂, θ̇₁, θ̇₂).
func (e *Env) State() [StateDim]float64 { return e.s }

// Step applies action a[0] ∈ {0, 1, 2} and writes the next observation into obs. It pays −1,
// and 0 on the step that terminates; the episode is truncated at its max_steps-th step.
func (e *Env) Step(a, obs []float64) (reward float64, terminated, truncated bool, err error) {
	if !e.live {
		return 0, false, false, fmt.Errorf("acrobot: step outside an episode (call Reset first)")
	}
	if len(a) != 1 || (a[0] != 0 && a[0] != 1 && a[0] != 2) {
		return 0, false, false, fmt.Errorf("acrobot: action = %v, want [0], [1] or [2]", a)
	}
	e.s = e.p.Dynamics(e.s, int(a[0]))
	e.steps++
	e.observe(obs)
	terminated = Terminal(e.s)
	truncated = !terminated && e.steps >= e.p.MaxSteps
	e.live = !terminated && !truncated
	if terminated {
		return 0, true, false, nil
	}
	return -1, false, truncated, nil
}

// RewardRange is [−1, 0]: −1 a step, 0 on the step that terminates (continuous.RewardRanger).
func (e *Env) RewardRange() (lo, hi float64) { return -1, 0 }

// Terminates is true: episodes end in terminal states.
func (e *Env) Terminates() bool { return true }
