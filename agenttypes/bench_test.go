package agenttypes_test

import (
	"maps"
	"math/rand/v2"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners"
)

// BenchmarkBases runs every base learner alone and under O-TempLe through a stream of random
// 4×4 mazes of the online setting — one whole task (3000 episodes × 30 steps) per iteration,
// planning and template work included — and reports steps per second: the cost templates add
// to each base (the BenchmarkBases rows of docs/performance.md). E3 takes m = 500, as in the base-learners
// preset (its default 16 is below O-TempLe's m_s); PSRL also runs with the TSDE schedule.
func BenchmarkBases(b *testing.B) {
	models := agenttest.Mazes(b, 16, rand.New(rand.NewPCG(1, 2)))
	type variant struct {
		name, base string
		params     map[string]any
	}
	var variants []variant
	for _, base := range agenttypes.BaseNames() {
		v := variant{base, base, map[string]any{}}
		if base == "e3" {
			v.params["m"] = 500
		}
		variants = append(variants, v)
	}
	variants = append(variants, variant{"psrl-tsde", "psrl", map[string]any{"schedule": "tsde"}})
	for _, v := range variants {
		for _, typ := range []string{v.base, "o-temple"} {
			b.Run(v.name+"/"+typ, func(b *testing.B) {
				params := maps.Clone(v.params)
				if typ == "o-temple" {
					params["base"] = v.base
				}
				var n yaml.Node
				if err := n.Encode(params); err != nil {
					b.Fatal(err)
				}
				ag, err := agenttypes.New(typ, &n, agenttypes.Context{Gamma: 0.95})
				if err != nil {
					b.Fatal(err)
				}
				agenttest.Run(b, ag, models, rand.New(rand.NewPCG(3, 4)))
			})
		}
	}
}
