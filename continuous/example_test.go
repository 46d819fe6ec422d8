package continuous_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/cartpole"
)

// Collect transitions under the uniformly random policy and look at one state shift
// Δ = s_{t+1} − s_t.
func ExampleCollectRandom() {
	tr, err := continuous.CollectRandom(cartpole.New(), rand.New(rand.NewPCG(1, 2)), 1000)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, a, next := tr.Row(0)
	fmt.Println(tr.Len(), "transitions of", tr.StateDim, "state and", tr.ActionDim, "action numbers")
	fmt.Printf("action %v: shift of x %.6f, tau * xdot %.6f\n", a[0], next[0]-s[0], cartpole.Tau*s[1])
	// Output:
	// 1000 transitions of 4 state and 1 action numbers
	// action 0: shift of x -0.000077, tau * xdot -0.000077
}
