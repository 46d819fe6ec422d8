package mlp

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStep measures one training step of the deep extension's network (5 inputs, as
// CartPole's state and action; 2×64 tanh; 4 outputs) on a minibatch of 64: forward pass,
// backward pass and Adam, in training samples per second.
func BenchmarkStep(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, _ := New([]int{5, 64, 64, 4}, rng)
	opt, _ := NewAdam(len(n.Params), 1e-3)
	const batch = 64
	ws := n.NewWorkspace(batch)
	x, dOut := make([]float64, batch*n.In()), make([]float64, batch*n.Out())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	grad := make([]float64, len(n.Params))
	for b.Loop() {
		y := n.Forward(ws, x)
		for i, v := range y {
			dOut[i] = v / batch
		}
		clear(grad)
		n.Backward(ws, dOut, grad)
		opt.Step(n.Params, grad)
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "samples/s")
}
