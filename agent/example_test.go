package agent_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
)

// RMax on a 3×3 grid with a terminal goal: after enough episodes every pair it can reach is
// known and it walks the shortest path.
func ExampleRMax() {
	mz := env.Maze{Width: 3, Height: 3, Slip: make([]float64, 9), Goals: []env.Cell{{X: 3, Y: 3}}, GoalReward: 1,
		Actions: 4, TerminalGoals: true}
	m, _ := mz.Model()
	p := agent.DefaultRMax()
	p.M = 5
	rm, err := agent.NewRMax(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	rm.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: m.TerminalStates()})
	envRand := rand.New(rand.NewPCG(2, 2))
	var steps int
	for range 100 {
		s := 0
		for steps = 1; steps <= 50; steps++ {
			a := rm.Act(s)
			next, r := m.Step(s, a, envRand)
			rm.Observe(s, a, r, next)
			if s = next; m.Terminal(s) {
				break
			}
		}
		rm.EndEpisode()
	}
	fmt.Println("steps to the goal in the last episode:", steps)
	// Output: steps to the goal in the last episode: 4
}
