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

// Kendall's τ_b between a family's ranks under two tunings: learners 1 and 2 swapped, and 4 and 5:
// 8 pairs concordant, 2 discordant, (8 − 2)/10.
func ExampleKendallTauB() {
	fmt.Println(benchmark.KendallTauB([]float64{1, 2, 3, 4, 5}, []float64{2, 1, 3, 5, 4}))
	// Output:
	// 0.6
}
