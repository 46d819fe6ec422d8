// Package dynamics learns transition models s_{t+1} ≈ f(s_t, a_t) of continuous environments
// with the three methods compared in the paper's deep extension (Appendix F.6):
//
//   - Absolute: the network predicts the next state s_{t+1}.
//   - Relative: the network predicts the state shift Δ = s_{t+1} − s_t (Nagabandi et al. 2018).
//   - RelativeAugment (TempLe): Relative, plus the paper's steps (2) and (3): the observed shifts
//     are clustered by a Gaussian mixture (GEN-TT / TT-UPDATE), training adds MSE(Δ̂, Δ̄) between
//     the prediction and its sample's cluster mean, and a prediction is augmented with the mean of
//     the cluster it is identified with (AUGMENT).
//
// Every method uses the same network (package dynamics/mlp: two tanh hidden layers of 64 units),
// the same optimiser (Adam), the same inputs and the same number of gradient steps; only the
// target, the training loss and the prediction differ. Models are scored by Loss, the held-out
// mean squared error of the next state in a normalisation common to the three methods.
package dynamics

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/dynamics/gmm"
	"github.com/temple-rl/temple/dynamics/mlp"
)

// Method is a way to learn the model.
type Method int

// The methods of Appendix F.6.
const (
	Absolute Method = iota
	Relative
	RelativeAugment
)

// Methods lists every method, in the paper's order.
var Methods = []Method{Absolute, Relative, RelativeAugment}

