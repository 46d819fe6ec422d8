package families

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/env/custom"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: Custom, Summary: "a user's own MDPs from a temple-mdp/v1 file (not in the paper)",
		Defaults: defaultCustom})
}

// Custom is the family of a user's own MDPs, read from a file (env/custom).
const Custom = env.KindCustom

// CustomParams are the tasks of a user's MDP file (the temple-mdp/v1 format of env/custom, JSON
// or YAML), in the file's order, repeated Repeat times.
type CustomParams struct {
	File   string `yaml:"file" doc:"path of a temple-mdp/v1 file, .json or .yaml (env/custom)" range:"not empty"`
	Repeat int    `yaml:"repeat" doc:"how many times the file's tasks follow one another" range:">= 1"`
}

func defaultCustom() Params { return &CustomParams{Repeat: 1} }

func (p *CustomParams) Validate() error {
	switch {
	case p.File == "":
		return fmt.Errorf("family %q needs file: PATH (a temple-mdp/v1 file, .json or .yaml)", Custom)
	case p.Repeat < 1:
		return fmt.Errorf("repeat = %d, want at least 1", p.Repeat)
	}
	return nil
}

func (p *CustomParams) Sequence(run int, rng *rand.Rand) (env.Sequence, error) {
	return p.sequenceFrom(ReadFile, run, rng)
}

func (p *CustomParams) sequenceFrom(read Reader, _ int, _ *rand.Rand) (env.Sequence, error) {
	data, err := read(p.File, custom.MaxBytes(p.File))
	if err != nil {
		return nil, fmt.Errorf("custom: read %s: %w", p.File, err)
	}
	tasks, err := custom.Decode(p.File, data)
	if err != nil {
		return nil, err
	}
	var out env.Sequence
	for range p.Repeat {
		for _, t := range tasks {
			out = append(out, env.Custom{Task: t})
		}
	}
	return out, nil
}
