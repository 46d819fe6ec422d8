package memory_test

import (
	"fmt"

	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners" // the built-in learners register
	"github.com/temple-rl/temple/memory"
)

// The estimate of ten runs of one stored 100×100 maze (4 actions) with RMax: the models alone
// take 80 bytes a pair, and max_memory = 20 is its limit in bytes.
func Example() {
	rmax, _ := agenttypes.Lookup("rmax")
	x := memory.Experiment{Episodes: 100, Steps: 100, Gamma: 0.95, Generators: 1, MaxMemory: 20,
		Agents: []memory.Agent{{Type: "rmax", Params: rmax.Defaults()}}}
	run := []memory.Task{{S: 100 * 100, A: 4}}
	e := x.Estimate([][]memory.Task{run, run, run, run, run, run, run, run, run, run})
	fmt.Printf("models of %d runs: %d MB\n", e.Runs, e.Models>>20)
	fmt.Println("limit:", memory.Limit(x.MaxMemory)>>20, "MB")
	// Output:
	// models of 10 runs: 30 MB
	// limit: 20 MB
}
