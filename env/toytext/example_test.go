package toytext_test

import (
	"fmt"

	"github.com/temple-rl/temple/env/toytext"
	"github.com/temple-rl/temple/mdp"
)

// Solve the 4x4 lake without slipping and walk the optimal policy from the start to the goal.
func ExampleFrozenLake() {
	p := toytext.FrozenLakeParams{Map: "4x4"}
	m, err := toytext.FrozenLake(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	lake, _ := p.Lake()
	sol, err := mdp.ValueIteration(m, 0.9, 1e-12)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("V*(start) = %.5f\n", sol.V[0])
	for s := 0; !m.Terminal(s); {
		a := sol.Policy[s]
		next := m.Row(s, a)[0] // not slippery: one outcome
		fmt.Printf("%s %-5s -> %s, reward %g\n", lake.CellName(s), toytext.FrozenLakeActionNames[a], lake.CellName(next.Next), next.Reward)
		s = next.Next
	}
	// Output:
	// V*(start) = 0.59049
	// (0,0) S down  -> (1,0) F, reward 0
	// (1,0) F down  -> (2,0) F, reward 0
	// (2,0) F right -> (2,1) F, reward 0
	// (2,1) F down  -> (3,1) F, reward 0
	// (3,1) F right -> (3,2) F, reward 0
	// (3,2) F right -> (3,3) G, reward 1
}

// Decode a Taxi state and follow the optimal policy until the passenger is delivered.
func ExampleTaxi() {
	m, err := toytext.Taxi()
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := mdp.ValueIteration(m, 0.9, 1e-12)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := toytext.EncodeTaxi(toytext.TaxiState{Row: 3, Col: 1, Pass: 2, Dest: 0})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("V*(%d) = %.4f\n", s, sol.V[s])
	for !m.Terminal(s) {
		st, _ := toytext.DecodeTaxi(s)
		a := sol.Policy[s]
		next := m.Row(s, a)[0] // Taxi is deterministic
		fmt.Printf("%v: %s, reward %g\n", st, toytext.TaxiActionNames[a], next.Reward)
		s = next.Next
	}
	// Output:
	// V*(328) = 1.6226
	// taxi (3,1), passenger at Y, destination R: north, reward -1
	// taxi (2,1), passenger at Y, destination R: west, reward -1
	// taxi (2,0), passenger at Y, destination R: south, reward -1
	// taxi (3,0), passenger at Y, destination R: south, reward -1
	// taxi (4,0), passenger at Y, destination R: pickup, reward -1
	// taxi (4,0), passenger in taxi, destination R: north, reward -1
	// taxi (3,0), passenger in taxi, destination R: north, reward -1
	// taxi (2,0), passenger in taxi, destination R: north, reward -1
	// taxi (1,0), passenger in taxi, destination R: north, reward -1
	// taxi (0,0), passenger in taxi, destination R: dropoff, reward 20
}
