package mdp_test

import (
	"fmt"

	"github.com/temple-rl/temple/mdp"
)

// A two-state chain solved exactly: in state 0, "stay" pays 1 and "go" moves to state 1, where
// every action pays 2 forever.
func ExampleValueIteration() {
	m, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1, Reward: 1}}, {{Next: 1, Prob: 1, Reward: 0}},
		{{Next: 1, Prob: 1, Reward: 2}}, {{Next: 1, Prob: 1, Reward: 2}},
	}, []float64{1, 0})
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := mdp.ValueIteration(m, 0.9, 1e-9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("V* = [%.4f %.4f], policy %v\n", sol.V[0], sol.V[1], sol.Policy)
	// Output: V* = [18.0000 20.0000], policy [1 0]
}

// An episodic task: state 1 is terminal, so reaching it ends the episode and nothing is
// bootstrapped past it.
func ExampleNewEpisodic() {
	m, err := mdp.NewEpisodic(2, 1, [][]mdp.Transition{
		{{Next: 1, Prob: 0.5, Reward: 1}, {Next: 0, Prob: 0.5, Reward: 0}},
		nil, // a terminal state has no outcomes: it is absorbing with reward 0
	}, []float64{1, 0}, []bool{false, true})
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, _ := mdp.ValueIteration(m, 0.9, 1e-9)
	fmt.Printf("terminal: %v, V*(0) = %.4f, V*(1) = %v\n", m.Terminal(1), sol.V[0], sol.V[1])
	// Output: terminal: true, V*(0) = 0.9091, V*(1) = 0
}

// The best an episode of T steps can earn: in state 0, staying pays 1 a step; moving to state 1
// pays 0 once and then 2 a step. With 3 steps to go moving is worth 0 + 2 + 2 = 4, with 1 step to
// go staying is worth 1.
func ExampleFiniteHorizon() {
	m, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1, Reward: 1}}, {{Next: 1, Prob: 1}},
		{{Next: 1, Prob: 1, Reward: 2}}, {{Next: 1, Prob: 1, Reward: 2}},
	}, []float64{1, 0})
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := mdp.FiniteHorizon(m, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	for steps := 0; steps <= 3; steps++ {
		fmt.Printf("V_%d = %v\n", steps, h.Values(steps))
	}
	// Output:
	// V_0 = [0 0]
	// V_1 = [1 2]
	// V_2 = [2 4]
	// V_3 = [4 6]
}

// A chain of 1000 states whose one action steps right, paying 1 on reaching state 12: the region
// within 3 steps of state 10, and the best return of 3 steps from there, solved on it alone.
func ExampleAround() {
	const S = 1000
	rows := make([][]mdp.Transition, S)
	for s := range rows {
		next := min(s+1, S-1)
		r := 0.0
		if next == 12 {
			r = 1
		}
		rows[s] = []mdp.Transition{{Next: next, Prob: 1, Reward: r}}
	}
	start := make([]float64, S)
	start[0] = 1
	m, err := mdp.New(S, 1, rows, start)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := mdp.Around(m, []int{10}, 3)
	h, err := r.FiniteHorizon(m, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("states", r.States, "steps", r.Dist)
	fmt.Println("V_3(10) =", h.Value(3, r.Index(10)))
	// Output:
	// states [10 11 12 13] steps [0 1 2 3]
	// V_3(10) = 1
}
