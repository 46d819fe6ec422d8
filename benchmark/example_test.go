package benchmark_test

import (
	"fmt"

	"github.com/temple-rl/temple/benchmark"
	"github.com/temple-rl/temple/tune"
)

// Every family's seeds derive from the benchmark's seed and the family's name: its tuning seed,
// and temple tune's design and judging seeds from that.
func ExampleFamilySeed() {
	seed := benchmark.FamilySeed(1, "finite-model")
	fmt.Println(seed == benchmark.FamilySeed(1, "finite-model"), seed == benchmark.FamilySeed(2, "finite-model"))
	fmt.Println(tune.DesignSeed(seed) != tune.JudgingSeed(seed))
	// Output:
	// true false
	// true
}
