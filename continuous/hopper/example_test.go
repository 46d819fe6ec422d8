//go:build mujoco

package hopper_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous/hopper"
)

// A passive hopper starts standing at z ≈ 1.25 and tips over within a few hundred steps.
func Example() {
	env, err := hopper.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	obs := make([]float64, hopper.StateDim)
	env.Reset(rand.New(rand.NewPCG(1, 2)), obs)
	fmt.Printf("start height %.2f\n", obs[0])
	for step := 1; step <= hopper.MaxSteps; step++ {
		_, term, _, err := env.Step([]float64{0, 0, 0}, obs)
		if err != nil {
			fmt.Println(err)
			return
		}
		if term {
			fmt.Println("terminated before 300 steps:", step < 300)
			break
		}
	}
	// Output:
	// start height 1.25
	// terminated before 300 steps: true
}
