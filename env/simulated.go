package env

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"

	"github.com/temple-rl/temple/continuous/acrobot"
	"github.com/temple-rl/temple/continuous/cartpole"
	"github.com/temple-rl/temple/continuous/discretize"
	"github.com/temple-rl/temple/continuous/mountaincar"
	"github.com/temple-rl/temple/continuous/pendulum"
	"github.com/temple-rl/temple/mdp"
)

// Simulator is a tabular task without a table: S states and A actions, episodes that start with
// Reset and advance with Step, like a Gymnasium environment. The state index alone need not
// determine the next state (a discretized continuous environment keeps its continuous state
// inside), so a simulator is stateful and not safe for concurrent use.
type Simulator interface {
	// Size is the number of states and of actions.
	Size() (states, actions int)
	// Terminates says whether a step can report terminated.
	Terminates() bool
	// Reset starts an episode, drawing from rng, and returns its start state.
	Reset(rng *rand.Rand) (int, error)
	// Step takes action a and returns the next state, the reward, and whether the episode
	// terminated (it reached a terminal state) or was truncated by the simulator's own time
	// limit. After either, the next call must be Reset.
	Step(a int) (next int, reward float64, terminated, truncated bool, err error)
}

// Simulated is a task given as a simulator. Its Model fails with ErrNoTable.
type Simulated interface {
	Task
	// Simulator builds a fresh simulator of the task: every call returns an independent one.
	Simulator() (Simulator, error)
}

// ErrNoTable is the error of Model on a task given as a simulator.
var ErrNoTable = errors.New("the task is a simulator: it has no transition table")

// Families of discretized continuous-control tasks (Gymnasium's classic control).
const (
	FamilyMountainCar = "mountaincar" // MountainCar-v0 (continuous/mountaincar)
	FamilyCartPole    = "cartpole"    // CartPole-v1 (continuous/cartpole)
	FamilyAcrobot     = "acrobot"     // Acrobot-v1 (continuous/acrobot)
	FamilyPendulum    = "pendulum"    // Pendulum-v1 with a grid of torques (continuous/pendulum)
)

// Discretization is how a discretized task bins its observations (see discretize.Config): Bins
// per dimension (one value for all), and either uniform bins within Low and High or quantile bins
// fitted on FitSteps random-policy steps drawn with FitSeed.
type Discretization struct {
	Bins     []int     `json:"bins" yaml:"bins,flow"`
	Low      []float64 `json:"low,omitempty" yaml:"low,flow,omitempty"`
	High     []float64 `json:"high,omitempty" yaml:"high,flow,omitempty"`
	FitSteps int       `json:"fit_steps,omitempty" yaml:"fit_steps,omitempty"`
	FitSeed  uint64    `json:"fit_seed,omitempty" yaml:"fit_seed,omitempty"`
}

func (d Discretization) config(actions [][]float64) discretize.Config {
	return discretize.Config{Bins: d.Bins, Low: d.Low, High: d.High, FitSteps: d.FitSteps, FitSeed: d.FitSeed, Actions: actions}
}

// label is the bin count for a task's name: "10x10 bins" or "quantile 8x8 bins".
func (d Discretization) label(dims int) string {
	parts := make([]string, dims)
	for i := range parts {
		if len(d.Bins) == 1 {
			parts[i] = fmt.Sprint(d.Bins[0])
		} else if i < len(d.Bins) {
			parts[i] = fmt.Sprint(d.Bins[i])
		}
	}
	kind := ""
	if d.FitSteps > 0 {
		kind = "quantile "
	}
	return kind + strings.Join(parts, "x") + " bins"
}

// size is the number of states of the discretization (cells, and the terminal state when the
// environment terminates), without building it.
func (d Discretization) size(dims int, terminates bool) int {
	n := 1
	for i := range dims {
		b := 0
		switch {
		case len(d.Bins) == 1:
			b = d.Bins[0]
		case i < len(d.Bins):
			b = d.Bins[i]
		}
		n *= max(b, 1)
	}
	if terminates {
		n++
	}
	return n
}

