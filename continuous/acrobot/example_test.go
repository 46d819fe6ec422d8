package acrobot_test

import (
	"fmt"

	"github.com/temple-rl/temple/continuous/acrobot"
)

// One rk4 step of dt = 0.2 s from rest with torque +1 on the second joint.
func ExampleParams_Dynamics() {
	next := acrobot.DefaultParams().Dynamics([acrobot.StateDim]float64{}, 2)
	fmt.Printf("%.4f %.4f %.4f %.4f\n", next[0], next[1], next[2], next[3])
	// Output: -0.0133 0.0343 -0.1287 0.3345
}
