package baseline

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

func newTask(index, S, A int, gamma float64, seed uint64) agent.Task {
	return agent.Task{Index: index, S: S, A: A, Gamma: gamma, Rand: rand.New(rand.NewPCG(seed, uint64(index)))}
}

// gridModel is the finite-model 4×4 grid of the experiments with one goal cell: slip 0.4
// everywhere, no lava, landing on the goal pays +0.8, any other cell −0.2.
func gridModel(t testing.TB, goal env.Cell) *mdp.Model {
	t.Helper()
	slip := make([]float64, 16)
	for i := range slip {
		slip[i] = 0.4
	}
	m, err := (&env.Maze{Width: 4, Height: 4, Slip: slip, Goals: []env.Cell{goal}, StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}).Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// runSteps runs ag for steps steps on task index of model m in episodes of 30 steps, each from a
// start state drawn from m's start distribution, with discount gamma; hook (if any) is called
// after every step with the step number.
func runSteps(t testing.TB, ag agent.Agent, m *mdp.Model, index, steps int, gamma float64, seed uint64, hook func(step int)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(index)))
	envRng := rand.New(rand.NewPCG(seed, 1000+uint64(index)))
	if err := ag.BeginTask(agent.Task{Index: index, S: m.S, A: m.A, Gamma: gamma, Rand: rng, Truth: m}); err != nil {
		t.Fatal(err)
	}
	step := 0
	loop := agenttest.Loop{Agent: ag, Task: m, Rand: envRng, AfterStep: func(int, int, float64, int) {
		if step++; hook != nil {
			hook(step)
		}
	}}
	for step < steps {
		// The last episode is not ended when the task ends inside it.
		if s, n := m.SampleStart(envRng), min(30, steps-step); n == 30 {
			loop.Episode(s, n)
		} else {
			loop.Steps(s, n)
		}
	}
	ag.EndTask()
}

// terminalRewards builds a model whose last state is absorbing with reward 0 and where every
// action a of every other state s moves to it paying r[s][a], so Q*(s,a) = r[s][a] exactly and
// Q* of the absorbing state is 0.
func terminalRewards(t testing.TB, r [][]float64) *mdp.Model {
	t.Helper()
	S, A := len(r)+1, len(r[0])
	var rows [][]mdp.Transition
	for s := 0; s < S; s++ {
		for a := 0; a < A; a++ {
			if s == S-1 {
				rows = append(rows, []mdp.Transition{{Next: S - 1, Prob: 1}})
			} else {
				rows = append(rows, []mdp.Transition{{Next: S - 1, Prob: 1, Reward: r[s][a]}})
			}
		}
	}
	start := make([]float64, S)
	start[0] = 1
	m, err := mdp.New(S, A, rows, start)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func metric(ms []agent.Metric, name string) (float64, bool) {
	for _, m := range ms {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}
