package families

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family of docs/guides/new-family.md, registered from this test file the way every family
// registers itself from its own file: its file is everything below, its registration the init.

// Corridor is the family of slippery corridors: count corridors of length cells, each cell's
// slip drawn uniformly from slips; reaching the last cell pays 1 and ends the episode.
const Corridor = "corridor"

// CorridorParams are corridor's parameters.
type CorridorParams struct {
	Length int       `yaml:"length" doc:"number of cells of every corridor" range:">= 2"`
	Slips  []float64 `yaml:"slips" doc:"slip probabilities; each cell's slip is one of them, drawn uniformly" range:"at least one, each in [0, 1]"`
	Count  int       `yaml:"count" doc:"number of tasks of a run" range:">= 1"`
}

func defaultCorridor() Params { return &CorridorParams{Length: 5, Slips: []float64{0, 0.2}, Count: 3} }

func (p *CorridorParams) Validate() error {
	switch {
	case p.Length < 2:
		return fmt.Errorf("length = %d, want at least 2", p.Length)
	case len(p.Slips) == 0:
		return errors.New("slips is empty, want at least one slip probability")
	case p.Count < 1:
		return fmt.Errorf("count = %d, want at least 1", p.Count)
	}
	for i, s := range p.Slips {
		if !(s >= 0 && s <= 1) {
			return fmt.Errorf("slips[%d] = %v, want a probability in [0, 1]", i, s)
		}
	}
	return nil
}

// Sequence draws, for each task in turn, each cell's slip in cell order. A corridor is a maze of
// one row, so its tasks are written to tasks.json as mazes.
func (p *CorridorParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	out := make(env.Sequence, p.Count)
	for k := range out {
		m := env.Maze{Width: p.Length, Height: 1, Slip: make([]float64, p.Length), Actions: 4,
			Goals: []env.Cell{{X: p.Length, Y: 1}}, TerminalGoals: true, GoalReward: 1, StepCost: 0.05}
		for i := range m.Slip {
			m.Slip[i] = p.Slips[rng.IntN(len(p.Slips))]
		}
		out[k] = m
	}
	return out, nil
}

func init() {
	register(Family{Name: Corridor, Summary: "slippery corridors with a terminal goal (the guide's example, not in the paper)", Defaults: defaultCorridor})
}
