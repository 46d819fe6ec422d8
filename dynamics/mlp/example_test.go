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
	ws := net.NewWorkspace()
	grad := make([]float64, len(net.Params))
	const batch = 32
	for range 3000 {
		clear(grad)
		for range batch {
			x := math.Pi * (2*rng.Float64() - 1)
			y := net.Forward(ws, []float64{x})
			net.Backward(ws, []float64{(y[0] - math.Sin(x)) / batch}, grad) // ∂ ½ mean sq. err.
		}
		opt.Step(net.Params, grad)
	}
	mse := 0.0
	for i := range 100 {
		x := -math.Pi + 2*math.Pi*float64(i)/99
		d := net.Forward(ws, []float64{x})[0] - math.Sin(x)
		mse += d * d / 100
	}
	fmt.Println("test MSE below 0.01:", mse < 0.01)
	// Output: test MSE below 0.01: true
}
