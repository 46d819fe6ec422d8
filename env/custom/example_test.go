package custom_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/temple-rl/temple/env/custom"
	"github.com/temple-rl/temple/mdp"
)

// A machine that breaks down: running it earns 2 but breaks it with probability 0.2; repairing
// a broken machine costs 2 and works half the time.
func ExampleParse() {
	text := `
format: temple-mdp/v1
tasks:
  - name: machine
    states: [working, broken]
    actions: [run, repair]
    start: working
    transitions:
      - {state: working, action: run,    outcomes: [{next: working, p: 0.8, r: 2}, {next: broken, p: 0.2, r: 2}]}
      - {state: working, action: repair, outcomes: [{next: working, p: 1, r: -2}]}
      - {state: broken,  action: run,    outcomes: [{next: broken, p: 1, r: 0}]}
      - {state: broken,  action: repair, outcomes: [{next: working, p: 0.5, r: -2}, {next: broken, p: 0.5, r: -2}]}
`
	tasks, err := custom.Parse([]byte(text), "yaml")
	if err != nil {
		log.Fatal(err)
	}
	task := tasks[0]
	sol, err := mdp.ValueIteration(task.Model, 0.9, 1e-9)
	if err != nil {
		log.Fatal(err)
	}
	for s, a := range sol.Policy {
		fmt.Printf("%s: %s\n", task.StateNames[s], task.ActionNames[a])
	}
	// Output:
	// working: run
	// broken: repair
}

// Reading the inventory family of examples/custom-mdp and solving each task: the more demand,
// the more stock the optimal policy orders.
func ExampleRead() {
	tasks, err := custom.Read("../../examples/custom-mdp/inventory.yaml")
	if err != nil {
		log.Fatal(err)
	}
	for _, task := range tasks {
		sol, err := mdp.ValueIteration(task.Model, 0.95, 1e-9)
		if err != nil {
			log.Fatal(err)
		}
		line := fmt.Sprintf("%-13s", task.Name)
		for s, a := range sol.Policy {
			line += fmt.Sprintf("  %s: %-7s", task.StateNames[s], task.ActionNames[a])
		}
		fmt.Println(strings.TrimRight(line, " "))
	}
	// Output:
	// demand-low     stock-0: order-1  stock-1: wait     stock-2: wait     stock-3: wait
	// demand-medium  stock-0: order-2  stock-1: order-1  stock-2: wait     stock-3: wait
	// demand-high    stock-0: order-2  stock-1: order-1  stock-2: wait     stock-3: wait
}
