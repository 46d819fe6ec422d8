package experiment

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"github.com/temple-rl/temple/continuous/acrobot"
	"github.com/temple-rl/temple/continuous/cartpole"
	"github.com/temple-rl/temple/continuous/mountaincar"
	"github.com/temple-rl/temple/continuous/pendulum"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/internal/yamlkeys"
)

// Families of discretized continuous-control tasks: simulators, not tables.
const (
	FamilyMountainCar = env.FamilyMountainCar // Gymnasium's MountainCar-v0, discretized
	FamilyCartPole    = env.FamilyCartPole    // Gymnasium's CartPole-v1, discretized
	FamilyAcrobot     = env.FamilyAcrobot     // Gymnasium's Acrobot-v1, discretized
	FamilyPendulum    = env.FamilyPendulum    // Gymnasium's Pendulum-v1 with a grid of torques, discretized
)

func init() {
	families[FamilyMountainCar] = func() FamilyParams {
		return &simTasks{family: FamilyMountainCar, Count: 1, Order: "cycle", Bins: []int{10, 10}}
	}
	families[FamilyCartPole] = func() FamilyParams {
		return &simTasks{family: FamilyCartPole, Count: 1, Order: "cycle", Bins: []int{3, 3, 6, 6}}
	}
	families[FamilyAcrobot] = func() FamilyParams {
		return &simTasks{family: FamilyAcrobot, Count: 1, Order: "cycle", Bins: []int{4, 4, 4, 4, 4, 4}}
	}
	families[FamilyPendulum] = func() FamilyParams {
		return &simTasks{family: FamilyPendulum, Count: 1, Order: "cycle", Bins: []int{8, 8, 8}, Torques: 5}
	}
}

// simTasks are Count discretized tasks of one continuous-control family. Every task has the
// environment's Gymnasium physics changed by Physics and then by one of Variants — in order,
// cycling, or drawn uniformly from the sequence stream with order: random — so that a sequence
// faces the same robot on different planets. Physics keys are the environment's Params keys
// (gravity, force, mass_pole, …).
type simTasks struct {
	family   string
	Count    int                  `yaml:"count"`
	Physics  map[string]float64   `yaml:"physics,omitempty"`
	Variants []map[string]float64 `yaml:"variants,omitempty"`
	Order    string               `yaml:"order"` // cycle | random
	// Bins per observation dimension (one value for all); uniform within Low and High (default:
	// env.DefaultBounds of the family), or quantile bins fitted on FitSteps random-policy steps.
	Bins     []int     `yaml:"bins,flow"`
	Low      []float64 `yaml:"low,flow,omitempty"`
	High     []float64 `yaml:"high,flow,omitempty"`
	FitSteps int       `yaml:"fit_steps,omitempty"`
	FitSeed  uint64    `yaml:"fit_seed,omitempty"`
	// Torques is the number of evenly spaced torques of Pendulum's actions.
	Torques int `yaml:"torques,omitempty"`
}

func (p *simTasks) Validate() error {
	switch {
	case p.Count < 1:
		return fmt.Errorf("count = %d, want at least 1", p.Count)
	case p.Order != "cycle" && p.Order != "random":
		return fmt.Errorf("order = %q, want cycle or random", p.Order)
	case p.Torques != 0 && p.family != FamilyPendulum:
		return fmt.Errorf("torques = %d: only family %s has torques", p.Torques, FamilyPendulum)
	}
	for v := range max(len(p.Variants), 1) {
		t, err := p.task(v)
		if err == nil {
			_, err = t.(env.Simulated).Simulator()
		}
		if err != nil {
			if len(p.Variants) > 0 {
				return fmt.Errorf("variants[%d]: %w", v, err)
			}
			return err
		}
	}
	return nil
}

func (p *simTasks) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	out := make(env.Sequence, p.Count)
	for k := range out {
		v := 0
		if n := len(p.Variants); n > 0 {
			v = k % n
			if p.Order == "random" {
				v = rng.IntN(n)
			}
		}
		t, err := p.task(v)
		if err != nil {
			return nil, err
		}
		out[k] = t
	}
	return out, nil
}

// task is the task of variant v (0 without variants).
func (p *simTasks) task(v int) (env.Task, error) {
	d := env.Discretization{Bins: p.Bins, Low: p.Low, High: p.High, FitSteps: p.FitSteps, FitSeed: p.FitSeed}
	if len(d.Low) == 0 && len(d.High) == 0 && d.FitSteps == 0 {
		d.Low, d.High, _ = env.DefaultBounds(p.family)
	}
	var changes []map[string]float64
	if p.Physics != nil {
		changes = append(changes, p.Physics)
	}
	if len(p.Variants) > 0 {
		changes = append(changes, p.Variants[v])
	}
	switch p.family {
	case FamilyMountainCar:
		t := env.MountainCar{Params: mountaincar.DefaultParams(), Discretization: d}
		return t, setPhysics(&t.Params, changes)
	case FamilyCartPole:
		t := env.CartPole{Params: cartpole.DefaultParams(), Discretization: d}
		return t, setPhysics(&t.Params, changes)
	case FamilyAcrobot:
		t := env.Acrobot{Params: acrobot.DefaultParams(), Discretization: d}
		return t, setPhysics(&t.Params, changes)
	case FamilyPendulum:
		t := env.Pendulum{Params: pendulum.DefaultParams(), Discretization: d, Torques: p.Torques}
		return t, setPhysics(&t.Params, changes)
	}
	return nil, fmt.Errorf("family %q has no simulator", p.family)
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
				return fmt.Errorf("physics key %q, want one of %s", key, strings.Join(keys, ", "))
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
