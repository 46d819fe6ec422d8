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

// residRows is the number of training inputs per forward pass of the residual pass.
const residRows = 256

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

	x, z, buf, lp []float64 // scratch
}

// Train learns a model of tr with method m; all randomness comes from rng. It is
// Prepare(cfg, tr, rng, m == RelativeAugment) followed by Data.Train(m, cfg.Lambda).
func Train(m Method, cfg Config, tr *continuous.Transitions, rng *rand.Rand) (*Model, error) {
	d, err := Prepare(cfg, tr, rng, m == RelativeAugment)
	if err != nil {
		return nil, err
	}
	return d.Train(m, cfg.Lambda)
}

// Data is a training set made ready for the methods: its inputs and both targets standardised,
// the seed of the network's random stream and, if asked for, the mixture of step (2). Every model
// trained from one Data shares all of these: the methods and the weights λ are compared on the
// same data and the same network stream, and the mixture is fitted once for all λ. A Data is only
// read by Train, so models may be trained from it concurrently.
type Data struct {
	cfg     Config
	n, sd   int
	ad      int
	x       []float64 // standardised inputs (s, a), n rows of sd+ad
	in      scaler
	next    scaler    // standardisation of s' on the training set (targets of Absolute)
	nextY   []float64 // standardised s'
	shift   scaler    // standardisation of Δ = s' − s (targets of Relative, RelativeAugment)
	shiftY  []float64 // standardised Δ
	netSeed [2]uint64
	// Mixture is the mixture of the standardised shifts (step (2)), nil unless Prepare was asked
	// to cluster; bar holds, for every sample, the mean Δ̄ of its cluster.
	Mixture *gmm.Mixture
	bar     []float64
}

