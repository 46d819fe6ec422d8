package env

import (
	"fmt"
	"slices"
	"strings"

	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/env/custom"
	"github.com/temple-rl/temple/env/toytext"
	"github.com/temple-rl/temple/mdp"
)

// Families of tasks other than the maze.
const (
	FamilyFrozenLake = "frozenlake" // FrozenLake: Gymnasium's FrozenLake-v1
	FamilyTaxi       = "taxi"       // Named: Gymnasium's Taxi-v3 (Dietterich's taxi domain)
	FamilyRiverSwim  = "riverswim"  // Named: Strehl & Littman's RiverSwim (env/classic)
	FamilySixArms    = "sixarms"    // Named: Strehl & Littman's SixArms (env/classic)
)

// Named is a task of a family without parameters: one fixed MDP, such as Taxi or RiverSwim.
type Named struct{ family string }

// namedModels builds the MDP of each family without parameters, with its display name.
var namedModels = map[string]struct {
	name  string
	model func() (*mdp.Model, error)
}{
	FamilyTaxi:      {"Taxi", toytext.Taxi},
	FamilyRiverSwim: {"RiverSwim", classic.RiverSwim},
	FamilySixArms:   {"SixArms", classic.SixArms},
}

// NewNamed is the task of the given family without parameters.
func NewNamed(family string) (Named, error) {
	if _, ok := namedModels[family]; !ok {
		return Named{}, fmt.Errorf("env: no task family %q without parameters (have %s)", family, strings.Join(namedFamilies(), ", "))
	}
	return Named{family: family}, nil
}

func namedFamilies() []string {
	var out []string
	for f := range namedModels {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// Family is the task's family.
func (n Named) Family() string { return n.family }

// Name is the MDP's usual name, e.g. "Taxi".
func (n Named) Name() string { return namedModels[n.family].name }

// Model builds the MDP.
func (n Named) Model() (*mdp.Model, error) {
	b, ok := namedModels[n.family]
	if !ok {
		return nil, fmt.Errorf("env: no task family %q without parameters", n.family)
	}
	return b.model()
}

// MarshalJSON writes no parameters: the sequence writes the family.
func (n Named) MarshalJSON() ([]byte, error) { return []byte("{}"), nil }

// FrozenLake is a FrozenLake task (Gymnasium's FrozenLake-v1): a preset map or one of one's own,
// slippery or not; see toytext.FrozenLake.
type FrozenLake struct {
	toytext.FrozenLakeParams
}

// Family is FamilyFrozenLake.
func (f FrozenLake) Family() string { return FamilyFrozenLake }

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

// FamilyCustom is the family of a user's own MDPs (env/custom).
const FamilyCustom = "custom"

// Custom is a task of a user's own MDP file (package env/custom); its JSON form is the task object
// of that file format, so a task-sequence file holds the whole model.
type Custom struct {
	custom.Task
}

// Family is FamilyCustom.
func (c Custom) Family() string { return FamilyCustom }

// Name is the task's name in its file.
func (c Custom) Name() string { return c.Task.Name }

// Model is the model read from the file.
func (c Custom) Model() (*mdp.Model, error) {
	if c.Task.Model == nil {
		return nil, fmt.Errorf("env: custom task %q has no model", c.Task.Name)
	}
	return c.Task.Model, nil
}
