package experiment_test

import (
	"fmt"

	"github.com/temple-rl/temple/experiment"
)

// A config with a mixed task sequence: parsed, validated and built into each run's tasks.
func ExampleParse() {
	s, err := experiment.Parse([]byte(`
runs: 1
tasks:
  family: mixed
  parts:
    - family: online-maze
      count: 2
    - family: frozenlake
      map: 8x8
    - family: taxi
agents:
  - type: o-temple
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := experiment.Build(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, t := range p.Runs[0] {
		fmt.Printf("task %d: %s (%s), %d states, %d actions\n", k, t.Def.Name(), t.Def.Family(), t.Model.S, t.Model.A)
	}
	// Output:
	// task 0: maze 4x4 (maze), 16 states, 4 actions
	// task 1: maze 4x4 (maze), 16 states, 4 actions
	// task 2: FrozenLake 8x8 slippery (frozenlake), 64 states, 4 actions
	// task 3: Taxi (taxi), 500 states, 6 actions
}