// physicsLabel lists the physics parameters of p that differ from def, by their keys.
func physicsLabel(p, def any) string {
	pv, dv := reflect.ValueOf(p), reflect.ValueOf(def)
	var out []string
	for i := range pv.NumField() {
		if a, b := pv.Field(i).Interface(), dv.Field(i).Interface(); a != b {
			key, _, _ := strings.Cut(pv.Type().Field(i).Tag.Get("json"), ",")
			out = append(out, fmt.Sprintf("%s=%v", key, a))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, ", ") + ")"
}

// MountainCar is Gymnasium's MountainCar-v0 with the given physics, discretized.
type MountainCar struct {
	mountaincar.Params `yaml:",inline"`
	Discretization     `yaml:",inline"`
}

// Family is FamilyMountainCar.
func (t MountainCar) Family() string { return FamilyMountainCar }

// Name is e.g. "MountainCar-v0 (gravity=0.002) 10x10 bins".
func (t MountainCar) Name() string {
	return "MountainCar-v0" + physicsLabel(t.Params, mountaincar.DefaultParams()) + " " + t.label(mountaincar.StateDim)
}

// Model fails: the task is a simulator.
func (t MountainCar) Model() (*mdp.Model, error) {
	return nil, fmt.Errorf("%s: %w", t.Name(), ErrNoTable)
}

// Size is the number of cells and the terminal state, and the 3 actions.
func (t MountainCar) Size() (states, actions int) {
	return t.size(mountaincar.StateDim, true), mountaincar.NumActions
}

// Simulator builds the discretized environment.
func (t MountainCar) Simulator() (Simulator, error) {
	e, err := mountaincar.NewWith(t.Params)
	if err != nil {
		return nil, err
	}
	return discretize.New(e, t.config(nil))
}

// CartPole is Gymnasium's CartPole-v1 with the given physics, discretized.
type CartPole struct {
	cartpole.Params `yaml:",inline"`
	Discretization  `yaml:",inline"`
}

// Family is FamilyCartPole.
func (t CartPole) Family() string { return FamilyCartPole }

// Name is e.g. "CartPole-v1 (gravity=3.7) 6x6x6x6 bins".
func (t CartPole) Name() string {
	return "CartPole-v1" + physicsLabel(t.Params, cartpole.DefaultParams()) + " " + t.label(cartpole.StateDim)
}

// Model fails: the task is a simulator.
func (t CartPole) Model() (*mdp.Model, error) { return nil, fmt.Errorf("%s: %w", t.Name(), ErrNoTable) }

// Size is the number of cells and the terminal state, and the 2 actions.
func (t CartPole) Size() (states, actions int) {
	return t.size(cartpole.StateDim, true), cartpole.NumActions
}

// Simulator builds the discretized environment.
func (t CartPole) Simulator() (Simulator, error) {
	e, err := cartpole.NewWith(t.Params)
	if err != nil {
		return nil, err
	}
	return discretize.New(e, t.config(nil))
}

// Acrobot is Gymnasium's Acrobot-v1 with the given physics, its six-number observation
// (cos θ₁, sin θ₁, cos θ₂, sin θ₂, θ̇₁, θ̇₂) discretized.
type Acrobot struct {
	acrobot.Params `yaml:",inline"`
	Discretization `yaml:",inline"`
}

// Family is FamilyAcrobot.
func (t Acrobot) Family() string { return FamilyAcrobot }

// Name is e.g. "Acrobot-v1 4x4x4x4x6x6 bins".
func (t Acrobot) Name() string {
	return "Acrobot-v1" + physicsLabel(t.Params, acrobot.DefaultParams()) + " " + t.label(acrobot.ObsDim)
}

// Model fails: the task is a simulator.
func (t Acrobot) Model() (*mdp.Model, error) { return nil, fmt.Errorf("%s: %w", t.Name(), ErrNoTable) }

// Size is the number of cells and the terminal state, and the 3 actions.
func (t Acrobot) Size() (states, actions int) {
	return t.size(acrobot.ObsDim, true), acrobot.NumActions
}

// Simulator builds the discretized environment.
func (t Acrobot) Simulator() (Simulator, error) {
	e, err := acrobot.NewWith(t.Params)
	if err != nil {
		return nil, err
	}
	return discretize.New(e, t.config(nil))
}

// Pendulum is Gymnasium's Pendulum-v1 with the given physics, its observation
// (cos θ, sin θ, θ̇) discretized and Torques evenly spaced torques from −max_torque to
// max_torque as its actions. It never terminates.
type Pendulum struct {
	pendulum.Params `yaml:",inline"`
	Discretization  `yaml:",inline"`
	Torques         int `json:"torques" yaml:"torques"`
}

// Family is FamilyPendulum.
func (t Pendulum) Family() string { return FamilyPendulum }

// Name is e.g. "Pendulum-v1 5 torques 8x8x8 bins".
func (t Pendulum) Name() string {
	return fmt.Sprintf("Pendulum-v1%s %d torques %s", physicsLabel(t.Params, pendulum.DefaultParams()), t.Torques, t.label(pendulum.ObsDim))
}

// Model fails: the task is a simulator.
func (t Pendulum) Model() (*mdp.Model, error) { return nil, fmt.Errorf("%s: %w", t.Name(), ErrNoTable) }

// Size is the number of cells and the number of torques.
func (t Pendulum) Size() (states, actions int) { return t.size(pendulum.ObsDim, false), t.Torques }

// Simulator builds the discretized environment.
func (t Pendulum) Simulator() (Simulator, error) {
	e, err := pendulum.NewWith(t.Params)
	if err != nil {
		return nil, err
	}
	if t.Torques < 2 {
		return nil, fmt.Errorf("torques = %d, want at least 2", t.Torques)
	}
	grid, err := discretize.Grid(-t.MaxTorque, t.MaxTorque, t.Torques)
	if err != nil {
		return nil, err
	}
	return discretize.New(e, t.config(grid))
}

// DefaultBounds are the bounds of uniform bins of each family's observation: the termination
// thresholds or the observation space where Gymnasium has them, and for CartPole's unbounded
// velocities ±3 and ±3.5 (the range random and balancing policies stay in).
func DefaultBounds(family string) (low, high []float64, ok bool) {
	switch family {
	case FamilyMountainCar:
		d := mountaincar.DefaultParams()
		return []float64{d.MinPosition, -d.MaxSpeed}, []float64{d.MaxPosition, d.MaxSpeed}, true
	case FamilyCartPole:
		return []float64{-cartpole.XThreshold, -3, -cartpole.ThetaThreshold, -3.5},
			[]float64{cartpole.XThreshold, 3, cartpole.ThetaThreshold, 3.5}, true
	case FamilyAcrobot:
		d := acrobot.DefaultParams()
		return []float64{-1, -1, -1, -1, -d.MaxVel1, -d.MaxVel2}, []float64{1, 1, 1, 1, d.MaxVel1, d.MaxVel2}, true
	case FamilyPendulum:
		d := pendulum.DefaultParams()
		return []float64{-1, -1, -d.MaxSpeed}, []float64{1, 1, d.MaxSpeed}, true
	}
	return nil, nil, false
}

// A discretized environment is a Simulator.
var _ Simulator = (*discretize.Sim)(nil)
