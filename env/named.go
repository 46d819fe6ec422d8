package env

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/env/custom"
	"github.com/temple-rl/temple/env/toytext"
	"github.com/temple-rl/temple/mdp"
)

// Kinds of tasks other than the maze.
const (
	KindFrozenLake = "frozenlake" // FrozenLake: Gymnasium's FrozenLake-v1
	KindTaxi       = "taxi"       // Named: Gymnasium's Taxi-v3 (Dietterich's taxi domain)
	KindRiverSwim  = "riverswim"  // Named: Strehl & Littman's RiverSwim (env/classic)
	KindSixArms    = "sixarms"    // Named: Strehl & Littman's SixArms (env/classic)
)

// Named is a task of a kind without parameters: one fixed MDP, such as Taxi or RiverSwim.
type Named struct{ kind string }

// namedModels builds the MDP of each kind without parameters, with its display name.
var namedModels = map[string]struct {
	name  string
	model func() (*mdp.Model, error)
}{
	KindTaxi:      {"Taxi", toytext.Taxi},
	KindRiverSwim: {"RiverSwim", classic.RiverSwim},
	KindSixArms:   {"SixArms", classic.SixArms},
}

// NewNamed is the task of the given kind without parameters.
func NewNamed(kind string) (Named, error) {
	if _, ok := namedModels[kind]; !ok {
		return Named{}, fmt.Errorf("env: no task kind %q without parameters (have %s)", kind, strings.Join(namedKinds(), ", "))
	}
	return Named{kind: kind}, nil
}

func namedKinds() []string { return slices.Sorted(maps.Keys(namedModels)) }

// Kind is the task's kind.
func (n Named) Kind() string { return n.kind }

// Name is the MDP's usual name, e.g. "Taxi".
func (n Named) Name() string { return namedModels[n.kind].name }

// Model builds the MDP.
func (n Named) Model() (*mdp.Model, error) {
	b, ok := namedModels[n.kind]
	if !ok {
		return nil, fmt.Errorf("env: no task kind %q without parameters", n.kind)
	}
	return b.model()
}

// MarshalJSON writes no parameters: the sequence writes the kind.
func (n Named) MarshalJSON() ([]byte, error) { return []byte("{}"), nil }

// FrozenLake is a FrozenLake task (Gymnasium's FrozenLake-v1): a preset map or one of one's own,
// slippery or not; see toytext.FrozenLake.
type FrozenLake struct {
	toytext.FrozenLakeParams
}

// Kind is KindFrozenLake.
func (f FrozenLake) Kind() string { return KindFrozenLake }

// Name is "FrozenLake 8x8 slippery" and the like.
func (f FrozenLake) Name() string {
	size := f.Map
	if size == "" {
		size = "custom map"
		if len(f.Desc) > 0 {
			size = fmt.Sprintf("%dx%d map", len(f.Desc), len(f.Desc[0]))
		}
	}
	if f.Slippery {
		return "FrozenLake " + size + " slippery"
	}
	return "FrozenLake " + size
}

// Model builds the MDP; holes and the goal are terminal.
func (f FrozenLake) Model() (*mdp.Model, error) { return toytext.FrozenLake(f.FrozenLakeParams) }

// KindCustom is the family of a user's own MDPs (env/custom).
const KindCustom = "custom"

// Custom is a task of a user's own MDP file (package env/custom); its JSON form is the task object
// of that file format, so a task-sequence file holds the whole model.
type Custom struct {
	custom.Task
}

// Kind is KindCustom.
func (c Custom) Kind() string { return KindCustom }

// Name is the task's name in its file.
func (c Custom) Name() string { return c.Task.Name }

// Model is the model read from the file.
func (c Custom) Model() (*mdp.Model, error) {
	if c.Task.Model == nil {
		return nil, fmt.Errorf("env: custom task %q has no model", c.Task.Name)
	}
	return c.Task.Model, nil
}
