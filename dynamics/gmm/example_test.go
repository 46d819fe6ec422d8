package gmm_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/dynamics/gmm"
)

// Two well separated 1-D clusters of shifts: BIC picks two components and a new value is
// identified with the nearer one.
func ExampleFitBIC() {
	rng := rand.New(rand.NewPCG(1, 2))
	var data []float64
	for i := range 1000 {
		centre := -1.0
		if i%2 == 1 {
			centre = 1
		}
		data = append(data, centre+0.1*rng.NormFloat64())
	}
	m, err := gmm.FitBIC(data, 1, 4, rng, gmm.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	k := m.Assign([]float64{0.8}, nil)
	fmt.Printf("K = %d; 0.8 belongs to the cluster of mean %.1f\n", len(m.Weights), m.Means[k][0])
	// Output: K = 2; 0.8 belongs to the cluster of mean 1.0
}
