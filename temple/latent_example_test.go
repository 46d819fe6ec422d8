package temple_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// ExampleLatentPSRL runs latent-psrl over PSRL on six tasks that alternate between two models of
// three states (action 0 moves one state on, or two, as the model says; action 1 stays; reward 1
// on moving into state 0). The first task of each model founds a model of the library; the later
// ones are explained by it, and the posterior of the new model falls to nothing.
func ExampleLatentPSRL() {
	p := learners.DefaultPSRL()
	p.Schedule = learners.PerEpisode // latent-psrl draws the base's models itself
	base, err := learners.NewPSRL(p)
	if err != nil {
		panic(err)
	}
	lp, err := temple.NewLatentPSRL(temple.DefaultLatentParams(),
		temple.LatentPrior{Alpha: p.Prior, RewardMin: 0, RewardMax: 1, Schedule: temple.LatentDoubling}, base)
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var ag agent.Agent = lp
	for task := range 6 {
		shift := 1 + task%2 // the model: action 0 moves shift states on
		if err := ag.BeginTask(agent.Task{Index: task, S: 3, A: 2, Gamma: 0.9, Rand: rng}); err != nil {
			panic(err)
		}
		s := 1
		for step := range 300 {
			a := ag.Act(s)
			next := s
			if a == 0 {
				next = (s + shift) % 3
			}
			r := 0.0
			if next == 0 && s != 0 {
				r = 1
			}
			ag.Observe(s, a, r, next)
			s = next
			if step%30 == 29 {
				ag.EndEpisode()
			}
		}
		w := lp.Weights()
		ag.EndTask()
		fmt.Printf("task %d (model %d): P(new model) %.3f, library of %d\n", task, shift, w[len(w)-1], lp.Components())
	}
	// Output:
	// task 0 (model 1): P(new model) 1.000, library of 1
	// task 1 (model 2): P(new model) 1.000, library of 2
	// task 2 (model 1): P(new model) 0.000, library of 2
	// task 3 (model 2): P(new model) 0.000, library of 2
	// task 4 (model 1): P(new model) 0.000, library of 2
	// task 5 (model 2): P(new model) 0.000, library of 2
}
