package experiment_test

import (
	"fmt"

	"github.com/temple-rl/temple/experiment"
)

// A learner driven from outside the runner (the C ABI) is given the stream the runner gives the
// agent of the same name, run and task: the same seed gives the same draws.
func ExampleAgentStream() {
	a := experiment.AgentStream(1, 0, "O-TempLe", 3)
	b := experiment.AgentStream(1, 0, "O-TempLe", 3)
	other := experiment.AgentStream(1, 0, "RMax", 3)
	x, y, z := a.Uint64(), b.Uint64(), other.Uint64()
	fmt.Println(x == y, x == z)
	// Output: true false
}
