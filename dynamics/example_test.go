package dynamics_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/cartpole"
	"github.com/temple-rl/temple/dynamics"
)

// Learn CartPole's dynamics from 500 random transitions with each method and score the models
// on 2000 held-out transitions.
func Example() {
	train, _ := continuous.CollectRandom(cartpole.New(), rand.New(rand.NewPCG(1, 0)), 500)
	test, _ := continuous.CollectRandom(cartpole.New(), rand.New(rand.NewPCG(2, 0)), 2000)
	cfg := dynamics.DefaultConfig()
	cfg.Steps = 1000
	loss := map[dynamics.Method]float64{}
	for _, m := range dynamics.Methods {
		model, err := dynamics.Train(m, cfg, train, rand.New(rand.NewPCG(3, 0)))
		if err != nil {
			fmt.Println(err)
			return
		}
		loss[m], _ = model.Loss(test)
	}
	fmt.Println("relative below absolute:", loss[dynamics.Relative] < loss[dynamics.Absolute])
	// Output: relative below absolute: true
}

// Prepare a training set once and train Relative + augment with two weights λ from it: the
// standardisation, the network's stream and the mixture of shifts (fitted once) are shared.
func ExamplePrepare() {
	train, _ := continuous.CollectRandom(cartpole.New(), rand.New(rand.NewPCG(1, 0)), 500)
	cfg := dynamics.DefaultConfig()
	cfg.Steps = 200
	data, err := dynamics.Prepare(cfg, train, rand.New(rand.NewPCG(3, 0)), true)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := data.Train(dynamics.RelativeAugment, 0.1)
	b, _ := data.Train(dynamics.RelativeAugment, 0)
	fmt.Println("one mixture for both:", a.Mixture == b.Mixture && a.Mixture == data.Mixture)
	// Output: one mixture for both: true
}
