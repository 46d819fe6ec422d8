package learners_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// RMax on a 3×3 grid with a terminal goal: after enough episodes every pair it can reach is
// known and it walks the shortest path.
func ExampleRMax() {
	mz := env.Maze{Width: 3, Height: 3, Slip: make([]float64, 9), Goals: []env.Cell{{X: 3, Y: 3}}, GoalReward: 1,
		Actions: 4, TerminalGoals: true}
	m, _ := mz.Model()
	p := learners.DefaultRMax()
	p.M = 5
	base, err := learners.NewRMax(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	rm := agent.NewSingle(base) // the single-task agent: it forgets at every task
	rm.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: m.TerminalStates()})
	envRand := rand.New(rand.NewPCG(2, 2))
	var steps int
	for range 100 {
		steps = gridEpisode(rm, m, envRand)
	}
	fmt.Println("steps to the goal in the last episode:", steps)
	// Output: steps to the goal in the last episode: 4
}

// UCRL2 on a 3×3 grid with a terminal goal. Its confidence sets (the paper's constants) stay wide
// for hundreds of samples per pair, so it explores long before it settles on the shortest path.
func ExampleUCRL2() {
	mz := env.Maze{Width: 3, Height: 3, Slip: make([]float64, 9), Goals: []env.Cell{{X: 3, Y: 3}}, GoalReward: 1,
		Actions: 4, TerminalGoals: true}
	m, _ := mz.Model()
	base, err := learners.NewUCRL2(learners.DefaultUCRL2())
	if err != nil {
		fmt.Println(err)
		return
	}
	ag := agent.NewSingle(base)
	// The task's reward range (0 to 1 here) scales PSRL's Beta reward posterior.
	if err := ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: m.TerminalStates(),
		Rewards: agent.RewardsOf(m)}); err != nil {
		fmt.Println(err)
		return
	}
	envRand := rand.New(rand.NewPCG(2, 2))
	var steps int
	for episode := 1; episode <= 3000; episode++ {
		steps = gridEpisode(ag, m, envRand)
		if episode%1000 == 0 {
			if steps > 50 {
				fmt.Printf("episode %d: goal not reached in 50 steps, %d UCRL2 episodes so far\n", episode, base.Stats().Plans())
			} else {
				fmt.Printf("episode %d: %d steps to the goal, %d UCRL2 episodes so far\n", episode, steps, base.Stats().Plans())
			}
		}
	}
	// Output:
	// episode 1000: goal not reached in 50 steps, 129 UCRL2 episodes so far
	// episode 2000: 4 steps to the goal, 161 UCRL2 episodes so far
	// episode 3000: 4 steps to the goal, 168 UCRL2 episodes so far
}

// PSRL on the same grid: models drawn from the posterior find the goal within a few steps of the
// shortest path (4): each episode follows one draw of the posterior.
func ExamplePSRL() {
	mz := env.Maze{Width: 3, Height: 3, Slip: make([]float64, 9), Goals: []env.Cell{{X: 3, Y: 3}}, GoalReward: 1,
		Actions: 4, TerminalGoals: true}
	m, _ := mz.Model()
	base, err := learners.NewPSRL(learners.DefaultPSRL())
	if err != nil {
		fmt.Println(err)
		return
	}
	ag := agent.NewSingle(base)
	// The task's reward range (0 to 1 here) scales PSRL's Beta reward posterior.
	if err := ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: m.TerminalStates(),
		Rewards: agent.RewardsOf(m)}); err != nil {
		fmt.Println(err)
		return
	}
	envRand := rand.New(rand.NewPCG(2, 2))
	var steps int
	for range 100 {
		steps = gridEpisode(ag, m, envRand)
	}
	fmt.Println("steps to the goal in the last episode:", steps)
	// Output: steps to the goal in the last episode: 6
}

// gridEpisode runs one episode of ag on the grid m from state 0, of at most 50 steps, and returns
// its steps to the goal (51: not reached).
func gridEpisode(ag agent.Agent, m *mdp.Model, envRand *rand.Rand) int {
	s, steps := 0, 1
	for ; steps <= 50; steps++ {
		a := ag.Act(s)
		next, r := m.Step(s, a, envRand)
		ag.Observe(s, a, r, next)
		if s = next; m.Terminal(s) {
			break
		}
	}
	ag.EndEpisode()
	return steps
}

// riverSwimReward is what base learner l, as a single-task agent, earns in the given steps of one
// continuing run of RiverSwim, the environment's random numbers the same for every learner.
func riverSwimReward(l agent.Base, steps int) float64 {
	m, _ := classic.RiverSwim()
	ag := agent.NewSingle(l)
	ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))})
	envRand := rand.New(rand.NewPCG(2, 2))
	s, total := m.SampleStart(envRand), 0.0
	for range steps {
		a := ag.Act(s)
		next, r := m.Step(s, a, envRand)
		ag.Observe(s, a, r, next)
		s, total = next, total+r
	}
	return total
}
