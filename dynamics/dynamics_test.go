package dynamics

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/cartpole"
)

func collect(t testing.TB, seed uint64, n int) *continuous.Transitions {
	t.Helper()
	tr, err := continuous.CollectRandom(cartpole.New(), rand.New(rand.NewPCG(seed, 0)), n)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func smallConfig() Config {
	c := DefaultConfig()
	c.Steps, c.KMax = 300, 4
	return c
}

// stayLoss is the Loss of the predictor s_{t+1} = s_t, in the normalisation of mod.
func stayLoss(mod *Model, test *continuous.Transitions) float64 {
	sum := 0.0
	for i := range test.Len() {
		s, _, next := test.Row(i)
		for d := range s {
			e := (s[d] - next[d]) / mod.next.sd[d]
			sum += e * e
		}
	}
	return sum / float64(test.Len()*test.StateDim)
}

// TestSameSeedSameLoss: a loss is a function of the data and the seed alone.
func TestSameSeedSameLoss(t *testing.T) {
	train, test := collect(t, 1, 300), collect(t, 2, 500)
	for _, m := range Methods {
		var losses [2]float64
		for r := range losses {
			mod, err := Train(m, smallConfig(), train, rand.New(rand.NewPCG(7, 7)))
			if err != nil {
				t.Fatal(err)
			}
			if losses[r], err = mod.Loss(test); err != nil {
				t.Fatal(err)
			}
		}
		if losses[0] != losses[1] {
			t.Errorf("%v: same seed, losses %v and %v", m, losses[0], losses[1])
		}
		mod, _ := Train(m, smallConfig(), train, rand.New(rand.NewPCG(8, 8)))
		if other, _ := mod.Loss(test); other == losses[0] {
			t.Errorf("%v: another seed gave the very same loss %v", m, other)
		}
	}
}

// TestMethodsLearn: every method beats the trivial model s_{t+1} = s_t, and the relative shift
// is learned more accurately than the absolute next state (the paper's first ordering).
func TestMethodsLearn(t *testing.T) {
	train, test := collect(t, 3, 1000), collect(t, 4, 2000)
	cfg := DefaultConfig()
	cfg.Steps = 1500
	loss := map[Method]float64{}
	for _, m := range Methods {
		mod, err := Train(m, cfg, train, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		l, err := mod.Loss(test)
		if err != nil {
			t.Fatal(err)
		}
		stay := stayLoss(mod, test)
		t.Logf("%-17v loss %.3g (no-change predictor %.3g)", m, l, stay)
		if !(l < stay) {
			t.Errorf("%v: loss %v, not below the no-change predictor's %v", m, l, stay)
		}
		loss[m] = l
	}
	if !(loss[Relative] < loss[Absolute]) {
		t.Errorf("relative loss %v, not below absolute %v", loss[Relative], loss[Absolute])
	}
}

// TestAugmentOnlyStep3: with λ = 0, Relative and RelativeAugment train the same network, so the
// only difference is the augmentation, which moves predictions towards the cluster means.
func TestAugmentOnlyStep3(t *testing.T) {
	train := collect(t, 5, 400)
	cfg := smallConfig()
	cfg.Lambda = 0
	rel, _ := Train(Relative, cfg, train, rand.New(rand.NewPCG(3, 3)))
	aug, err := Train(RelativeAugment, cfg, train, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range rel.net.Params {
		if rel.net.Params[i] != aug.net.Params[i] {
			t.Fatal("λ = 0: the augmented model trained a different network")
		}
	}
	if len(aug.Mixture.Weights) < 1 {
		t.Fatal("no mixture")
	}
	s, a, _ := train.Row(0)
	p, q := make([]float64, 4), make([]float64, 4)
	rel.Predict(s, a, p)
	aug.Predict(s, a, q)
	same := true
	for d := range p {
		same = same && p[d] == q[d]
	}
	if same {
		t.Error("augmentation left the prediction unchanged")
	}
}

func TestErrors(t *testing.T) {
	train := collect(t, 6, 50)
	rng := rand.New(rand.NewPCG(1, 1))
	bad := []func(*Config){
		func(c *Config) { c.Hidden = []int{64, 0} },
		func(c *Config) { c.Steps = 0 },
		func(c *Config) { c.Batch = -1 },
		func(c *Config) { c.LR = 0 },
		func(c *Config) { c.LR = math.NaN() },
		func(c *Config) { c.Lambda = -0.1 },
		func(c *Config) { c.KMax = 0 },
	}
	for i, f := range bad {
		c := smallConfig()
		f(&c)
		if _, err := Train(Relative, c, train, rng); err == nil {
			t.Errorf("bad config %d (%+v): no error", i, c)
		}
	}
	if _, err := Train(Method(7), smallConfig(), train, rng); err == nil {
		t.Error("unknown method: no error")
	}
	if _, err := Train(Relative, smallConfig(), train.Head(1), rng); err == nil {
		t.Error("one transition: no error")
	}
	nan := *train.Head(10)
	nan.A = append([]float64(nil), nan.A...)
	nan.A[3] = math.NaN()
	if _, err := Train(Relative, smallConfig(), &nan, rng); err == nil {
		t.Error("NaN action: no error")
	}
	mod, _ := Train(Relative, smallConfig(), train, rng)
	other := &continuous.Transitions{StateDim: 3, ActionDim: 1, S: []float64{1, 2, 3}, A: []float64{0}, Next: []float64{1, 2, 3}}
	if _, err := mod.Loss(other); err == nil {
		t.Error("loss on transitions of another dimension: no error")
	}
	if _, err := ParseMethod("absolut"); err == nil {
		t.Error("ParseMethod(absolut): no error")
	}
	for _, m := range Methods {
		if got, err := ParseMethod(m.String()); err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v", m, got, err)
		}
	}
}

// TestAugmentFormula: a RelativeAugment prediction is the network's standardised shift moved
// towards the mean of its most responsible component by w_d = r_d / (r_d + σ²_{k,d}).
func TestAugmentFormula(t *testing.T) {
	train := collect(t, 9, 400)
	cfg := smallConfig()
	cfg.Lambda = 0
	rel, _ := Train(Relative, cfg, train, rand.New(rand.NewPCG(4, 4)))
	aug, err := Train(RelativeAugment, cfg, train, rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	p, q := make([]float64, 4), make([]float64, 4)
	for i := range 20 {
		s, a, _ := train.Row(i)
		rel.Predict(s, a, p)
		aug.Predict(s, a, q)
		z := make([]float64, 4) // the network's standardised shift Δ̂
		for d := range z {
			z[d] = (p[d] - s[d] - rel.out.mean[d]) / rel.out.sd[d]
		}
		mix := aug.Mixture
		k := mix.Assign(z, nil)
		for d := range z {
			w := aug.resid[d] / (aug.resid[d] + mix.Vars[k][d])
			if !(w > 0 && w < 1) {
				t.Fatalf("weight w_%d = %v, want in (0, 1)", d, w)
			}
			want := s[d] + aug.out.mean[d] + aug.out.sd[d]*((1-w)*z[d]+w*mix.Means[k][d])
			if math.Abs(q[d]-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("transition %d, dim %d: augmented prediction %v, want %v", i, d, q[d], want)
			}
		}
	}
}

// TestPreparedOnce: models trained from one Data are those Train gives on the same stream, bit
// for bit, whatever else was trained from it: the mixture fitted once serves every λ.
func TestPreparedOnce(t *testing.T) {
	train, test := collect(t, 6, 400), collect(t, 7, 500)
	cfg := smallConfig()
	data, err := Prepare(cfg, train, rand.New(rand.NewPCG(4, 4)), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m      Method
		lambda float64
	}{{RelativeAugment, 0.1}, {Absolute, 0}, {RelativeAugment, 0}, {Relative, 0}} {
		shared, err := data.Train(c.m, c.lambda)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Lambda = c.lambda
		alone, err := Train(c.m, cfg, train, rand.New(rand.NewPCG(4, 4)))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := shared.Loss(test)
		b, _ := alone.Loss(test)
		if a != b {
			t.Errorf("%v λ=%g: loss %v from the shared Data, %v from Train", c.m, c.lambda, a, b)
		}
	}
	if _, err := data.Train(RelativeAugment, -1); err == nil {
		t.Error("λ = -1: no error")
	}
	plain, _ := Prepare(cfg, train, rand.New(rand.NewPCG(4, 4)), false)
	if _, err := plain.Train(RelativeAugment, 0.1); err == nil || !strings.Contains(err.Error(), "cluster") {
		t.Errorf("relative+augment without a mixture: %v", err)
	}
}
