package mountaincar_test

import (
	"fmt"

	"github.com/temple-rl/temple/continuous/mountaincar"
)

// The same car on a planet with weaker gravity climbs faster from the valley floor.
func ExampleParams_Dynamics() {
	earth := mountaincar.DefaultParams()
	moon := earth
	moon.Gravity = 0.001
	s := [mountaincar.StateDim]float64{-0.5, 0}
	fmt.Printf("v' earth %.6f, moon %.6f\n", earth.Dynamics(s, 2)[1], moon.Dynamics(s, 2)[1])
	// Output: v' earth 0.000823, moon 0.000929
}
