package gmm

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// sample draws n points from a known 2-D mixture.
func sample(rng *rand.Rand, n int, w []float64, mu, sd [][]float64) []float64 {
	var out []float64
	for range n {
		u, k := rng.Float64(), 0
		for u > w[k] && k < len(w)-1 {
			u -= w[k]
			k++
		}
		for d := range mu[k] {
			out = append(out, mu[k][d]+sd[k][d]*rng.NormFloat64())
		}
	}
	return out
}

var (
	trueW  = []float64{0.5, 0.3, 0.2}
	trueMu = [][]float64{{0, 0}, {5, 5}, {-4, 6}}
	trueSd = [][]float64{{1, 0.5}, {0.7, 1.2}, {0.5, 0.5}}
)

// TestRecoversKnownMixture: EM on 6000 points of a 3-component mixture recovers its weights,
// means and standard deviations, and BIC picks K = 3.
func TestRecoversKnownMixture(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := sample(rng, 6000, trueW, trueMu, trueSd)
	m, err := FitBIC(data, 2, 6, rng, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Weights) != 3 {
		t.Fatalf("BIC chose K = %d, want 3", len(m.Weights))
	}
	// Match components by their first mean coordinate.
	idx := []int{0, 1, 2}
	sort.Slice(idx, func(a, b int) bool { return m.Means[idx[a]][0] < m.Means[idx[b]][0] })
	order := []int{2, 0, 1} // true components by first coordinate: -4, 0, 5
	for i, j := range idx {
		k := order[i]
		if math.Abs(m.Weights[j]-trueW[k]) > 0.03 {
			t.Errorf("component %d: weight %.3f, want %.3f", k, m.Weights[j], trueW[k])
		}
		for d := range 2 {
			if math.Abs(m.Means[j][d]-trueMu[k][d]) > 0.1 {
				t.Errorf("component %d: mean[%d] %.3f, want %.3f", k, d, m.Means[j][d], trueMu[k][d])
			}
			if sd := math.Sqrt(m.Vars[j][d]); math.Abs(sd-trueSd[k][d]) > 0.1*trueSd[k][d] {
				t.Errorf("component %d: sd[%d] %.3f, want %.3f", k, d, sd, trueSd[k][d])
			}
		}
	}
	// A point near a true mean is assigned to its component.
	if got := m.Assign([]float64{5.1, 4.9}, nil); got != idx[2] {
		t.Errorf("Assign(5.1, 4.9) = %d, want %d", got, idx[2])
	}
	r := make([]float64, 3)
	m.Responsibilities([]float64{-4, 6}, r)
	if r[idx[0]] < 0.999 {
		t.Errorf("responsibility of (-4, 6) for its component = %v, want ~1", r[idx[0]])
	}
}

// TestLikelihoodNeverDecreases: each EM iteration raises the log-likelihood (or leaves it).
func TestLikelihoodNeverDecreases(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	data := sample(rng, 800, trueW, trueMu, trueSd)
	prev := math.Inf(-1)
	for it := 1; it <= 30; it++ {
		_, ll, err := Fit(data, 2, 3, rand.New(rand.NewPCG(9, 9)), Options{MaxIter: it, Tol: 1e-300})
		if err != nil {
			t.Fatal(err)
		}
		if ll < prev-1e-9 {
			t.Fatalf("iteration %d: log-likelihood %.9f fell from %.9f", it, ll, prev)
		}
		prev = ll
	}
}

func TestSeeded(t *testing.T) {
	data := sample(rand.New(rand.NewPCG(5, 5)), 500, trueW, trueMu, trueSd)
	a, la, _ := Fit(data, 2, 3, rand.New(rand.NewPCG(1, 1)), Options{})
	b, lb, _ := Fit(data, 2, 3, rand.New(rand.NewPCG(1, 1)), Options{})
	if la != lb || a.Means[0][0] != b.Means[0][0] {
		t.Error("same seed, different fits")
	}
}

// TestDegenerate: identical points and more components than distinct values stay finite.
func TestDegenerate(t *testing.T) {
	data := []float64{1, 1, 1, 1, 1, 1, 2, 2}
	m, ll, err := Fit(data, 2, 3, rand.New(rand.NewPCG(1, 1)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(ll) || math.IsInf(ll, 0) {
		t.Fatalf("log-likelihood = %v", ll)
	}
	for k := range m.Weights {
		if math.IsNaN(m.Weights[k]) || math.IsNaN(m.Means[k][0]) {
			t.Fatalf("component %d is NaN: %+v", k, m)
		}
	}
}

func TestErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cases := []struct {
		data   []float64
		dim, k int
		opt    Options
	}{
		{[]float64{1, 2, 3}, 2, 1, Options{}},
		{[]float64{1, 2}, 0, 1, Options{}},
		{[]float64{1, 2}, 1, 3, Options{}},
		{[]float64{1, 2}, 1, 0, Options{}},
		{[]float64{1, math.NaN()}, 1, 1, Options{}},
		{[]float64{1, 2}, 1, 1, Options{MaxIter: -1}},
		{[]float64{1, 2}, 1, 1, Options{VarFloor: -1}},
	}
	for _, c := range cases {
		if _, _, err := Fit(c.data, c.dim, c.k, rng, c.opt); err == nil {
			t.Errorf("Fit(%v, dim %d, k %d, %+v): no error", c.data, c.dim, c.k, c.opt)
		}
	}
	if _, err := FitBIC([]float64{1, 2}, 1, 0, rng, Options{}); err == nil {
		t.Error("FitBIC(kMax 0): no error")
	}
}
