package classic_test

import (
	"fmt"

	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/mdp"
)

// RiverSwim solved exactly: the optimal policy swims right (action 1) in every state.
func ExampleRiverSwim() {
	m, _ := classic.RiverSwim()
	sol, _ := mdp.ValueIteration(m, 0.95, 1e-9)
	fmt.Println("S =", m.S, "A =", m.A, "optimal actions", sol.Policy)
	// Output: S = 6 A = 2 optimal actions [1 1 1 1 1 1]
}
