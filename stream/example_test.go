package stream_test

import (
	"fmt"

	"github.com/temple-rl/temple/stream"
)

// A learner driven from outside the runner (the C ABI) is given the stream the runner gives the
// agent of the same name, run and task: the same seed gives the same draws.
func ExampleForAgent() {
	a := stream.ForAgent(1, 0, "O-TempLe", 3)
	b := stream.ForAgent(1, 0, "O-TempLe", 3)
	other := stream.ForAgent(1, 0, "RMax", 3)
	x, y, z := a.Uint64(), b.Uint64(), other.Uint64()
	fmt.Println(x == y, x == z)
	// Output: true false
}

// The streams that every agent of a run shares (the start states) are named by the agent "".
func ExampleNew() {
	starts := stream.New(1, 0, "", 3, stream.Start)
	again := stream.New(1, 0, "", 3, stream.Start)
	fmt.Println(starts.IntN(1000) == again.IntN(1000))
	// Output: true
}
