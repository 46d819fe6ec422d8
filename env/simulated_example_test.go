package env_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous/mountaincar"
	"github.com/temple-rl/temple/env"
)

// A MountainCar task on a moon: a simulator with 10×10 cells and the terminal state, no table.
func ExampleMountainCar() {
	moon := mountaincar.DefaultParams()
	moon.Gravity = 0.0015
	lo, hi, _ := env.DefaultBounds(env.KindMountainCar)
	task := env.MountainCar{Params: moon, Discretization: env.Discretization{Bins: []int{10}, Low: lo, High: hi}}
	sim, err := task.Simulator()
	if err != nil {
		fmt.Println(err)
		return
	}
	S, A := sim.Size()
	s, _ := sim.Reset(rand.New(rand.NewPCG(1, 1)))
	next, r, terminated, _, _ := sim.Step(2)
	_, tableErr := task.Model()
	fmt.Println(task.Name())
	fmt.Println(S, A, s, next, r, terminated)
	fmt.Println(tableErr)
	// Output:
	// MountainCar-v0 (gravity=0.0015) 10x10 bins
	// 101 3 35 35 -1 false
	// MountainCar-v0 (gravity=0.0015) 10x10 bins: the task is a simulator: it has no transition table
}
