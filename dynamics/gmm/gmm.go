// Package gmm fits mixtures of Gaussians with diagonal covariances by expectation–maximisation
// and chooses their number of components by the Bayesian information criterion.
//
// In the deep extension of TempLe (paper Appendix F.6) the observed state shifts
// Δ = s_{t+1} − s_t are clustered by such a mixture: a component plays the role of a transition
// template (GEN-TT / TT-UPDATE), its mean Δ̄ is the template's shared dynamics, and a new
// prediction is identified with the component of highest responsibility (AUGMENT).
package gmm

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Mixture is p(x) = Σ_k π_k N(x; μ_k, diag(σ²_k)).
type Mixture struct {
	Dim     int
	Weights []float64   // π_k
	Means   [][]float64 // μ_k
	Vars    [][]float64 // σ²_k per dimension
}

// Options control EM.
type Options struct {
	// MaxIter bounds the EM iterations (default 300).
	MaxIter int
	// Tol stops EM when the mean log-likelihood per point improves by less (default 1e-7).
	Tol float64
	// VarFloor is the smallest variance of a component in any dimension (default 1e-6), which
	// keeps a component from collapsing onto a single point.
	VarFloor float64
}

func (o Options) withDefaults() Options {
	if o.MaxIter == 0 {
		o.MaxIter = 300
	}
	if o.Tol == 0 {
		o.Tol = 1e-7
	}
	if o.VarFloor == 0 {
		o.VarFloor = 1e-6
	}
	return o
}

func (o Options) validate() error {
	if o.MaxIter < 1 {
		return fmt.Errorf("gmm: MaxIter = %d, want >= 1", o.MaxIter)
	}
	if !(o.Tol > 0) {
		return fmt.Errorf("gmm: Tol = %v, want > 0", o.Tol)
	}
	if !(o.VarFloor > 0) || math.IsInf(o.VarFloor, 0) {
		return fmt.Errorf("gmm: VarFloor = %v, want a finite number > 0", o.VarFloor)
	}
	return nil
}

// Fit fits a K-component mixture to the n = len(data)/dim points stored row-major in data, and
// returns it with its log-likelihood Σ_i log p(x_i). The means start at k-means++ seeds drawn
// with rng, the variances at the data's, the weights equal; EM then alternates
//
//	E: r_ik = π_k N(x_i; μ_k, σ²_k) / Σ_j π_j N(x_i; μ_j, σ²_j)
//	M: N_k = Σ_i r_ik,  π_k = N_k/n,  μ_k = Σ_i r_ik x_i / N_k,  σ²_k = Σ_i r_ik (x_i − μ_k)² / N_k
//
// until the log-likelihood stops improving. A component that loses all its points is re-seeded
// at the point the mixture explains worst.
func Fit(data []float64, dim, k int, rng *rand.Rand, opt Options) (*Mixture, float64, error) {
	opt = opt.withDefaults()
	if err := opt.validate(); err != nil {
		return nil, 0, err
	}
	if dim < 1 {
		return nil, 0, fmt.Errorf("gmm: dim = %d, want >= 1", dim)
	}
	if len(data)%dim != 0 {
		return nil, 0, fmt.Errorf("gmm: %d data values is not a whole number of points of dim %d", len(data), dim)
	}
	n := len(data) / dim
	if k < 1 || k > n {
		return nil, 0, fmt.Errorf("gmm: k = %d components, want 1 <= k <= n = %d points", k, n)
	}
	for i, v := range data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, fmt.Errorf("gmm: data[%d] = %v, want a finite number", i, v)
		}
	}
	m := &Mixture{Dim: dim, Weights: make([]float64, k), Means: make([][]float64, k), Vars: make([][]float64, k)}
	mean, vr := make([]float64, dim), make([]float64, dim)
	for i := range n {
		for d, v := range data[i*dim : (i+1)*dim] {
			mean[d] += v / float64(n)
		}
	}
	for i := range n {
		for d, v := range data[i*dim : (i+1)*dim] {
			vr[d] += (v - mean[d]) * (v - mean[d]) / float64(n)
		}
	}
	for d := range vr {
		vr[d] = math.Max(vr[d], opt.VarFloor)
	}
	for j, c := range seeds(data, dim, k, rng) {
		m.Weights[j] = 1 / float64(k)
		m.Means[j] = append([]float64(nil), data[c*dim:(c+1)*dim]...)
		m.Vars[j] = append([]float64(nil), vr...)
	}

	r := make([]float64, n*k)
	ln := m.logNorms(nil)
	prev := math.Inf(-1)
	var ll float64
	for range opt.MaxIter {
		ll = m.estep(data, r, ln)
		if ll-prev < opt.Tol*float64(n) {
			break
		}
		prev = ll
		m.mstep(data, r, opt.VarFloor)
	}
	return m, ll, nil
}

