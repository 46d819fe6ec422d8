// Package mlp is a small multilayer perceptron with tanh hidden units and a linear output, its
// gradient by backpropagation, and the Adam optimiser: the network of the paper's deep
// extension (Appendix F.6: "a 2-layer MLP with 64 nodes per layer").
//
// A minibatch goes through the network at once: every layer is one matrix product on gonum's
// pure-Go BLAS (float64, serial at these sizes, one fixed summation order per output), so a
// result is a function of the seed alone and a row's output does not depend on the other rows
// of its minibatch; the gradient is checked against finite differences. All parameters live in
// one flat slice, so Adam is one loop over it.
package mlp

import (
	"fmt"
	"math"
	"math/rand/v2"

	cblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
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

// Workspace holds the activations of one forward pass over a minibatch for the backward pass.
// A workspace belongs to one goroutine; the network itself is only read by Forward and Backward.
type Workspace struct {
	rows  int         // capacity: the largest minibatch
	k     int         // rows of the last Forward
	h     [][]float64 // h[0] = inputs, h[l] = activations of layer l: k rows of Sizes[l]
	delta [][]float64 // ∂loss/∂(pre-activations of layer l), k rows of Sizes[l]
	t     []float64   // a transposed W_l or ∂/∂W_l of a layer with more outputs than inputs
}

// NewWorkspace returns a workspace for n and minibatches of up to rows inputs.
func (n *Net) NewWorkspace(rows int) *Workspace {
	ws := &Workspace{rows: rows, h: make([][]float64, len(n.Sizes)), delta: make([][]float64, len(n.Sizes))}
	for l, s := range n.Sizes {
		ws.h[l] = make([]float64, rows*s)
		ws.delta[l] = make([]float64, rows*s)
		if l > 0 && s > n.Sizes[l-1] {
			ws.t = make([]float64, max(len(ws.t), s*n.Sizes[l-1]))
		}
	}
	return ws
}

// blas is gonum's pure-Go BLAS, named rather than taken from blas64's registry so that no other
// implementation (with another summation order) can change a result. Its products run along
// rows: an output row of A·B is built from rows of B (axpy), one of A·Bᵀ from dot products of
// rows. A layer with more outputs than inputs (the first: 5 → 64 for CartPole) would make those
// rows as short as its inputs, so Forward and Backward go through W_lᵀ instead, whose rows are
// as long as its outputs; each output still sums its terms in the same order.
var blas gonum.Implementation

// transpose writes the transpose of a (r rows of c, row-major) into t (c rows of r).
func transpose(a []float64, r, c int, t []float64) {
	for i := range r {
		for j, v := range a[i*c : (i+1)*c] {
			t[j*r+i] = v
		}
	}
}

// Forward computes the outputs for the k = len(x)/In() inputs stored row-major in x (k at most
// the workspace's rows) and returns them, k rows of Out(); the returned slice belongs to ws and
// is overwritten by the next Forward. A layer is one matrix product, H_l = φ(H_{l−1} W_lᵀ + 1 b_lᵀ).
func (n *Net) Forward(ws *Workspace, x []float64) []float64 {
	in0 := n.Sizes[0]
	k := len(x) / in0
	if k*in0 != len(x) || k < 1 || k > ws.rows {
		panic(fmt.Sprintf("mlp: Forward of %d values: want 1 to %d rows of %d inputs", len(x), ws.rows, in0))
	}
	ws.k = k
	copy(ws.h[0], x)
	L := len(n.Sizes) - 1
	for l := 1; l <= L; l++ {
		w, b := n.layer(n.Params, l)
		in, out := n.Sizes[l-1], n.Sizes[l]
		h := ws.h[l][:k*out]
		for r := range k {
			copy(h[r*out:(r+1)*out], b)
		}
		if out > in {
			wt := ws.t[:in*out]
			transpose(w, out, in, wt)
			blas.Dgemm(cblas.NoTrans, cblas.NoTrans, k, out, in, 1, ws.h[l-1], in, wt, out, 1, h, out)
		} else {
			blas.Dgemm(cblas.NoTrans, cblas.Trans, k, out, in, 1, ws.h[l-1], in, w, in, 1, h, out)
		}
		if l < L {
			for i, z := range h {
				h[i] = math.Tanh(z)
			}
		}
	}
	return ws.h[L][:k*n.Out()]
}

// Backward adds to grad (the layout of Params) the gradient of a loss summed over the inputs of
// the last Forward on ws, given dOut = ∂loss/∂output for each of them (k rows of Out()):
//
//	∂/∂W_l = Δ_lᵀ H_{l−1},  ∂/∂b_l = Δ_lᵀ 1,  Δ_{l−1} = (Δ_l W_l) ⊙ tanh'(·), tanh' = 1 − H²,
//
// with Δ_L = dOut (linear output).
func (n *Net) Backward(ws *Workspace, dOut, grad []float64) {
	k, L := ws.k, len(n.Sizes)-1
	if len(dOut) != k*n.Out() {
		panic(fmt.Sprintf("mlp: Backward of %d output derivatives after a Forward of %d rows of %d", len(dOut), k, n.Out()))
	}
	copy(ws.delta[L], dOut)
	for l := L; l >= 1; l-- {
		w, _ := n.layer(n.Params, l)
		gw, gb := n.layer(grad, l)
		in, out := n.Sizes[l-1], n.Sizes[l]
		d := ws.delta[l][:k*out]
		if out > in { // ∂/∂W_lᵀ = H_{l−1}ᵀ Δ_l, added to grad transposed
			gt := ws.t[:in*out]
			blas.Dgemm(cblas.Trans, cblas.NoTrans, in, out, k, 1, ws.h[l-1], in, d, out, 0, gt, out)
			for j := range out {
				for i := range in {
					gw[j*in+i] += gt[i*out+j]
				}
			}
		} else {
			blas.Dgemm(cblas.Trans, cblas.NoTrans, out, in, k, 1, d, out, ws.h[l-1], in, 1, gw, in)
		}
		for r := range k {
			for j, v := range d[r*out : (r+1)*out] {
				gb[j] += v
			}
		}
		if l == 1 {
			break
		}
		prev := ws.delta[l-1][:k*in]
		blas.Dgemm(cblas.NoTrans, cblas.NoTrans, k, in, out, 1, d, out, w, in, 0, prev, in)
		for i, h := range ws.h[l-1][:k*in] {
			prev[i] *= 1 - h*h
		}
	}
}

// Adam is the optimiser of Kingma and Ba (2015) with bias-corrected moment estimates:
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,  θ ← θ − α m̂ / (√v̂ + ε),
//
// m̂ = m/(1−β₁ᵗ), v̂ = v/(1−β₂ᵗ), computed in the order the paper gives as the more efficient
// (end of its Section 2): α_t = α √(1−β₂ᵗ)/(1−β₁ᵗ), θ ← θ − α_t m / (√v + ε̂), ε̂ = ε √(1−β₂ᵗ).
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
	c2 := math.Sqrt(1 - math.Pow(o.Beta2, float64(o.t)))
	lr := o.LR * c2 / (1 - math.Pow(o.Beta1, float64(o.t)))
	eps := o.Eps * c2
	m, v := o.m[:len(grad)], o.v[:len(grad)]
	params = params[:len(grad)]
	for i, g := range grad {
		m[i] = o.Beta1*m[i] + (1-o.Beta1)*g
		v[i] = o.Beta2*v[i] + (1-o.Beta2)*g*g
		params[i] -= lr * m[i] / (math.Sqrt(v[i]) + eps)
	}
}
