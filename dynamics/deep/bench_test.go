package deep

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/dynamics"
)

// BenchmarkTrain measures training throughput per environment built in and method: transitions
// through the default 2×64 network (forward and backward pass, Adam) per second, for 500 Adam
// steps of 64 on 1000 transitions. Relative + augment includes fitting the mixtures (K ≤ 8 by
// BIC) and the residual pass.
func BenchmarkTrain(b *testing.B) {
	for _, env := range Available() {
		e, err := env.New()
		if err != nil {
			b.Fatal(err)
		}
		train, err := continuous.CollectRandom(e, rand.New(rand.NewPCG(1, 1)), 1000)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range dynamics.Methods {
			b.Run(env.Name+"/"+m.String(), func(b *testing.B) {
				cfg := dynamics.DefaultConfig()
				cfg.Steps = 500
				for b.Loop() {
					if _, err := dynamics.Train(m, cfg, train, rand.New(rand.NewPCG(1, 1))); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*cfg.Steps*cfg.Batch)/b.Elapsed().Seconds(), "samples/s")
			})
		}
	}
}