// Prepare standardises tr for cfg and, if cluster is set (RelativeAugment needs it), fits the
// mixture of step (2). Two streams are split off rng first, one for the network (initial
// weights, minibatches) and one for the mixture's seeds, whether or not it clusters: with the
// same rng, Relative and RelativeAugment with λ = 0 train the very same network, and differ only
// by the augmentation of step (3).
func Prepare(cfg Config, tr *continuous.Transitions, rng *rand.Rand, cluster bool) (*Data, error) {
	netSeed := [2]uint64{rng.Uint64(), rng.Uint64()}
	mixRng := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	if err := cfg.Validate(); err != nil {
		return nil, err
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

	// Inputs (s, a) and targets (s' and Δ), standardised on the training set.
	inRaw := make([]float64, 0, n*(sd+ad))
	shiftRaw := make([]float64, n*sd)
	for i := range n {
		s, a, next := tr.Row(i)
		inRaw = append(append(inRaw, s...), a...)
		for d := range sd {
			shiftRaw[i*sd+d] = next[d] - s[d]
		}
	}
	data := &Data{cfg: cfg, n: n, sd: sd, ad: ad, netSeed: netSeed,
		in: fitScaler(inRaw, sd+ad), next: fitScaler(tr.Next, sd), shift: fitScaler(shiftRaw, sd),
		x: make([]float64, len(inRaw)), nextY: make([]float64, n*sd), shiftY: make([]float64, n*sd)}
	for i := range n {
		data.in.to(inRaw[i*(sd+ad):(i+1)*(sd+ad)], data.x[i*(sd+ad):(i+1)*(sd+ad)])
		data.next.to(tr.Next[i*sd:(i+1)*sd], data.nextY[i*sd:(i+1)*sd])
		data.shift.to(shiftRaw[i*sd:(i+1)*sd], data.shiftY[i*sd:(i+1)*sd])
	}
	if !cluster {
		return data, nil
	}

	// Step (2), clustering: fit the mixture to the standardised shifts, and give every sample
	// the mean Δ̄ of its cluster (the component of highest responsibility).
	mix, err := gmm.FitBIC(data.shiftY, sd, cfg.KMax, mixRng, gmm.Options{})
	if err != nil {
		return nil, fmt.Errorf("dynamics: clustering shifts: %w", err)
	}
	data.Mixture = mix
	data.bar = make([]float64, n*sd)
	lp := make([]float64, len(mix.Weights))
	for i := range n {
		copy(data.bar[i*sd:(i+1)*sd], mix.Means[mix.Assign(data.shiftY[i*sd:(i+1)*sd], lp)])
	}
	return data, nil
}

// Train learns a model with method m and, for RelativeAugment, the weight lambda of
// MSE(Δ̂, Δ̄) (the Config's Lambda is not used here). Each step draws a minibatch of Batch
// training samples uniformly with replacement and takes one Adam step on the gradient of
//
//	(1/(B·d)) Σ_i ‖ŷ_i − y_i‖² + λ (1/(B·d)) Σ_i ‖ŷ_i − Δ̄_i‖²,
//
// computed for the whole minibatch at once (mlp.Net.Forward and Backward: matrix products).
func (data *Data) Train(m Method, lambda float64) (*Model, error) {
	if m < Absolute || m > RelativeAugment {
		return nil, fmt.Errorf("dynamics: method = %d, want absolute, relative or relative+augment", int(m))
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("dynamics: lambda = %v, want a finite number >= 0", lambda)
	}
	if m == RelativeAugment && data.Mixture == nil {
		return nil, fmt.Errorf("dynamics: relative+augment needs the mixture of step (2): Prepare with cluster set")
	}
	cfg, n, sd, ad := data.cfg, data.n, data.sd, data.ad
	X, Y, out := data.x, data.shiftY, data.shift
	if m == Absolute {
		Y, out = data.nextY, data.next
	}
	var bar []float64
	if m == RelativeAugment {
		bar = data.bar
	}
	netRng := rand.New(rand.NewPCG(data.netSeed[0], data.netSeed[1]))
	sizes := append(append([]int{sd + ad}, cfg.Hidden...), sd)
	net, err := mlp.New(sizes, netRng)
	if err != nil {
		return nil, err
	}
	opt, err := mlp.NewAdam(len(net.Params), cfg.LR)
	if err != nil {
		return nil, err
	}
	mod := &Model{Method: m, sd: sd, ad: ad, in: data.in, out: out, next: data.next,
		net: net, ws: net.NewWorkspace(max(cfg.Batch, residRows)),
		x: make([]float64, sd+ad), z: make([]float64, sd), buf: make([]float64, sd)}
	grad := make([]float64, len(net.Params))
	xb := make([]float64, cfg.Batch*(sd+ad)) // the minibatch's inputs, row by row
	idx := make([]int, cfg.Batch)
	dOut := make([]float64, cfg.Batch*sd)
	scale := 2 / float64(cfg.Batch*sd)
	for range cfg.Steps {
		for b := range idx {
			idx[b] = netRng.IntN(n)
			copy(xb[b*(sd+ad):(b+1)*(sd+ad)], X[idx[b]*(sd+ad):(idx[b]+1)*(sd+ad)])
		}
		y := net.Forward(mod.ws, xb)
		for b, i := range idx {
			for d := range sd {
				g := scale * (y[b*sd+d] - Y[i*sd+d])
				if bar != nil {
					g += lambda * scale * (y[b*sd+d] - bar[i*sd+d])
				}
				dOut[b*sd+d] = g
			}
		}
		clear(grad)
		net.Backward(mod.ws, dOut, grad)
		opt.Step(net.Params, grad)
	}

	// Step (3) needs the network's own error: r_d, the mean squared standardised training
	// residual in dimension d.
	if m == RelativeAugment {
		mod.Mixture, mod.lp = data.Mixture, make([]float64, len(data.Mixture.Weights))
		mod.resid = make([]float64, sd)
		for lo := 0; lo < n; lo += residRows {
			hi := min(n, lo+residRows)
			y := net.Forward(mod.ws, X[lo*(sd+ad):hi*(sd+ad)])
			for i := lo; i < hi; i++ {
				for d := range sd {
					e := y[(i-lo)*sd+d] - Y[i*sd+d]
					mod.resid[d] += e * e / float64(n)
				}
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
		k := mix.Assign(mod.z, mod.lp)
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
