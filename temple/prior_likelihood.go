package temple

import (
	"math"

	"github.com/temple-rl/temple/internal/buf"
)

// The arithmetic of TemplatePrior's posterior weights (prior.go): the marginal likelihood of a
// pair's samples under a template component (transitionML) and of its rewards under the Normal
// or the Beta model (normalML, betaML), the normalisation of log weights, and the draw of a component.

// normalize turns log weights into probabilities, in place, and returns ln of their sum.
func normalize(w []float64) float64 {
	top := math.Inf(-1)
	for _, x := range w {
		top = math.Max(top, x)
	}
	total := 0.0
	for k, x := range w {
		w[k] = math.Exp(x - top)
		total += w[k]
	}
	for k := range w {
		w[k] /= total
	}
	return top + math.Log(total)
}

// maxInjections bounds the placements transitionML sums over; beyond it the likelihood keeps the
// term of σ's placement alone (the largest counts on the most likely ranks).
const maxInjections = 720

// mlScratch are transitionML's buffers, kept between calls.
type mlScratch struct {
	counts []int64
	f      []float64
	terms  []float64
}

// transitionML is ln of the Dirichlet(c·q)–multinomial likelihood of the pair's seen counts (one
// per distinct next state), summed over the injections of the seen states into q's ranks; −Inf
// when there are more seen states than ranks.
func (sc *mlScratch) transitionML(counts []int64, comp component, c float64) float64 {
	q := comp.q
	d, K := len(counts), len(q)
	if d > K {
		return math.Inf(-1)
	}
	var n int64
	for _, x := range counts {
		n += x
	}
	// f[j·K + r]: the factor of seen state j at rank r.
	sc.f = buf.Zeroed(sc.f, d*K)
	f := sc.f
	for j, x := range counts {
		for r, p := range q {
			if p == 0 {
				f[j*K+r] = math.Inf(-1)
				continue
			}
			f[j*K+r] = lgamma(c*p+float64(x)) - comp.lgq[r]
		}
	}
	head := lgamma(c) - lgamma(c+float64(n))
	injections := 1.0
	for j := range d {
		injections *= float64(K - j)
	}
	if injections > maxInjections {
		order := descending(counts)
		sum := 0.0
		for r, j := range order {
			sum += f[j*K+r]
		}
		return head + sum
	}
	best := math.Inf(-1)
	terms := sc.terms[:0]
	var walk func(j int, used uint64, acc float64)
	walk = func(j int, used uint64, acc float64) {
		if j == d {
			terms = append(terms, acc)
			best = math.Max(best, acc)
			return
		}
		for r := range K {
			if used&(1<<r) == 0 && !math.IsInf(f[j*K+r], -1) {
				walk(j+1, used|1<<r, acc+f[j*K+r])
			}
		}
	}
	walk(0, 0, 0)
	sc.terms = terms
	if math.IsInf(best, -1) {
		return best
	}
	total := 0.0
	for _, x := range terms {
		total += math.Exp(x - best)
	}
	return head + best + math.Log(total)
}

// descending are the indices of counts, largest count first (ties by index).
func descending(counts []int64) []int {
	order := make([]int, len(counts))
	for j := range order {
		order[j] = j
	}
	for a := 1; a < len(order); a++ {
		for b := a; b > 0 && counts[order[b]] > counts[order[b-1]]; b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
	return order
}

// normalML is ln of the marginal likelihood of n rewards with sum and sum of squares sq, each
// N(μ, noise2) with μ ~ N(mean, v0).
func normalML(n int64, sum, sq, mean, v0, noise2 float64) float64 {
	if n == 0 {
		return 0
	}
	k := float64(n)
	xbar := sum / k
	within := math.Max(sq-k*xbar*xbar, 0)
	return -k/2*math.Log(2*math.Pi*noise2) - 0.5*math.Log(1+k*v0/noise2) -
		within/(2*noise2) - k*(xbar-mean)*(xbar-mean)/(2*(noise2+k*v0))
}

// normalGamma is a Normal–Gamma prior over a Normal's mean μ and precision λ = 1/σ²:
// λ ~ Gamma(a0, b0) (shape a0, rate b0) and μ | λ ~ N(mean, 1/(k0·λ)).
type normalGamma struct{ mean, k0, a0, b0 float64 }

// logML is ln of the marginal likelihood of n rewards with sum and sum of squares sq, each
// N(μ, 1/λ), under the prior (Murphy, "Conjugate Bayesian analysis of the Gaussian
// distribution", 2007, eq. (95)):
//
//	Γ(a_n)/Γ(a0) · b0^a0/b_n^a_n · √(k0/k_n) · (2π)^(−n/2)
//
// with k_n = k0 + n, a_n = a0 + n/2 and b_n = b0 + ½·Σ(x − x̄)² + k0·n·(x̄ − mean)²/(2·k_n).
// The predictive of rewards D given earlier rewards E is logML(D ∪ E) − logML(E).
func (p normalGamma) logML(n int64, sum, sq float64) float64 {
	if n == 0 {
		return 0
	}
	k := float64(n)
	xbar := sum / k
	within := math.Max(sq-k*xbar*xbar, 0)
	kn, an := p.k0+k, p.a0+k/2
	bn := p.b0 + within/2 + p.k0*k*(xbar-p.mean)*(xbar-p.mean)/(2*kn)
	return lgamma(an) - lgamma(p.a0) + p.a0*math.Log(p.b0) - an*math.Log(bn) +
		0.5*math.Log(p.k0/kn) - k/2*math.Log(2*math.Pi)
}

// betaML is ln of the marginal likelihood of n rewards of scaled sum x in [0, n], each a Bernoulli
// at fractional x of mean θ ~ Beta(a, b): B(a + x, b + n − x)/B(a, b).
func betaML(n int64, x, a, b float64) float64 {
	k := float64(n)
	return lgamma(a+x) + lgamma(b+k-x) - lgamma(a+b+k) - (lgamma(a) + lgamma(b) - lgamma(a+b))
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// drawIndex is the index drawn with probabilities w (summing to 1) by u in [0, 1).
func drawIndex(w []float64, u float64) int {
	for k, x := range w {
		u -= x
		if u < 0 {
			return k
		}
	}
	return len(w) - 1
}
