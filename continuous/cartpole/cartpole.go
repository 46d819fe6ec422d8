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
)

// Physical constants of CartPole-v1.
const (
	Gravity  = 9.8  // g, m/s²
	MassCart = 1.0  // kg
	MassPole = 0.1  // kg
	Length   = 0.5  // half the pole's length, m
	ForceMag = 10.0 // |F|, N
	Tau      = 0.02 // seconds between state updates (Euler step)

	totalMass      = MassCart + MassPole
	poleMassLength = MassPole * Length
)

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

// Dynamics returns the state after one Euler step of length Tau from s under action a (0 or 1),
// the equations of Florian (2007) "Correct equations for the dynamics of the cart-pole system"
// as Gymnasium codes them:
//
//	temp = (F + m_p l θ̇² sin θ) / (m_c + m_p)
//	θ̈ = (g sin θ − cos θ · temp) / (l (4/3 − m_p cos² θ / (m_c + m_p)))
//	ẍ = temp − m_p l θ̈ cos θ / (m_c + m_p)
//	x ← x + τ ẋ,  ẋ ← ẋ + τ ẍ,  θ ← θ + τ θ̇,  θ̇ ← θ̇ + τ θ̈
func Dynamics(s [StateDim]float64, a int) [StateDim]float64 {
	x, xDot, theta, thetaDot := s[0], s[1], s[2], s[3]
	force := -ForceMag
	if a == 1 {
		force = ForceMag
	}
	sin, cos := math.Sincos(theta)
	temp := (force + poleMassLength*thetaDot*thetaDot*sin) / totalMass
	thetaAcc := (Gravity*sin - cos*temp) / (Length * (4.0/3.0 - MassPole*cos*cos/totalMass))
	xAcc := temp - poleMassLength*thetaAcc*cos/totalMass
	return [StateDim]float64{
		x + Tau*xDot,
		xDot + Tau*xAcc,
		theta + Tau*thetaDot,
		thetaDot + Tau*thetaAcc,
	}
}

// Terminal reports whether s is outside the allowed region: |x| > 2.4 or |θ| > 12°.
func Terminal(s [StateDim]float64) bool {
	return s[0] < -XThreshold || s[0] > XThreshold || s[2] < -ThetaThreshold || s[2] > ThetaThreshold
}

// Env is one CartPole-v1 episode at a time. Its zero value needs a Reset before Step.
type Env struct {
	s     [StateDim]float64
	steps int
	live  bool
}

// New returns a CartPole-v1 environment; call Reset before Step.
func New() *Env { return &Env{} }

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
// its MaxSteps-th step.
func (e *Env) Step(a, obs []float64) (reward float64, terminated, truncated bool, err error) {
	if !e.live {
		return 0, false, false, fmt.Errorf("cartpole: step outside an episode (call Reset first)")
	}
	if len(a) != 1 || (a[0] != 0 && a[0] != 1) {
		return 0, false, false, fmt.Errorf("cartpole: action = %v, want [0] or [1]", a)
	}
	e.s = Dynamics(e.s, int(a[0]))
	e.steps++
	copy(obs, e.s[:])
	terminated = Terminal(e.s)
	truncated = !terminated && e.steps >= MaxSteps
	e.live = !terminated && !truncated
	return 1, terminated, truncated, nil
}
