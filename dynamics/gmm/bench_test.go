package gmm

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFitBIC measures the clustering of the deep study's largest training set: 4000 points
// in 4 dimensions (two well separated groups), mixtures of K = 1, …, 8 components by EM, the
// best by BIC.
func BenchmarkFitBIC(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, dim = 4000, 4
	data := make([]float64, n*dim)
	for i := range data {
		data[i] = rng.NormFloat64()
		if i/dim%2 == 0 {
			data[i] += 3
		}
	}
	for b.Loop() {
		if _, err := FitBIC(data, dim, 8, rand.New(rand.NewPCG(1, 2)), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
