package cartpole_test

import (
	"fmt"

	"github.com/temple-rl/temple/continuous/cartpole"
)

// From rest, pushing right accelerates the cart right and tips the pole left.
func ExampleDynamics() {
	next := cartpole.Dynamics([cartpole.StateDim]float64{}, 1)
	fmt.Printf("x=%.4f xdot=%.4f theta=%.4f thetadot=%.4f\n", next[0], next[1], next[2], next[3])
	// Output: x=0.0000 xdot=0.1951 theta=0.0000 thetadot=-0.2927
}
