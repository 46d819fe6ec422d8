package env_test

import (
	"encoding/json"
	"fmt"

	"github.com/temple-rl/temple/env"
)

// A 3×3 maze with slip 0.2 everywhere and a terminal goal: its model, and one row of it.
func ExampleMaze_Model() {
	slip := make([]float64, 9)
	for i := range slip {
		slip[i] = 0.2
	}
	mz := env.Maze{Width: 3, Height: 3, Slip: slip, Goals: []env.Cell{{X: 3, Y: 3}}, GoalReward: 1, Actions: 4, TerminalGoals: true}
	m, err := mz.Model()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mz.Name(), "S =", m.S, "A =", m.A, "terminal goal:", m.Terminal(mz.Index(env.Cell{X: 3, Y: 3})))
	for _, t := range m.Row(mz.Index(env.Cell{X: 2, Y: 3}), env.Right) {
		fmt.Printf("to %v with p %.1f, reward %g\n", mz.CellOf(t.Next), t.Prob, t.Reward)
	}
	// Output:
	// maze 3x3 S = 9 A = 4 terminal goal: true
	// to (3,3) with p 0.8, reward 1
	// to (2,3) with p 0.1, reward 0
	// to (2,2) with p 0.1, reward 0
}

// A sequence may mix families; its JSON names each task's family.
func ExampleSequence() {
	taxi, _ := env.NewNamed(env.KindTaxi)
	seq := env.Sequence{
		env.Maze{Width: 2, Height: 1, Slip: []float64{0, 0}, Goals: []env.Cell{{X: 2, Y: 1}}, GoalReward: 1, Actions: 4},
		taxi,
	}
	b, _ := json.Marshal(seq)
	fmt.Println(string(b))
	for _, t := range seq {
		m, _ := t.Model()
		fmt.Printf("%s: %d states, %d actions\n", t.Name(), m.S, m.A)
	}
	// Output:
	// [{"family":"maze","width":2,"height":1,"slip":[0,0],"goals":[[2,1]],"step_cost":0,"goal_reward":1,"lava_cost":0,"actions":4},{"family":"taxi"}]
	// maze 2x1: 2 states, 4 actions
	// Taxi: 500 states, 6 actions
}

// A 2000×2000 maze computed on demand: a byte per cell instead of a stored model of 16 M pairs,
// and the same outcomes the stored model would list.
func ExampleMaze_Dynamics() {
	const n = 2000
	slip := make([]float64, n*n)
	for i := range slip {
		slip[i] = 0.2
	}
	mz := env.Maze{Width: n, Height: n, Slip: slip, Goals: []env.Cell{{X: n, Y: n}}, StepCost: 0.2, GoalReward: 1, Actions: 4}
	d, err := mz.Dynamics()
	if err != nil {
		fmt.Println(err)
		return
	}
	S, A := d.Size()
	fmt.Println(S, "states,", A, "actions")
	for _, t := range d.AppendRow(nil, mz.Index(env.Cell{X: n - 1, Y: n})*A+env.Right) {
		fmt.Printf("to %v with p %.1f, reward %g\n", mz.CellOf(t.Next), t.Prob, t.Reward)
	}
	// Output:
	// 4000000 states, 4 actions
	// to (2000,2000) with p 0.8, reward 0.8
	// to (1999,2000) with p 0.1, reward -0.2
	// to (1999,1999) with p 0.1, reward -0.2
}
