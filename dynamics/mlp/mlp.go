// Package mlp is a small multilayer perceptron with tanh hidden units and a linear output, its
// gradient by backpropagation, and the Adam optimiser: the network of the paper's deep
// extension (Appendix F.6: "a 2-layer MLP with 64 nodes per layer").
//
// It is written on plain float64 slices so that a result is a function of the seed alone (no
// parallel reductions, no float32 rounding) and the gradient can be checked against finite
// differences. All parameters live in one flat slice, so Adam is one loop over it.
package mlp

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Net is a fully connected network with layer sizes Sizes[0] (inputs), …, Sizes[L] (outputs).
// Layer l (1 ≤ l ≤ L) computes h_l = φ(W_l h_{l−1} + b_l) with φ = tanh for hidden layers and
// the identity for the output layer.
type Net struct {
	Sizes []int
	// Params holds, layer by layer, W_l (Sizes[l] rows of Sizes[l−1], row-major) then b_l.
	Params []float64
	offW   []int // offW[l-1]: offset of W_l in Params; b_l follows it
}

// New returns a network with the given layer sizes (at least an input and an output layer, all
// positive), weights drawn from Glorot's uniform distribution U(±√(6/(fan_in+fan_out))) with
// rng, and zero biases.
func New(sizes []int, rng *rand.Rand) (*Net, error) {
	if len(sizes) < 2 {
		return nil, fmt.Errorf("mlp: sizes = %v, want at least an input and an output size", sizes)
	}
	for i, n := range sizes {
		if n < 1 {
			return nil, fmt.Errorf("mlp: sizes[%d] = %d, want >= 1", i, n)
		}
	}
	n := &Net{Sizes: append([]int(nil), sizes...)}
	total := 0
	for l := 1; l < len(sizes); l++ {
		n.offW = append(n.offW, total)
		total += sizes[l]*sizes[l-1] + sizes[l]
	}
	n.Params = make([]float64, total)
	for l := 1; l < len(sizes); l++ {
		in, out := sizes[l-1], sizes[l]
		limit := math.Sqrt(6 / float64(in+out))
		w := n.Params[n.offW[l-1] : n.offW[l-1]+in*out]
		for i := range w {
			w[i] = limit * (2*rng.Float64() - 1)
		}
	}
	return n, nil
}

// In is the input size, Sizes[0].
func (n *Net) In() int { return n.Sizes[0] }

// Out is the output size, Sizes[L].
func (n *Net) Out() int { return n.Sizes[len(n.Sizes)-1] }

// layer returns W_l and b_l of params (Params or a gradient of the same layout).
func (n *Net) layer(params []float64, l int) (w, b []float64) {
	in, out := n.Sizes[l-1], n.Sizes[l]
	o := n.offW[l-1]
	return params[o : o+in*out], params[o+in*out : o+in*out+out]
}

// Workspace holds the activations of one forward pass for the backward pass. A workspace
// belongs to one goroutine; the network itself is only read by Forward and Backward.
type Workspace struct {
	h     [][]float64 // h[0] = input, h[l] = activation of layer l
	delta [][]float64 // ∂loss/∂(pre-activation of layer l)
}

// NewWorkspace returns a workspace for n.
func (n *Net) NewWorkspace() *Workspace {
	ws := &Workspace{h: make([][]float64, len(n.Sizes)), delta: make([][]float64, len(n.Sizes))}
	for l, s := range n.Sizes {
		ws.h[l] = make([]float64, s)
		ws.delta[l] = make([]float64, s)
	}
	return ws
}

// Forward computes the output for input x (len In()) and returns it; the returned slice belongs
// to ws and is overwritten by the next Forward.
func (n *Net) Forward(ws *Workspace, x []float64) []float64 {
	copy(ws.h[0], x)
	L := len(n.Sizes) - 1
	for l := 1; l <= L; l++ {
		w, b := n.layer(n.Params, l)
		in, out := ws.h[l-1], ws.h[l]
		for j := range out {
			z := b[j]
			row := w[j*len(in) : (j+1)*len(in)]
			for i, v := range in {
				z += row[i] * v
			}
			if l < L {
				z = math.Tanh(z)
			}
			out[j] = z
		}
	}
	return ws.h[L]
}

// Backward adds to grad (the layout of Params) the gradient of a loss with respect to the
// parameters, given dOut = ∂loss/∂output at the input of the last Forward on ws.
func (n *Net) Backward(ws *Workspace, dOut, grad []float64) {
	L := len(n.Sizes) - 1
	copy(ws.delta[L], dOut) // linear output: ∂/∂pre-activation = ∂/∂output
	for l := L; l >= 1; l-- {
		w, _ := n.layer(n.Params, l)
		gw, gb := n.layer(grad, l)
		in, d := ws.h[l-1], ws.delta[l]
		for j, dj := range d {
			gb[j] += dj
			grow := gw[j*len(in) : (j+1)*len(in)]
			for i, v := range in {
				grow[i] += dj * v
			}
		}
		if l == 1 {
			break
		}
		// δ_{l−1} = (W_lᵀ δ_l) ⊙ tanh'(·), tanh' = 1 − h².
		prev := ws.delta[l-1]
		clear(prev)
		for j, dj := range d {
			row := w[j*len(in) : (j+1)*len(in)]
			for i := range prev {
				prev[i] += row[i] * dj
			}
		}
		for i, h := range in {
			prev[i] *= 1 - h*h
		}
	}
}

// Adam is the optimiser of Kingma and Ba (2015) with bias-corrected moment estimates:
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,  θ ← θ − α m̂ / (√v̂ + ε).
type Adam struct {
	LR, Beta1, Beta2, Eps float64
	m, v                  []float64
	t                     int
}

// NewAdam returns Adam for n parameters with step size lr and the usual β₁ = 0.9, β₂ = 0.999,
// ε = 1e-8.
func NewAdam(n int, lr float64) (*Adam, error) {
	if !(lr > 0) || math.IsInf(lr, 0) {
		return nil, fmt.Errorf("mlp: Adam learning rate = %v, want a finite number > 0", lr)
	}
	return &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, m: make([]float64, n), v: make([]float64, n)}, nil
}

// Step updates params by one Adam step along grad.
func (o *Adam) Step(params, grad []float64) {
	o.t++
	c1 := 1 - math.Pow(o.Beta1, float64(o.t))
	c2 := 1 - math.Pow(o.Beta2, float64(o.t))
	for i, g := range grad {
		o.m[i] = o.Beta1*o.m[i] + (1-o.Beta1)*g
		o.v[i] = o.Beta2*o.v[i] + (1-o.Beta2)*g*g
		params[i] -= o.LR * (o.m[i] / c1) / (math.Sqrt(o.v[i]/c2) + o.Eps)
	}
}
