package mlp_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/dynamics/mlp"
)

// Fit y = sin(x) on [-π, π] with the paper's two hidden layers of 64 units and Adam.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	net, _ := mlp.New([]int{1, 64, 64, 1}, rng)
	opt, _ := mlp.NewAdam(len(net.Params), 1e-3)
	const batch = 32
	ws := net.NewWorkspace(100)
	grad := make([]float64, len(net.Params))
	x, dOut := make([]float64, batch), make([]float64, batch)
	for range 3000 {
		for i := range x {
			x[i] = math.Pi * (2*rng.Float64() - 1)
		}
		y := net.Forward(ws, x) // one row per input
		for i := range y {
			dOut[i] = (y[i] - math.Sin(x[i])) / batch // ∂ ½ mean sq. err.
		}
		clear(grad)
		net.Backward(ws, dOut, grad)
		opt.Step(net.Params, grad)
	}
	test := make([]float64, 100)
	for i := range test {
		test[i] = -math.Pi + 2*math.Pi*float64(i)/99
	}
	mse := 0.0
	for i, y := range net.Forward(ws, test) {
		mse += (y - math.Sin(test[i])) * (y - math.Sin(test[i])) / 100
	}
	fmt.Println("test MSE below 0.01:", mse < 0.01)
	// Output: test MSE below 0.01: true
}
