package experiment_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
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
		fmt.Printf("task %d: %s (%s), %d states, %d actions\n", k, t.Def.Name(), t.Def.Kind(), t.Model.S, t.Model.A)
	}
	// Output:
	// task 0: maze 4x4 (maze), 16 states, 4 actions
	// task 1: maze 4x4 (maze), 16 states, 4 actions
	// task 2: FrozenLake 8x8 slippery (frozenlake), 64 states, 4 actions
	// task 3: Taxi (taxi), 500 states, 6 actions
}

// A results directory belongs to one experiment: another one is refused until its results are
// discarded.
func ExampleDiscard() {
	dir, err := os.MkdirTemp("", "results")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	first, _ := experiment.Parse([]byte("name: first\nruns: 1\nepisodes: 5\ntasks: {count: 1}\nagents: [{type: rmax}]\n"))
	second, _ := experiment.Parse([]byte("name: second\nruns: 1\nepisodes: 5\ntasks: {count: 1}\nagents: [{type: q-learning}]\n"))
	if _, err := experiment.Execute(context.Background(), first, dir, 1, nil); err != nil {
		fmt.Println(err)
		return
	}
	_, err = experiment.Execute(context.Background(), second, dir, 1, nil)
	var occupied *experiment.OccupiedError
	if errors.As(err, &occupied) {
		fmt.Printf("refused: the directory holds %q, not %q\n", occupied.Held, occupied.Want)
	}
	if err := results.Discard(results.At(dir), nil); err != nil {
		fmt.Println(err)
		return
	}
	sum, err := experiment.Execute(context.Background(), second, dir, 1, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ran", sum.Name)
	// Output:
	// refused: the directory holds "first", not "second"
	// ran second
}