func (m Method) String() string {
	switch m {
	case Absolute:
		return "absolute"
	case Relative:
		return "relative"
	case RelativeAugment:
		return "relative+augment"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod reads a method's String form.
func ParseMethod(s string) (Method, error) {
	for _, m := range Methods {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("dynamics: method %q, want one of absolute, relative, relative+augment", s)
}

// Config holds the learning parameters shared by the methods.
type Config struct {
	// Hidden are the hidden layer widths: the paper's "2-layer MLP with 64 nodes per layer".
	Hidden []int
	// Steps is the number of Adam steps, each on a minibatch of Batch transitions drawn
	// uniformly with replacement from the training set; LR is Adam's step size.
	Steps, Batch int
	LR           float64
	// Lambda weighs the paper's step (2) term MSE(Δ̂, Δ̄) against MSE(Δ̂, Δ) (RelativeAugment).
	Lambda float64
	// KMax: the mixture of shifts has K ∈ {1, …, KMax} components, chosen by BIC.
	KMax int
}

// DefaultConfig: 2×64 tanh units, 3000 Adam steps of batch 64 at step size 1e-3, λ = 0.1,
// K ≤ 8.
func DefaultConfig() Config {
	return Config{Hidden: []int{64, 64}, Steps: 3000, Batch: 64, LR: 1e-3, Lambda: 0.1, KMax: 8}
}

// Validate names the first parameter out of range.
func (c Config) Validate() error {
	for i, h := range c.Hidden {
		if h < 1 {
			return fmt.Errorf("dynamics: hidden[%d] = %d, want >= 1", i, h)
		}
	}
	if c.Steps < 1 {
		return fmt.Errorf("dynamics: steps = %d, want >= 1", c.Steps)
	}
	if c.Batch < 1 {
		return fmt.Errorf("dynamics: batch = %d, want >= 1", c.Batch)
	}
	if !(c.LR > 0) || math.IsInf(c.LR, 0) {
		return fmt.Errorf("dynamics: lr = %v, want a finite number > 0", c.LR)
	}
	if !(c.Lambda >= 0) || math.IsInf(c.Lambda, 0) {
		return fmt.Errorf("dynamics: lambda = %v, want a finite number >= 0", c.Lambda)
	}
	if c.KMax < 1 {
		return fmt.Errorf("dynamics: kmax = %d, want >= 1", c.KMax)
	}
	return nil
}

// scaler standardises each dimension: z = (x − mean) / sd, with sd = 1 where a dimension is
// constant.
type scaler struct{ mean, sd []float64 }

func fitScaler(rows []float64, dim int) scaler {
	n := len(rows) / dim
	s := scaler{make([]float64, dim), make([]float64, dim)}
	for i := range n {
		for d, v := range rows[i*dim : (i+1)*dim] {
			s.mean[d] += v / float64(n)
		}
	}
	for i := range n {
		for d, v := range rows[i*dim : (i+1)*dim] {
			s.sd[d] += (v - s.mean[d]) * (v - s.mean[d]) / float64(n)
		}
	}
	for d, v := range s.sd {
		if s.sd[d] = math.Sqrt(v); !(s.sd[d] > 1e-12) {
			s.sd[d] = 1
		}
	}
	return s
}

func (s scaler) to(x, z []float64) {
	for d, v := range x {
		z[d] = (v - s.mean[d]) / s.sd[d]
	}
}

func (s scaler) from(z, x []float64) {
	for d, v := range z {
		x[d] = s.mean[d] + s.sd[d]*v
	}
}

// Model is a learned transition model.
type Model struct {
	Method Method
	net    *mlp.Net
	ws     *mlp.Workspace
	// in standardises the input (s, a); out standardises the target (s' or Δ); next is the
	// standardisation of s' on the training set, in which Loss is measured.
	in, out, next scaler
	sd, ad        int

	// RelativeAugment only: the mixture of standardised training shifts, and the per-dimension
	// variance r_d of the network's standardised training residuals (see Predict).
	Mixture *gmm.Mixture
	resid   []float64

	x, z, buf []float64 // scratch
}

// Train learns a model of tr with method m; all randomness comes from rng. Two streams are split
// off rng first, one for the network (initial weights, minibatches) and one for the mixture's
// seeds, in the same way for every method: with the same rng, Relative and RelativeAugment with
// λ = 0 train the very same network, and differ only by the augmentation of step (3).
func Train(m Method, cfg Config, tr *continuous.Transitions, rng *rand.Rand) (*Model, error) {
	netRng := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	mixRng := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if m < Absolute || m > RelativeAugment {
		return nil, fmt.Errorf("dynamics: method = %d, want absolute, relative or relative+augment", int(m))
	}
	n, sd, ad := tr.Len(), tr.StateDim, tr.ActionDim
	if n < 2 {
		return nil, fmt.Errorf("dynamics: %d training transitions, want at least 2", n)
	}
	for i, v := range tr.S {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(tr.Next[i]) || math.IsInf(tr.Next[i], 0) {
			return nil, fmt.Errorf("dynamics: training transition %d has a non-finite state value", i/sd)
		}
	}
	for i, v := range tr.A {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("dynamics: training transition %d has a non-finite action value %v", i/ad, v)
		}
	}

	// Inputs (s, a) and targets (s' or Δ), standardised on the training set.
	inRaw := make([]float64, 0, n*(sd+ad))
	tgtRaw := make([]float64, n*sd)
	for i := range n {
		s, a, next := tr.Row(i)
		inRaw = append(append(inRaw, s...), a...)
		for d := range sd {
			if m == Absolute {
				tgtRaw[i*sd+d] = next[d]
			} else {
				tgtRaw[i*sd+d] = next[d] - s[d]
			}
		}
	}
	mod := &Model{Method: m, sd: sd, ad: ad,
		in: fitScaler(inRaw, sd+ad), out: fitScaler(tgtRaw, sd), next: fitScaler(tr.Next, sd),
		x: make([]float64, sd+ad), z: make([]float64, sd), buf: make([]float64, sd)}
	X := make([]float64, len(inRaw))
	Y := make([]float64, len(tgtRaw))
	for i := range n {
		mod.in.to(inRaw[i*(sd+ad):(i+1)*(sd+ad)], X[i*(sd+ad):(i+1)*(sd+ad)])
		mod.out.to(tgtRaw[i*sd:(i+1)*sd], Y[i*sd:(i+1)*sd])
	}

	// Step (2), clustering: fit the mixture to the standardised shifts, and give every sample
	// the mean Δ̄ of its cluster (the component of highest responsibility).
	var bar []float64
	if m == RelativeAugment {
		mix, err := gmm.FitBIC(Y, sd, cfg.KMax, mixRng, gmm.Options{})
		if err != nil {
			return nil, fmt.Errorf("dynamics: clustering shifts: %w", err)
		}
		mod.Mixture = mix
		bar = make([]float64, n*sd)
		lp := make([]float64, len(mix.Weights))
		for i := range n {
			copy(bar[i*sd:(i+1)*sd], mix.Means[mix.Assign(Y[i*sd:(i+1)*sd], lp)])
		}
	}

	sizes := append(append([]int{sd + ad}, cfg.Hidden...), sd)
	net, err := mlp.New(sizes, netRng)
	if err != nil {
		return nil, err
	}
	opt, err := mlp.NewAdam(len(net.Params), cfg.LR)
	if err != nil {
		return nil, err
	}
	mod.net, mod.ws = net, net.NewWorkspace()
	grad := make([]float64, len(net.Params))
	dOut := make([]float64, sd)
	// Loss per minibatch: (1/(B·d)) Σ_i ‖ŷ_i − y_i‖² + λ (1/(B·d)) Σ_i ‖ŷ_i − Δ̄_i‖².
	scale := 2 / float64(cfg.Batch*sd)
	for range cfg.Steps {
		clear(grad)
		for range cfg.Batch {
			i := netRng.IntN(n)
			y := net.Forward(mod.ws, X[i*(sd+ad):(i+1)*(sd+ad)])
			for d := range sd {
				dOut[d] = scale * (y[d] - Y[i*sd+d])
				if bar != nil {
					dOut[d] += cfg.Lambda * scale * (y[d] - bar[i*sd+d])
				}
			}
			net.Backward(mod.ws, dOut, grad)
		}
		opt.Step(net.Params, grad)
	}

	// Step (3) needs the network's own error: r_d, the mean squared standardised training
	// residual in dimension d.
	if m == RelativeAugment {
		mod.resid = make([]float64, sd)
		for i := range n {
			y := net.Forward(mod.ws, X[i*(sd+ad):(i+1)*(sd+ad)])
			for d := range sd {
				e := y[d] - Y[i*sd+d]
				mod.resid[d] += e * e / float64(n)
			}
		}
	}
	return mod, nil
}

// Predict writes the predicted next state for (s, a) into next. A model is not safe for
// concurrent use.
//
// RelativeAugment augments the network's standardised shift Δ̂ as the paper's step (3) says:
// Δ̂ is identified with the cluster k of highest responsibility, and combined with that
// cluster's mean Δ̄_k by precision weighting, dimension by dimension,
//
//	Δ̃_d = (1 − w_d) Δ̂_d + w_d Δ̄_{k,d},   w_d = r_d / (r_d + σ²_{k,d}),
//
// the posterior mean of Δ_d given a prior N(Δ̄_k, σ²_k) from the cluster (the template's shared
// dynamics) and a measurement Δ̂ with the network's error variance r_d. This is the continuous
// counterpart of TempLe's AUGMENT, which pools a pair's own samples with its template's: the
// more precise source weighs more. A network that fits well (r_d ≪ σ²_{k,d}) is left nearly
// unchanged.
func (mod *Model) Predict(s, a, next []float64) {
	copy(mod.x, s)
	copy(mod.x[mod.sd:], a)
	mod.in.to(mod.x, mod.x)
	y := mod.net.Forward(mod.ws, mod.x)
	copy(mod.z, y)
	if mod.Method == RelativeAugment {
		mix := mod.Mixture
		k := mix.Assign(mod.z, nil)
		for d := range mod.z {
			w := mod.resid[d] / (mod.resid[d] + mix.Vars[k][d])
			mod.z[d] = (1-w)*mod.z[d] + w*mix.Means[k][d]
		}
	}
	mod.out.from(mod.z, mod.buf)
	for d := range next[:mod.sd] {
		next[d] = mod.buf[d]
		if mod.Method != Absolute {
			next[d] += s[d]
		}
	}
}

// Loss is the mean squared error of the predicted next states of test, per transition and
// dimension, with every dimension divided by the standard deviation of s_{t+1} on the training
// set: (1/(n·d)) Σ_i Σ_d ((ŝ'_{i,d} − s'_{i,d}) / σ_d)². The normalisation depends on the
// training data only, so the three methods trained on the same data are scored alike.
func (mod *Model) Loss(test *continuous.Transitions) (float64, error) {
	if test.StateDim != mod.sd || test.ActionDim != mod.ad {
		return 0, fmt.Errorf("dynamics: test transitions of state/action dims %d/%d, model has %d/%d",
			test.StateDim, test.ActionDim, mod.sd, mod.ad)
	}
	n := test.Len()
	if n == 0 {
		return 0, fmt.Errorf("dynamics: no test transitions")
	}
	pred := make([]float64, mod.sd)
	sum := 0.0
	for i := range n {
		s, a, next := test.Row(i)
		mod.Predict(s, a, pred)
		for d := range pred {
			e := (pred[d] - next[d]) / mod.next.sd[d]
			sum += e * e
		}
	}
	return sum / float64(n*mod.sd), nil
}
