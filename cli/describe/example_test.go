package describe_test

import (
	"os"

	"github.com/temple-rl/temple/cli/describe"
)

// A parameter struct documents its keys with doc and range tags beside their yaml tags; Of reads
// them with the defaults the struct holds, and Text prints them as temple describe does.
func ExampleText() {
	type chain struct {
		Length int     `yaml:"length" doc:"states in the chain" range:">= 2"`
		Slip   float64 `yaml:"slip" doc:"probability that a move fails" range:"[0, 1)"`
	}
	entry := describe.Entry{Name: "chain", Summary: "a row of states with a reward at the end",
		Params: describe.Of(&chain{Length: 5, Slip: 0.2})}
	describe.Text(os.Stdout, []describe.Entry{entry})
	// Output:
	// chain     a row of states with a reward at the end
	//   key     default  range   meaning
	//   length  5        >= 2    states in the chain
	//   slip    0.2      [0, 1)  probability that a move fails
}