// seeds picks k distinct starting points by k-means++: each next seed is drawn with probability
// proportional to its squared distance to the nearest seed so far.
func seeds(data []float64, dim, k int, rng *rand.Rand) []int {
	n := len(data) / dim
	out := []int{rng.IntN(n)}
	d2 := make([]float64, n)
	for i := range d2 {
		d2[i] = math.Inf(1)
	}
	for len(out) < k {
		last := data[out[len(out)-1]*dim : (out[len(out)-1]+1)*dim]
		total := 0.0
		for i := range n {
			s := 0.0
			for d, v := range data[i*dim : (i+1)*dim] {
				s += (v - last[d]) * (v - last[d])
			}
			d2[i] = math.Min(d2[i], s)
			total += d2[i]
		}
		next := -1
		if total > 0 {
			u := rng.Float64() * total
			for i, v := range d2 {
				if u -= v; u < 0 && v > 0 {
					next = i
					break
				}
			}
		}
		if next < 0 { // all points coincide with seeds (or rounding): take any unused one
			used := map[int]bool{}
			for _, s := range out {
				used[s] = true
			}
			for i := range n {
				if !used[i] {
					next = i
					break
				}
			}
		}
		out = append(out, next)
	}
	return out
}

// logNorms returns log(2π σ²_kd) for every component k and dimension d, the normalising terms
// of the log densities, into ln (allocated if nil).
func (m *Mixture) logNorms(ln [][]float64) [][]float64 {
	if ln == nil {
		ln = make([][]float64, len(m.Weights))
		for k := range ln {
			ln[k] = make([]float64, m.Dim)
		}
	}
	for k, vr := range m.Vars {
		for d, v := range vr {
			ln[k][d] = math.Log(2 * math.Pi * v)
		}
	}
	return ln
}

// logComponents writes log(π_k N(x; μ_k, σ²_k)) for every k into lp and returns their
// log-sum-exp, log p(x); ln holds the mixture's logNorms, or is nil to compute them here.
func (m *Mixture) logComponents(x, lp []float64, ln [][]float64) float64 {
	best := math.Inf(-1)
	for k := range m.Weights {
		s := math.Log(m.Weights[k])
		mu, vr := m.Means[k][:len(x)], m.Vars[k][:len(x)]
		for d, v := range x {
			diff := v - mu[d]
			var norm float64
			if ln != nil {
				norm = ln[k][d]
			} else {
				norm = math.Log(2 * math.Pi * vr[d])
			}
			s -= 0.5 * (norm + diff*diff/vr[d])
		}
		lp[k] = s
		best = math.Max(best, s)
	}
	if math.IsInf(best, -1) {
		return best
	}
	sum := 0.0
	for _, s := range lp {
		sum += math.Exp(s - best)
	}
	return best + math.Log(sum)
}

// estep writes the responsibilities into r and returns the log-likelihood; ln is scratch for
// the logNorms.
func (m *Mixture) estep(data, r []float64, ln [][]float64) float64 {
	k, dim := len(m.Weights), m.Dim
	ln = m.logNorms(ln)
	ll := 0.0
	for i := range len(data) / dim {
		row := r[i*k : (i+1)*k]
		lse := m.logComponents(data[i*dim:(i+1)*dim], row, ln)
		ll += lse
		for j := range row {
			row[j] = math.Exp(row[j] - lse)
		}
	}
	return ll
}

