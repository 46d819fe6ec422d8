package families

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: Mixed, Summary: "parts of other families one after another, repeated (Appendix F.5's classic sequence)",
		Defaults: defaultMixed})
}

// Mixed is the family of sequences made of parts of other families, one after another, repeated.
const Mixed = "mixed"

// MixedParams are parts, each a tasks: block of another family, one after another; the whole is
// repeated Repeat times. Random parts draw afresh at every repetition, in order.
type MixedParams struct {
	Parts  []Spec `yaml:"parts" doc:"tasks: blocks of other families, each with its family: key, one after another" range:"at least one"`
	Repeat int    `yaml:"repeat" doc:"how many times the parts follow one another" range:">= 1"`
}

func defaultMixed() Params { return &MixedParams{Repeat: 1} }

func (p *MixedParams) Validate() error {
	if len(p.Parts) == 0 {
		return errors.New("parts: none listed, want at least one tasks block")
	}
	if p.Repeat < 1 {
		return fmt.Errorf("repeat = %d, want at least 1", p.Repeat)
	}
	for k, part := range p.Parts {
		if err := part.Validate(); err != nil {
			return fmt.Errorf("parts[%d] (%s): %w", k, part.Family, err)
		}
	}
	return nil
}

func (p *MixedParams) Sequence(run int, rng *rand.Rand) (env.Sequence, error) {
	return p.sequenceFrom(ReadFile, run, rng)
}

func (p *MixedParams) sequenceFrom(read Reader, run int, rng *rand.Rand) (env.Sequence, error) {
	var out env.Sequence
	for range p.Repeat {
		for k, part := range p.Parts {
			var seq env.Sequence
			var err error
			if r, ok := part.Params.(reading); ok {
				seq, err = r.sequenceFrom(read, run, rng)
			} else {
				seq, err = part.Params.Sequence(run, rng)
			}
			if err != nil {
				return nil, fmt.Errorf("parts[%d] (%s): %w", k, part.Family, err)
			}
			out = append(out, seq...)
		}
	}
	return out, nil
}

// DrawBytes is the largest of the parts': they draw one after another.
func (p *MixedParams) DrawBytes() int64 {
	most := int64(0)
	for _, part := range p.Parts {
		most = max(most, DrawBytes(part.Params))
	}
	return most
}
