package stats_test

import (
	"fmt"

	"github.com/temple-rl/temple/stats"
)

func ExampleMeanCI() {
	// Final returns of four seeds.
	mean, half := stats.MeanCI([]float64{1, 2, 3, 4})
	fmt.Printf("%.2f ± %.3f\n", mean, half)

	// One seed: the interval is undefined and reported as 0.
	mean, half = stats.MeanCI([]float64{3})
	fmt.Printf("%.2f ± %.3f\n", mean, half)
	// Output:
	// 2.50 ± 2.054
	// 3.00 ± 0.000
}

func ExampleSmooth() {
	noisy := []float64{0, 10, 0, 10}
	fmt.Println(stats.Smooth(noisy, 0.5))
	fmt.Println(stats.Smooth(noisy, 0)) // weight 0: unchanged copy
	// Output:
	// [0 5 2.5 6.25]
	// [0 10 0 10]
}
