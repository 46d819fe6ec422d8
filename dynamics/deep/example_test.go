package deep_test

import (
	"context"
	"fmt"

	"github.com/temple-rl/temple/dynamics/deep"
)

// A very small study on CartPole: 3 seeds, 2 training sizes, short training.
func ExampleRun() {
	s := deep.Default(deep.Available()[:1]) // CartPole-v1
	s.Seeds, s.Sizes, s.Test = 3, []int{100, 400}, 1000
	s.Config.Steps = 300
	recs, err := deep.Run(context.Background(), s, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	sum, _ := deep.Summarise(s, recs)
	for _, ss := range sum.Envs[0].Series {
		fmt.Println(ss.Name)
	}
	fmt.Println("models:", len(recs), "absolute worst:", sum.Envs[0].AbsoluteWorst)
	// Output:
	// absolute
	// relative
	// relative+augment (λ=0.1)
	// relative+augment (λ=0)
	// models: 24 absolute worst: true
}
