package tune_test

import (
	"context"
	"fmt"
	"os"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/tune"
)

// Tune RMax and Q-learning on small mazes with 4 settings each, 1 run each at the first stage,
// then 2 runs for the better two: the same budget for both.
func ExampleTune() {
	s, err := experiment.Parse([]byte("name: example\nepisodes: 100\ntasks:\n  count: 3\nagents:\n  - type: rmax\n  - type: q-learning\n"))
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "tune")
	defer os.RemoveAll(dir)
	tuned, rec, err := tune.Tune(context.Background(), s, dir, tune.Options{Seed: 1, Settings: 4, Runs: 1})
	if err != nil {
		panic(err)
	}
	for _, a := range rec.Agents {
		fmt.Printf("%s: %d settings, %d trial runs, chose setting %d\n", a.Name, len(a.Trials), a.TrialRuns, a.Chosen)
	}
	fmt.Println("judging seed differs from the design seed:", tuned.Seed != tune.DesignSeed(1))
	// Output:
	// RMax: 4 settings, 6 trial runs, chose setting 2
	// Q-learning: 4 settings, 6 trial runs, chose setting 1
	// judging seed differs from the design seed: true
}
