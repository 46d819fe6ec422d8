package pendulum_test

import (
	"fmt"

	"github.com/temple-rl/temple/continuous/pendulum"
)

// Upright at rest is the only state that pays 0; full torque there costs 0.001·u².
func ExampleParams_Dynamics() {
	next, r := pendulum.DefaultParams().Dynamics([pendulum.StateDim]float64{}, 2)
	fmt.Printf("theta %.4f, thetadot %.4f, reward %.4f\n", next[0], next[1], r)
	// Output: theta 0.0150, thetadot 0.3000, reward -0.0040
}
