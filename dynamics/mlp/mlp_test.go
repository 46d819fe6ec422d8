package mlp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// loss is ½ Σ_rows ‖f(x) − t‖², whose gradient with respect to the outputs is f(x) − t.
func loss(n *Net, ws *Workspace, x, t []float64) float64 {
	y := n.Forward(ws, x)
	s := 0.0
	for i := range y {
		s += 0.5 * (y[i] - t[i]) * (y[i] - t[i])
	}
	return s
}

// TestGradientFiniteDifferences compares backpropagation with central differences
// (f(θ+h) − f(θ−h)) / 2h for every parameter of a 2-hidden-layer net, for one input and for a
// minibatch of 7 (whose loss is the sum over the rows).
func TestGradientFiniteDifferences(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		rows  int
	}{{[]int{3, 5, 4, 2}, 1}, {[]int{5, 64, 64, 4}, 1}, {[]int{2, 1}, 1}, {[]int{3, 5, 4, 2}, 7}, {[]int{5, 64, 64, 4}, 7}} {
		sizes := c.sizes
		rng := rand.New(rand.NewPCG(11, uint64(len(sizes))))
		n, err := New(sizes, rng)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n.Params { // non-zero biases too
			n.Params[i] += 0.1 * rng.NormFloat64()
		}
		ws := n.NewWorkspace(c.rows)
		x := make([]float64, c.rows*n.In())
		tgt := make([]float64, c.rows*n.Out())
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		for i := range tgt {
			tgt[i] = rng.NormFloat64()
		}
		y := n.Forward(ws, x)
		dOut := make([]float64, len(y))
		for i := range y {
			dOut[i] = y[i] - tgt[i]
		}
		grad := make([]float64, len(n.Params))
		n.Backward(ws, dOut, grad)

		const h = 1e-6
		worst := 0.0
		for i := range n.Params {
			p := n.Params[i]
			n.Params[i] = p + h
			up := loss(n, ws, x, tgt)
			n.Params[i] = p - h
			down := loss(n, ws, x, tgt)
			n.Params[i] = p
			fd := (up - down) / (2 * h)
			if d := math.Abs(fd-grad[i]) / (1e-6 + math.Abs(fd) + math.Abs(grad[i])); d > worst {
				worst = d
			}
			if math.Abs(fd-grad[i]) > 1e-6*(1+math.Abs(fd)) {
				t.Fatalf("sizes %v, %d rows: ∂/∂θ[%d] = %.10g by backprop, %.10g by finite differences", sizes, c.rows, i, grad[i], fd)
			}
		}
		t.Logf("sizes %v, %d rows: %d params, worst relative gradient error %.2g", sizes, c.rows, len(n.Params), worst)
	}
}

// TestAdamFitsLine: Adam on a 1-input linear net recovers y = 2x − 1.
func TestAdamFitsLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, _ := New([]int{1, 1}, rng)
	opt, _ := NewAdam(len(n.Params), 0.05)
	ws := n.NewWorkspace(1)
	grad := make([]float64, len(n.Params))
	for range 2000 {
		clear(grad)
		for _, x := range []float64{-1, 0, 1, 2} {
			y := n.Forward(ws, []float64{x})
			n.Backward(ws, []float64{(y[0] - (2*x - 1)) / 4}, grad)
		}
		opt.Step(n.Params, grad)
	}
	if w, b := n.Params[0], n.Params[1]; math.Abs(w-2) > 1e-3 || math.Abs(b+1) > 1e-3 {
		t.Errorf("fit w = %v, b = %v, want 2, -1", w, b)
	}
}

func TestSeeded(t *testing.T) {
	a, _ := New([]int{4, 8, 3}, rand.New(rand.NewPCG(5, 6)))
	b, _ := New([]int{4, 8, 3}, rand.New(rand.NewPCG(5, 6)))
	for i := range a.Params {
		if a.Params[i] != b.Params[i] {
			t.Fatal("same seed, different initial weights")
		}
	}
}

func TestErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range [][]int{nil, {3}, {3, 0, 2}, {-1, 2}} {
		if _, err := New(s, rng); err == nil {
			t.Errorf("New(%v): no error", s)
		}
	}
	for _, lr := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := NewAdam(3, lr); err == nil {
			t.Errorf("NewAdam(lr = %v): no error", lr)
		}
	}
}

// TestRowsIndependent: a row's output does not depend on the other rows of its minibatch, bit
// for bit (the products keep one summation order per output).
func TestRowsIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, _ := New([]int{5, 64, 64, 4}, rng)
	const rows = 64
	x := make([]float64, rows*n.In())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	batch := append([]float64(nil), n.Forward(n.NewWorkspace(rows), x)...)
	one := n.NewWorkspace(1)
	for r := range rows {
		y := n.Forward(one, x[r*n.In():(r+1)*n.In()])
		for d, v := range y {
			if v != batch[r*n.Out()+d] {
				t.Fatalf("row %d output %d: %v alone, %v in the minibatch", r, d, v, batch[r*n.Out()+d])
			}
		}
	}
}

// TestAdamTextbook: Step, in the paper's efficient order, follows the textbook update
// θ ← θ − α m̂/(√v̂ + ε) to rounding over 200 steps.
func TestAdamTextbook(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 50
	opt, _ := NewAdam(n, 1e-2)
	got, want := make([]float64, n), make([]float64, n)
	m, v := make([]float64, n), make([]float64, n)
	grad := make([]float64, n)
	for step := 1; step <= 200; step++ {
		for i := range grad {
			grad[i] = rng.NormFloat64() * math.Pow(10, float64(i%7-3))
		}
		opt.Step(got, grad)
		for i, g := range grad {
			m[i] = 0.9*m[i] + 0.1*g
			v[i] = 0.999*v[i] + 0.001*g*g
			mh, vh := m[i]/(1-math.Pow(0.9, float64(step))), v[i]/(1-math.Pow(0.999, float64(step)))
			want[i] -= 1e-2 * mh / (math.Sqrt(vh) + 1e-8)
		}
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
			t.Errorf("θ[%d] = %.17g, textbook Adam %.17g", i, got[i], want[i])
		}
	}
}
