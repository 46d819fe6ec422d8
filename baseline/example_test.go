package baseline_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/baseline"
	"github.com/temple-rl/temple/mdp"
)

// LRMax on two tasks that differ in one reward: states 0 and 1, two actions, terminal state 2;
// (0,0) moves to 1, every other pair ends the episode, paying 0 except (0,1) 0.2 and (1,0) goal.
// After learning the task with goal 1, the task with goal 0.8 starts with every pair planned at
// its Lipschitz bound instead of R_max/(1−γ) = 2; its true Q* is (0.4, 0.2, 0.8, 0). Once (1,0)
// is known at 0.8, the bound 0.25 of (1,1) shows that it cannot be better, and LRMax never tries
// it (RMax would: it plans every unknown pair at 2).
func ExampleLRMax() {
	task := func(goal float64) *mdp.Model {
		end := func(r float64) []mdp.Transition { return []mdp.Transition{{Next: 2, Prob: 1, Reward: r}} }
		m, _ := mdp.NewEpisodic(3, 2, [][]mdp.Transition{{{Next: 1, Prob: 1}}, end(0.2), end(goal), end(0), nil, nil},
			[]float64{0.5, 0.5, 0}, []bool{false, false, true})
		return m
	}
	p := baseline.DefaultLRMax()
	p.M, p.DMax, p.EpsilonM = 1, 0.25, 0 // deterministic tasks: one sample makes a pair known, exactly
	lr, err := baseline.NewLRMax(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	envRand := rand.New(rand.NewPCG(1, 1))
	for k, m := range []*mdp.Model{task(1), task(0.8)} {
		lr.BeginTask(agent.Task{Index: k, S: 3, A: 2, Gamma: 0.5, Rand: rand.New(rand.NewPCG(2, uint64(k))), Terminal: m.TerminalStates()})
		if k == 1 {
			fmt.Printf("start values: %.3f\n", lr.UnknownValues()[:4])
		}
		for range 20 {
			for s := m.SampleStart(envRand); !m.Terminal(s); {
				a := lr.Act(s)
				next, r := m.Step(s, a, envRand)
				lr.Observe(s, a, r, next)
				s = next
			}
			lr.EndEpisode()
		}
		lr.EndTask()
	}
	for i := 0; i < 4; i++ {
		if !lr.Learner().Stats().Known(i) {
			fmt.Printf("never tried in the second task: (%d,%d)\n", i/2, i%2)
		}
	}
	// Output:
	// start values: [0.875 0.450 1.250 0.250]
	// never tried in the second task: (1,1)
}
