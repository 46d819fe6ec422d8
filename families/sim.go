package families

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/temple-rl/temple/env"
)

// The families register themselves (registry.go).
func init() {
	register(Family{Name: MountainCar, Summary: "Gymnasium's MountainCar-v0 as a simulator, discretized (beyond the paper: its future work)",
		Defaults: defaultSimulator(MountainCar, 10, 10)})
	register(Family{Name: CartPole, Summary: "Gymnasium's CartPole-v1 as a simulator, discretized (beyond the paper: its future work)",
		Defaults: defaultSimulator(CartPole, 3, 3, 6, 6)})
	register(Family{Name: Acrobot, Summary: "Gymnasium's Acrobot-v1 as a simulator, discretized (beyond the paper: its future work)",
		Defaults: defaultSimulator(Acrobot, 4, 4, 4, 4, 4, 4)})
	register(Family{Name: Pendulum, Summary: "Gymnasium's Pendulum-v1 as a simulator with a grid of torques, discretized (beyond the paper)",
		Defaults: defaultSimulator(Pendulum, 8, 8, 8)})
}

// The families of discretized continuous-control tasks: simulators, not tables (env.Simulated),
// beyond the paper (its future work). Each family's name is its task kind's.
const (
	MountainCar = env.KindMountainCar // Gymnasium's MountainCar-v0, discretized
	CartPole    = env.KindCartPole    // Gymnasium's CartPole-v1, discretized
	Acrobot     = env.KindAcrobot     // Gymnasium's Acrobot-v1, discretized
	Pendulum    = env.KindPendulum    // Gymnasium's Pendulum-v1 with a grid of torques, discretized
)

// SimulatorParams are Count discretized tasks of one simulator kind. Every task has the
// environment's Gymnasium physics changed by Physics and then by one of Variants — in order,
// cycling, or drawn uniformly from the sequence stream with order: random — so that a sequence
// faces the same robot on different planets. Physics keys are the environment's Params keys
// (gravity, force, mass_pole, …).
type SimulatorParams struct {
	kind     string
	Count    int                  `yaml:"count" doc:"number of tasks of a run" range:">= 1"`
	Physics  map[string]float64   `yaml:"physics,omitempty" doc:"changes to Gymnasium's physics of every task, by key (gravity, force, mass_pole, …)"`
	Variants []map[string]float64 `yaml:"variants,omitempty" doc:"further changes to the physics, one per task in turn (see order)"`
	Order    string               `yaml:"order" doc:"how each task picks its variant: in turn, or drawn uniformly" range:"cycle | random"`
	Bins     []int                `yaml:"bins,flow" doc:"bins per observation dimension (one value: for every dimension)" range:"each in [1, 1048576]"`
	Low      []float64            `yaml:"low,flow,omitempty" doc:"lower bounds of the uniform bins per dimension (default: Gymnasium's termination thresholds or observation space)" range:"one per dimension, below high"`
	High     []float64            `yaml:"high,flow,omitempty" doc:"upper bounds of the uniform bins per dimension (default: Gymnasium's termination thresholds or observation space)" range:"one per dimension, above low"`
	FitSteps int                  `yaml:"fit_steps,omitempty" doc:"random-policy steps that fit quantile bins instead of uniform ones (0: uniform; not with low, high)" range:"[0, 1000000]"`
	FitSeed  uint64               `yaml:"fit_seed,omitempty" doc:"seed of the random-policy steps that fit quantile bins"`
	Torques  int                  `yaml:"torques,omitempty" doc:"number of evenly spaced torques, Pendulum's actions (pendulum only)" range:">= 2 for pendulum, else 0"`
}

// defaultSimulator is one task of the kind, its observation in the given bins; Pendulum has 5
// torques.
func defaultSimulator(kind string, bins ...int) func() Params {
	return func() Params {
		p := &SimulatorParams{kind: kind, Count: 1, Order: "cycle", Bins: slices.Clone(bins)}
		if kind == Pendulum {
			p.Torques = 5
		}
		return p
	}
}

func (p *SimulatorParams) Validate() error {
	switch {
	case p.Count < 1:
		return fmt.Errorf("count = %d, want at least 1", p.Count)
	case p.Order != "cycle" && p.Order != "random":
		return fmt.Errorf("order = %q, want cycle or random", p.Order)
	}
	for v := range max(len(p.Variants), 1) {
		t, err := p.task(v)
		if err == nil {
			_, err = t.Simulator()
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

func (p *SimulatorParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
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
func (p *SimulatorParams) task(v int) (env.Simulated, error) {
	d := env.Discretization{Bins: p.Bins, Low: p.Low, High: p.High, FitSteps: p.FitSteps, FitSeed: p.FitSeed}
	var changes []map[string]float64
	if p.Physics != nil {
		changes = append(changes, p.Physics)
	}
	if len(p.Variants) > 0 {
		changes = append(changes, p.Variants[v])
	}
	return env.NewSimulated(p.kind, d, p.Torques, changes...)
}
