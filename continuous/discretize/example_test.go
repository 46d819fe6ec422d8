package discretize_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous/discretize"
	"github.com/temple-rl/temple/continuous/mountaincar"
)

// MountainCar on a 10×10 grid of its position and velocity: 100 cells and the terminal state.
func Example() {
	sim, err := discretize.New(mountaincar.New(), discretize.Config{
		Bins: []int{10}, Low: []float64{-1.2, -0.07}, High: []float64{0.6, 0.07}})
	if err != nil {
		fmt.Println(err)
		return
	}
	S, A := sim.Size()
	s, _ := sim.Reset(rand.New(rand.NewPCG(1, 1)))
	next, r, terminated, _, _ := sim.Step(2)
	fmt.Println(S, A, sim.TerminalState(), s, next, r, terminated)
	// Output: 101 3 100 35 35 -1 false
}
