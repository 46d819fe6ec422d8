package agents

import (
	"maps"
	"math/rand/v2"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

// BenchmarkBases runs every base learner alone and under O-TempLe through a stream of random
// 4×4 mazes of the online setting — one whole task (3000 episodes × 30 steps) per iteration,
// planning and template work included — and reports steps per second: the cost templates add
// to each base (the README's base-learner table). E3 takes m = 500, as in the base-learners
// preset (its default 16 is below O-TempLe's m_s); PSRL also runs with the TSDE schedule.
func BenchmarkBases(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	models := make([]*mdp.Model, 16)
	for k := range models {
		slip := make([]float64, 16)
		for i := range slip {
			slip[i] = []float64{0, 0.2, 0.4}[rng.IntN(3)]
		}
		mz := env.Maze{Width: 4, Height: 4, Slip: slip, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
			StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
		var err error
		if models[k], err = mz.Model(); err != nil {
			b.Fatal(err)
		}
	}
	type variant struct {
		name, base string
		params     map[string]any
	}
	var variants []variant
	for _, base := range BaseNames() {
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
				ag, err := New(typ, &n, Context{Gamma: 0.95})
				if err != nil {
					b.Fatal(err)
				}
				benchTasks(b, ag, models)
			})
		}
	}
}

// benchTasks runs one whole task per iteration and reports steps per second.
func benchTasks(b *testing.B, ag agent.Agent, models []*mdp.Model) {
	const episodes, steps = 3000, 30
	rng := rand.New(rand.NewPCG(3, 4))
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		m := models[k%len(models)]
		if err := ag.BeginTask(agent.Task{Index: k, S: m.S, A: m.A, Gamma: 0.95, Rand: rng}); err != nil {
			b.Fatal(err)
		}
		for e := 0; e < episodes; e++ {
			s := 0
			for t := 0; t < steps; t++ {
				a := ag.Act(s)
				next, r := m.Step(s, a, rng)
				ag.Observe(s, a, r, next)
				s = next
			}
			ag.EndEpisode()
		}
		ag.EndTask()
	}
	b.ReportMetric(float64(b.N*episodes*steps)/b.Elapsed().Seconds(), "steps/s")
}
