package learners_test

import (
	"fmt"

	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// MBIE-EB on RiverSwim with the bonus of Strehl & Littman's experiment (β = 0.4·R_max): after
// 5000 steps of one continuing run it swims right in every state, the optimal policy, although
// swimming left in state 0 pays at once.
func ExampleMBIEEB() {
	m, _ := classic.RiverSwim()
	p := learners.DefaultMBIEEB()
	p.RMax = 10000
	p.Beta = 0.4 * p.RMax
	mb, err := learners.NewMBIEEB(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	total := riverSwimReward(mb, 5000)
	pi, dst := make([]int, m.S), make([]float64, m.A)
	for s := range pi {
		mb.Policy(s, dst)
		pi[s] = mdp.ArgMax(dst)
	}
	fmt.Println("policy:", pi, "plans:", mb.Stats().Plans(), "reward over 1e6:", total > 1e6)
	// Output: policy: [1 1 1 1 1 1] plans: 83 reward over 1e6: true
}
