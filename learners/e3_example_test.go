package learners_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/learners"
)

// E3 on RiverSwim with the known threshold of Strehl & Littman's experiment (m = 16): after 5000
// steps every state is known, nothing is left to explore, and the exploitation plan swims right
// everywhere.
func ExampleE3() {
	m, _ := classic.RiverSwim()
	p := learners.DefaultE3()
	p.RMax = 10000
	e3, err := learners.NewE3(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	ag := agent.NewSingle(e3)
	ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))})
	envRand := rand.New(rand.NewPCG(2, 2))
	s := m.SampleStart(envRand)
	for range 5000 {
		a := ag.Act(s)
		next, r := m.Step(s, a, envRand)
		ag.Observe(s, a, r, next)
		s = next
	}
	known, explores, acts := 0, 0, make([]int, m.S)
	for s := range m.S {
		if e3.StateKnown(s) {
			known++
		}
		if e3.Explores(s) {
			explores++
		}
		acts[s] = ag.Act(s)
	}
	fmt.Println("known states:", known, "exploring in:", explores, "actions:", acts)
	// Output: known states: 6 exploring in: 0 actions: [1 1 1 1 1 1]
}
