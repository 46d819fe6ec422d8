// Package cartpole is Gymnasium's CartPole-v1 in pure Go: the cart-pole of Barto, Sutton and
// Anderson (1983) with the constants, Euler integrator, termination thresholds, initial-state
// distribution and 500-step time limit of gymnasium/envs/classic_control/cartpole.py.
//
// The state is (x, ẋ, θ, θ̇): cart position (m), cart velocity, pole angle from upright (rad),
// pole angular velocity. Action 0 pushes the cart left, action 1 right, with a force of 10 N.
// The reward is +1 per step, including the terminating step. Unlike Gymnasium, observations are
// the float64 state itself, not rounded to float32.
package cartpole

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous"
)

// Physical constants of CartPole-v1: the defaults of Params.
const (
	Gravity  = 9.8  // g, m/s²
	MassCart = 1.0  // kg
	MassPole = 0.1  // kg
	Length   = 0.5  // half the pole's length, m
	ForceMag = 10.0 // |F|, N
	Tau      = 0.02 // seconds between state updates (Euler step)
)

// Params are the physics of one cart-pole, so that a task sequence can vary them (the same cart
// on different planets); DefaultParams are CartPole-v1's. The yaml/json keys are the names
// Validate uses in its errors.
type Params struct {
	Gravity  float64 `yaml:"gravity" json:"gravity"`     // g, m/s²: 0 < g <= 100
	MassCart float64 `yaml:"mass_cart" json:"mass_cart"` // m_c, kg: 0 < m_c <= 1000
	MassPole float64 `yaml:"mass_pole" json:"mass_pole"` // m_p, kg: 0 < m_p <= 1000
	Length   float64 `yaml:"length" json:"length"`       // l, half the pole's length, m: 0 < l <= 100
	Force    float64 `yaml:"force" json:"force"`         // |F|, N: 0 < F <= 10⁴
	Tau      float64 `yaml:"tau" json:"tau"`             // τ, s per Euler step: 0 < τ <= 1
	MaxSteps int     `yaml:"max_steps" json:"max_steps"` // time limit (truncation), 500 in CartPole-v1
}

// DefaultParams are the physics and time limit of CartPole-v1.
func DefaultParams() Params {
	return Params{Gravity: Gravity, MassCart: MassCart, MassPole: MassPole, Length: Length, Force: ForceMag,
		Tau: Tau, MaxSteps: MaxSteps}
}

// Validate names the first parameter out of its range.
func (p Params) Validate() error {
	for _, c := range []struct {
		key    string
		v, max float64
	}{{"gravity", p.Gravity, 100}, {"mass_cart", p.MassCart, 1000}, {"mass_pole", p.MassPole, 1000},
		{"length", p.Length, 100}, {"force", p.Force, 1e4}, {"tau", p.Tau, 1}} {
		if err := continuous.CheckParam(c.key, c.v, 0, c.max); err != nil {
			return fmt.Errorf("cartpole: %w", err)
		}
	}
	if err := continuous.CheckSteps("max_steps", p.MaxSteps); err != nil {
		return fmt.Errorf("cartpole: %w", err)
	}
	return nil
}

// Episode limits of CartPole-v1.
const (
	// ThetaThreshold is 12° in radians: |θ| beyond it terminates the episode.
	ThetaThreshold = 12 * 2 * math.Pi / 360
	// XThreshold: |x| beyond 2.4 m terminates the episode.
	XThreshold = 2.4
	// MaxSteps is the time limit (truncation) registered for CartPole-v1.
	MaxSteps = 500
	// ResetBound: every state variable starts uniform in (-0.05, 0.05).
	ResetBound = 0.05
)

// StateDim and NumActions of CartPole.
const (
	StateDim   = 4
	NumActions = 2
)

// Dynamics returns the state after one Euler step of CartPole-v1's physics (DefaultParams).
func Dynamics(s [StateDim]float64, a int) [StateDim]float64 { return DefaultParams().Dynamics(s, a) }

