package learners_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/learners"
)

// PSRL with redraw: changed on a 4×4 grid whose goal ends the episode: a draw samples anew only
// the pairs whose counts changed since their last sample (every pair at the full draws, whose
// intervals grow), so most of its draws cost a few variates and a warm-started solve. Both settings
// walk the shortest path (6 steps) by the end.
func ExamplePSRLParams_redraw() {
	mz := env.Maze{Width: 4, Height: 4, Slip: make([]float64, 16), Goals: []env.Cell{{X: 4, Y: 4}}, GoalReward: 1,
		Actions: 4, TerminalGoals: true}
	m, _ := mz.Model()
	for _, redraw := range []learners.PSRLRedraw{learners.RedrawAll, learners.RedrawChanged} {
		p := learners.DefaultPSRL()
		p.Redraw = redraw
		base, err := learners.NewPSRL(p)
		if err != nil {
			fmt.Println(err)
			return
		}
		ag := agent.NewSingle(base)
		ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: m.TerminalStates(), Rewards: agent.RewardsOf(m)})
		envRand := rand.New(rand.NewPCG(2, 2))
		var steps int
		for range 200 {
			steps = gridEpisode(ag, m, envRand)
		}
		fmt.Printf("redraw %s: %d steps to the goal in the last episode, %d models drawn\n", redraw, steps, base.Stats().Plans())
	}
	// Output:
	// redraw all: 6 steps to the goal in the last episode, 255 models drawn
	// redraw changed: 6 steps to the goal in the last episode, 239 models drawn
}
