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

// With shared draws, O-TempLe over RMax and the RMax under it try the same m at every setting:
// the difference of their tunings is the template library, not two designs.
func ExampleTune_sharedDraws() {
	s, err := experiment.Parse([]byte("name: shared\nepisodes: 100\ntasks:\n  count: 3\nagents:\n  - type: o-temple\n  - type: rmax\n"))
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "tune")
	defer os.RemoveAll(dir)
	_, rec, err := tune.Tune(context.Background(), s, dir, tune.Options{Seed: 1, Settings: 4, Runs: 1, Draws: tune.Shared})
	if err != nil {
		panic(err)
	}
	m := func(a tune.Agent, setting int) any {
		for _, p := range a.Trials[setting].Params {
			if p.Key == "m" {
				return p.Value
			}
		}
		return nil
	}
	for i := 1; i < 4; i++ {
		fmt.Printf("setting %d: O-TempLe m %v, RMax m %v\n", i, m(rec.Agents[0], i), m(rec.Agents[1], i))
	}
	fmt.Println("recorded:", rec.Budget.Draws)
	// Output:
	// setting 1: O-TempLe m 125, RMax m 125
	// setting 2: O-TempLe m 7, RMax m 7
	// setting 3: O-TempLe m 30, RMax m 30
	// recorded: shared
}
