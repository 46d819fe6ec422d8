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

// PSRL's reward posteriors on a 6×6 grid whose rewards are exact (a step costs 0.05, the goal pays
// 1 and ends the episode): the Beta on the task's range and the Normal of the default known noise
// σ = 1 keep every pair's sampled mean reward far wider than the step cost for a long time;
// normal-shared-noise starts from the same guess σ = 1 and learns from all pairs' rewards together
// that the noise is small, and goes for the goal (the shortest path is 10 steps; an episode stops
// after 50).
func ExamplePSRLParams_sharedNoise() {
	mz := env.Maze{Width: 6, Height: 6, Slip: make([]float64, 36), Goals: []env.Cell{{X: 6, Y: 6}}, GoalReward: 1,
		StepCost: 0.05, Actions: 4, TerminalGoals: true}
	m, _ := mz.Model()
	for _, posterior := range []learners.RewardPosterior{learners.BetaReward, learners.NormalReward, learners.SharedNoiseReward} {
		p := learners.DefaultPSRL()
		p.RewardPosterior = posterior
		base, err := learners.NewPSRL(p)
		if err != nil {
			fmt.Println(err)
			return
		}
		ag := agent.NewSingle(base)
		ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: m.TerminalStates(), Rewards: agent.RewardsOf(m)})
		envRand := rand.New(rand.NewPCG(2, 2))
		reached := 0
		for range 100 {
			if gridEpisode(ag, m, envRand) <= 50 { // gridEpisode stops an episode after 50 steps
				reached++
			}
		}
		fmt.Printf("%s: the goal in %d of 100 episodes\n", posterior, reached)
	}
	// Output:
	// beta: the goal in 3 of 100 episodes
	// normal: the goal in 2 of 100 episodes
	// normal-shared-noise: the goal in 94 of 100 episodes
}