func (m *Mixture) mstep(data, r []float64, floor float64) {
	k, dim := len(m.Weights), m.Dim
	n := len(data) / dim
	for j := range k {
		nk := 0.0
		mu := m.Means[j]
		clear(mu)
		for i := range n {
			w := r[i*k+j]
			nk += w
			for d, v := range data[i*dim : (i+1)*dim] {
				mu[d] += w * v
			}
		}
		if nk < 1e-9 {
			m.reseed(data, j, floor)
			continue
		}
		for d := range mu {
			mu[d] /= nk
		}
		vr := m.Vars[j]
		clear(vr)
		for i := range n {
			w := r[i*k+j]
			for d, v := range data[i*dim : (i+1)*dim] {
				vr[d] += w * (v - mu[d]) * (v - mu[d])
			}
		}
		for d := range vr {
			vr[d] = math.Max(vr[d]/nk, floor)
		}
		m.Weights[j] = nk / float64(n)
	}
}

// reseed moves empty component j to the point of lowest likelihood under the other components.
func (m *Mixture) reseed(data []float64, j int, floor float64) {
	dim := m.Dim
	m.Weights[j] = 0
	lp := make([]float64, len(m.Weights))
	ln := m.logNorms(nil)
	worst, at := math.Inf(1), 0
	for i := range len(data) / dim {
		if l := m.logComponents(data[i*dim:(i+1)*dim], lp, ln); l < worst {
			worst, at = l, i
		}
	}
	copy(m.Means[j], data[at*dim:(at+1)*dim])
	for d := range m.Vars[j] {
		m.Vars[j][d] = math.Max(floor, m.Vars[j][d])
	}
	m.Weights[j] = 1 / float64(len(data)/dim)
	sum := 0.0
	for _, w := range m.Weights {
		sum += w
	}
	for k := range m.Weights {
		m.Weights[k] /= sum
	}
}

// NumParams is the number of free parameters: K−1 weights, K·Dim means and K·Dim variances.
func (m *Mixture) NumParams() int { return len(m.Weights) - 1 + 2*len(m.Weights)*m.Dim }

// BIC is the Bayesian information criterion −2 log L + p log n of a mixture whose
// log-likelihood on n points is ll (lower is better).
func (m *Mixture) BIC(ll float64, n int) float64 {
	return -2*ll + float64(m.NumParams())*math.Log(float64(n))
}

// FitBIC fits mixtures of 1, …, kMax components (each by Fit, with a stream split off rng) and
// returns the one of lowest BIC.
func FitBIC(data []float64, dim, kMax int, rng *rand.Rand, opt Options) (*Mixture, error) {
	if kMax < 1 {
		return nil, fmt.Errorf("gmm: kMax = %d, want >= 1", kMax)
	}
	if dim >= 1 && len(data)/dim < kMax {
		kMax = len(data) / dim
	}
	var best *Mixture
	bestBIC := math.Inf(1)
	for k := 1; k <= max(kMax, 1); k++ {
		m, ll, err := Fit(data, dim, k, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())), opt)
		if err != nil {
			return nil, err
		}
		if b := m.BIC(ll, len(data)/dim); b < bestBIC {
			best, bestBIC = m, b
		}
	}
	return best, nil
}

// Responsibilities writes r_k = p(component k | x) into r (len K) and returns log p(x).
func (m *Mixture) Responsibilities(x, r []float64) float64 {
	lse := m.logComponents(x, r, nil)
	for k := range r {
		r[k] = math.Exp(r[k] - lse)
	}
	return lse
}

// Assign returns the component of highest responsibility for x, the paper's "identifying Δ̂ into
// an existing cluster". lp is scratch space of length K (nil allocates).
func (m *Mixture) Assign(x, lp []float64) int {
	if lp == nil {
		lp = make([]float64, len(m.Weights))
	}
	m.logComponents(x, lp, nil)
	best := 0
	for k, v := range lp {
		if v > lp[best] {
			best = k
		}
	}
	return best
}
