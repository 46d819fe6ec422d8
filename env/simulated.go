package env

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/acrobot"
	"github.com/temple-rl/temple/continuous/cartpole"
	"github.com/temple-rl/temple/continuous/discretize"
	"github.com/temple-rl/temple/continuous/mountaincar"
	"github.com/temple-rl/temple/continuous/pendulum"
	"github.com/temple-rl/temple/internal/suggest"
	"github.com/temple-rl/temple/internal/yamlkeys"
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

// Kinds of discretized continuous-control tasks (Gymnasium's classic control).
const (
	KindMountainCar = "mountaincar" // MountainCar-v0 (continuous/mountaincar)
	KindCartPole    = "cartpole"    // CartPole-v1 (continuous/cartpole)
	KindAcrobot     = "acrobot"     // Acrobot-v1 (continuous/acrobot)
	KindPendulum    = "pendulum"    // Pendulum-v1 with a grid of torques (continuous/pendulum)
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

// What the simulator kinds below share: each is a physics struct and a Discretization; a task
// given as a simulator has no table, and its simulator is its environment binned by its
// Discretization.

// noTable is the error of Model on simulated task t.
func noTable(t Task) (*mdp.Model, error) { return nil, fmt.Errorf("%s: %w", t.Name(), ErrNoTable) }

// simulator is environment e binned by d with e's own actions, or the error of making e.
func (d Discretization) simulator(e continuous.Env, err error) (Simulator, error) {
	if err != nil {
		return nil, err
	}
	return discretize.New(e, d.config(nil))
}

// MountainCar is Gymnasium's MountainCar-v0 with the given physics, discretized.
type MountainCar struct {
	mountaincar.Params `yaml:",inline"`
	Discretization     `yaml:",inline"`
}

// Kind is KindMountainCar.
func (t MountainCar) Kind() string { return KindMountainCar }

// Name is e.g. "MountainCar-v0 (gravity=0.002) 10x10 bins".
func (t MountainCar) Name() string {
	return "MountainCar-v0" + physicsLabel(t.Params, mountaincar.DefaultParams()) + " " + t.label(mountaincar.StateDim)
}

// Model fails: the task is a simulator.
func (t MountainCar) Model() (*mdp.Model, error) { return noTable(t) }

// Size is the number of cells and the terminal state, and the 3 actions.
func (t MountainCar) Size() (states, actions int) {
	return t.size(mountaincar.StateDim, true), mountaincar.NumActions
}

// Simulator builds the discretized environment.
func (t MountainCar) Simulator() (Simulator, error) {
	return t.simulator(mountaincar.NewWith(t.Params))
}

// CartPole is Gymnasium's CartPole-v1 with the given physics, discretized.
type CartPole struct {
	cartpole.Params `yaml:",inline"`
	Discretization  `yaml:",inline"`
}

// Kind is KindCartPole.
func (t CartPole) Kind() string { return KindCartPole }

// Name is e.g. "CartPole-v1 (gravity=3.7) 6x6x6x6 bins".
func (t CartPole) Name() string {
	return "CartPole-v1" + physicsLabel(t.Params, cartpole.DefaultParams()) + " " + t.label(cartpole.StateDim)
}

// Model fails: the task is a simulator.
func (t CartPole) Model() (*mdp.Model, error) { return noTable(t) }

// Size is the number of cells and the terminal state, and the 2 actions.
func (t CartPole) Size() (states, actions int) {
	return t.size(cartpole.StateDim, true), cartpole.NumActions
}

// Simulator builds the discretized environment.
func (t CartPole) Simulator() (Simulator, error) { return t.simulator(cartpole.NewWith(t.Params)) }

// Acrobot is Gymnasium's Acrobot-v1 with the given physics, its six-number observation
// (cos θ₁, sin θ₁, cos θ₂, sin θ₂, θ̇₁, θ̇₂) discretized.
type Acrobot struct {
	acrobot.Params `yaml:",inline"`
	Discretization `yaml:",inline"`
}

// Kind is KindAcrobot.
func (t Acrobot) Kind() string { return KindAcrobot }

// Name is e.g. "Acrobot-v1 4x4x4x4x6x6 bins".
func (t Acrobot) Name() string {
	return "Acrobot-v1" + physicsLabel(t.Params, acrobot.DefaultParams()) + " " + t.label(acrobot.ObsDim)
}

// Model fails: the task is a simulator.
func (t Acrobot) Model() (*mdp.Model, error) { return noTable(t) }

// Size is the number of cells and the terminal state, and the 3 actions.
func (t Acrobot) Size() (states, actions int) {
	return t.size(acrobot.ObsDim, true), acrobot.NumActions
}

// Simulator builds the discretized environment.
func (t Acrobot) Simulator() (Simulator, error) { return t.simulator(acrobot.NewWith(t.Params)) }

// Pendulum is Gymnasium's Pendulum-v1 with the given physics, its observation
// (cos θ, sin θ, θ̇) discretized and Torques evenly spaced torques from −max_torque to
// max_torque as its actions. It never terminates.
type Pendulum struct {
	pendulum.Params `yaml:",inline"`
	Discretization  `yaml:",inline"`
	Torques         int `json:"torques" yaml:"torques"`
}

// Kind is KindPendulum.
func (t Pendulum) Kind() string { return KindPendulum }

// Name is e.g. "Pendulum-v1 5 torques 8x8x8 bins".
func (t Pendulum) Name() string {
	return fmt.Sprintf("Pendulum-v1%s %d torques %s", physicsLabel(t.Params, pendulum.DefaultParams()), t.Torques, t.label(pendulum.ObsDim))
}

// Model fails: the task is a simulator.
func (t Pendulum) Model() (*mdp.Model, error) { return noTable(t) }

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

// simulatorKind is how this package makes the tasks of one simulator kind: it reads one from its
// JSON form, makes one with Gymnasium's physics changed by the given changes, and bins its
// observation within default bounds.
type simulatorKind struct {
	decode func(data []byte) (Task, error)
	task   func(d Discretization, torques int, changes []map[string]float64) (Simulated, error)
	// bounds are the bounds of uniform bins of the kind's observation: the termination thresholds
	// or the observation space where Gymnasium has them.
	bounds func() (low, high []float64)
}

// simulatorKinds is the table of simulator kinds: the one place that lists them.
var simulatorKinds = map[string]simulatorKind{
	KindMountainCar: {
		decode: decodeAs[MountainCar],
		task: func(d Discretization, _ int, changes []map[string]float64) (Simulated, error) {
			t := MountainCar{Params: mountaincar.DefaultParams(), Discretization: d}
			err := setPhysics(&t.Params, changes)
			return t, err
		},
		bounds: func() (low, high []float64) {
			d := mountaincar.DefaultParams()
			return []float64{d.MinPosition, -d.MaxSpeed}, []float64{d.MaxPosition, d.MaxSpeed}
		},
	},
	KindCartPole: {
		decode: decodeAs[CartPole],
		task: func(d Discretization, _ int, changes []map[string]float64) (Simulated, error) {
			t := CartPole{Params: cartpole.DefaultParams(), Discretization: d}
			err := setPhysics(&t.Params, changes)
			return t, err
		},
		// The velocities are unbounded: ±3 and ±3.5 are the range random and balancing policies
		// stay in.
		bounds: func() (low, high []float64) {
			return []float64{-cartpole.XThreshold, -3, -cartpole.ThetaThreshold, -3.5},
				[]float64{cartpole.XThreshold, 3, cartpole.ThetaThreshold, 3.5}
		},
	},
	KindAcrobot: {
		decode: decodeAs[Acrobot],
		task: func(d Discretization, _ int, changes []map[string]float64) (Simulated, error) {
			t := Acrobot{Params: acrobot.DefaultParams(), Discretization: d}
			err := setPhysics(&t.Params, changes)
			return t, err
		},
		bounds: func() (low, high []float64) {
			d := acrobot.DefaultParams()
			return []float64{-1, -1, -1, -1, -d.MaxVel1, -d.MaxVel2}, []float64{1, 1, 1, 1, d.MaxVel1, d.MaxVel2}
		},
	},
	KindPendulum: {
		decode: decodeAs[Pendulum],
		task: func(d Discretization, torques int, changes []map[string]float64) (Simulated, error) {
			t := Pendulum{Params: pendulum.DefaultParams(), Discretization: d, Torques: torques}
			err := setPhysics(&t.Params, changes)
			return t, err
		},
		bounds: func() (low, high []float64) {
			d := pendulum.DefaultParams()
			return []float64{-1, -1, -d.MaxSpeed}, []float64{1, 1, d.MaxSpeed}
		},
	},
}

// DefaultBounds are the bounds of uniform bins of each simulator kind's observation: the
// termination thresholds or the observation space where Gymnasium has them, and for CartPole's
// unbounded velocities ±3 and ±3.5 (the range random and balancing policies stay in).
func DefaultBounds(kind string) (low, high []float64, ok bool) {
	k, ok := simulatorKinds[kind]
	if !ok {
		return nil, nil, false
	}
	low, high = k.bounds()
	return low, high, true
}

// NewSimulated is a task of simulator kind kind: Gymnasium's physics changed by each of changes in
// turn (keys are the physics' keys: gravity, force, mass_pole, …), the observation binned by d
// (uniform bins within DefaultBounds when d gives neither bounds nor fit_steps), and for Pendulum
// torques evenly spaced torques as its actions (the other kinds have no torques: give 0). The
// task is not validated: its Simulator is.
func NewSimulated(kind string, d Discretization, torques int, changes ...map[string]float64) (Simulated, error) {
	k, ok := simulatorKinds[kind]
	if !ok {
		names := slices.Sorted(maps.Keys(simulatorKinds))
		return nil, fmt.Errorf("env: no simulator kind %q (have %s)%s", kind, strings.Join(names, ", "), suggest.DidYouMean(kind, names))
	}
	if torques != 0 && kind != KindPendulum {
		return nil, fmt.Errorf("torques = %d: only %s has torques", torques, KindPendulum)
	}
	if len(d.Low) == 0 && len(d.High) == 0 && d.FitSteps == 0 {
		d.Low, d.High = k.bounds()
	}
	return k.task(d, torques, changes)
}

// setPhysics sets the fields of the physics struct *params named by their yaml keys; an unknown
// key, or a fractional value of an integer key, is an error naming it.
func setPhysics(params any, changes []map[string]float64) error {
	v := reflect.ValueOf(params).Elem()
	keys := yamlkeys.Of(v.Type())
	for _, change := range changes {
		names := make([]string, 0, len(change))
		for key := range change {
			names = append(names, key)
		}
		slices.Sort(names)
		for _, key := range names {
			x := change[key]
			i := slices.Index(keys, key)
			if i < 0 {
				return fmt.Errorf("physics key %q, want one of %s%s", key, strings.Join(keys, ", "), suggest.DidYouMean(key, keys))
			}
			f := v.Field(i)
			switch f.Kind() {
			case reflect.Float64:
				f.SetFloat(x)
			case reflect.Int:
				if x != math.Trunc(x) || math.Abs(x) > 1<<31 {
					return fmt.Errorf("%s = %v, want an integer", key, x)
				}
				f.SetInt(int64(x))
			}
		}
	}
	return nil
}

// A discretized environment is a Simulator.
var _ Simulator = (*discretize.Sim)(nil)
