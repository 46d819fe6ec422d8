package oracle_test

import (
	"fmt"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/oracle"
)

// On a two-state chain — staying in state 0 pays 1, moving to state 1 pays 2 at every step after
// — an episode of T = 3 steps that stays in state 0 earns 3 of the optimal 4: every step is an
// ε-mistake, and the regret is 1.
func ExampleSolve() {
	chain, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1, Reward: 1}}, {{Next: 1, Prob: 1}},
		{{Next: 1, Prob: 1, Reward: 2}}, {{Next: 1, Prob: 1, Reward: 2}},
	}, []float64{1, 0})
	if err != nil {
		panic(err)
	}
	sol, err := oracle.Solve(chain, 3, 0.9, 0)
	if err != nil {
		panic(err)
	}
	m := sol.Watch()
	m.Episode(0)
	for togo := 3; togo > 0; togo-- {
		m.Acting(0)
		m.Stepped(0, 0, 1, 0, togo, agent.Unclassified)
	}
	rec := m.Finish(1)
	fmt.Printf("optimal %v, ε-mistakes %d, regret %.3g\n", rec.OptimalReward, rec.Mistakes, rec.Total())
	// Output: optimal 4, ε-mistakes 3, regret 1
}
