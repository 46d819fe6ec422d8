package mdp_test

import (
	"fmt"

	"github.com/temple-rl/temple/mdp"
)

// The best an episode of T steps can earn: in state 0, staying pays 1 a step; moving to state 1
// pays 0 once and then 2 a step. With 3 steps to go moving is worth 0 + 2 + 2 = 4, with 1 step to
// go staying is worth 1.
func ExampleFiniteHorizon() {
	m, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1, Reward: 1}}, {{Next: 1, Prob: 1}},
		{{Next: 1, Prob: 1, Reward: 2}}, {{Next: 1, Prob: 1, Reward: 2}},
	}, []float64{1, 0})
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := mdp.FiniteHorizon(m, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	for steps := 0; steps <= 3; steps++ {
		fmt.Printf("V_%d = %v\n", steps, h.Values(steps))
	}
	// Output:
	// V_0 = [0 0]
	// V_1 = [1 2]
	// V_2 = [2 4]
	// V_3 = [4 6]
}