// Dynamics returns the state after one Euler step of length τ from s under action a (0 or 1),
// the equations of Florian (2007) "Correct equations for the dynamics of the cart-pole system"
// as Gymnasium codes them:
//
//	temp = (F + m_p l θ̇² sin θ) / (m_c + m_p)
//	θ̈ = (g sin θ − cos θ · temp) / (l (4/3 − m_p cos² θ / (m_c + m_p)))
//	ẍ = temp − m_p l θ̈ cos θ / (m_c + m_p)
//	x ← x + τ ẋ,  ẋ ← ẋ + τ ẍ,  θ ← θ + τ θ̇,  θ̇ ← θ̇ + τ θ̈
func (p Params) Dynamics(s [StateDim]float64, a int) [StateDim]float64 {
	x, xDot, theta, thetaDot := s[0], s[1], s[2], s[3]
	force := -p.Force
	if a == 1 {
		force = p.Force
	}
	totalMass, poleMassLength := p.MassCart+p.MassPole, p.MassPole*p.Length
	sin, cos := math.Sincos(theta)
	temp := (force + poleMassLength*thetaDot*thetaDot*sin) / totalMass
	thetaAcc := (p.Gravity*sin - cos*temp) / (p.Length * (4.0/3.0 - p.MassPole*cos*cos/totalMass))
	xAcc := temp - poleMassLength*thetaAcc*cos/totalMass
	return [StateDim]float64{
		x + p.Tau*xDot,
		xDot + p.Tau*xAcc,
		theta + p.Tau*thetaDot,
		thetaDot + p.Tau*thetaAcc,
	}
}

// Terminal reports whether s is outside the allowed region: |x| > 2.4 or |θ| > 12°.
func Terminal(s [StateDim]float64) bool {
	return s[0] < -XThreshold || s[0] > XThreshold || s[2] < -ThetaThreshold || s[2] > ThetaThreshold
}

// Env is one cart-pole episode at a time (CartPole-v1 from New, other physics from NewWith).
type Env struct {
	p     Params
	s     [StateDim]float64
	steps int
	live  bool
}

// New returns a CartPole-v1 environment; call Reset before Step.
func New() *Env { return &Env{p: DefaultParams()} }

// NewWith returns a cart-pole with the physics p, or the error of p.Validate.
func NewWith(p Params) (*Env, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Env{p: p}, nil
}

// Params are the environment's physics.
func (e *Env) Params() Params { return e.p }

// NumActions is 2: push left, push right.
func (e *Env) NumActions() int { return NumActions }

// Name is "CartPole-v1".
func (e *Env) Name() string { return "CartPole-v1" }

// StateDim is 4: (x, ẋ, θ, θ̇).
func (e *Env) StateDim() int { return StateDim }

// ActionDim is 1: the action's index, 0 (left) or 1 (right).
func (e *Env) ActionDim() int { return 1 }

// RandomAction draws 0 or 1 with probability 1/2 each.
func (e *Env) RandomAction(rng *rand.Rand, a []float64) { a[0] = float64(rng.IntN(NumActions)) }

// Reset draws every state variable uniformly from [-0.05, 0.05) and writes the state into obs.
func (e *Env) Reset(rng *rand.Rand, obs []float64) {
	for i := range e.s {
		e.s[i] = -ResetBound + 2*ResetBound*rng.Float64()
	}
	e.steps, e.live = 0, true
	copy(obs, e.s[:])
}

// State returns the current state.
func (e *Env) State() [StateDim]float64 { return e.s }

// Step pushes the cart left (a[0] = 0) or right (a[0] = 1) and writes the next state into obs.
// The reward is 1. The episode terminates when the next state is Terminal and is truncated at
// its max_steps-th step (MaxSteps by default).
func (e *Env) Step(a, obs []float64) (reward float64, terminated, truncated bool, err error) {
	if !e.live {
		return 0, false, false, fmt.Errorf("cartpole: step outside an episode (call Reset first)")
	}
	if len(a) != 1 || (a[0] != 0 && a[0] != 1) {
		return 0, false, false, fmt.Errorf("cartpole: action = %v, want [0] or [1]", a)
	}
	e.s = e.p.Dynamics(e.s, int(a[0]))
	e.steps++
	copy(obs, e.s[:])
	terminated = Terminal(e.s)
	truncated = !terminated && e.steps >= e.p.MaxSteps
	e.live = !terminated && !truncated
	return 1, terminated, truncated, nil
}

// RewardRange is [1, 1]: every step pays 1 (continuous.RewardRanger).
func (e *Env) RewardRange() (lo, hi float64) { return 1, 1 }

// Terminates is true: episodes end in terminal states.
func (e *Env) Terminates() bool { return true }
