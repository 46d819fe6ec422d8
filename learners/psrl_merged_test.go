package learners

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// With K merged samples the plan is the merged MDP's: S states, K·A actions, action a·K + k being
// action a as sample k has it. Its value iteration's greedy action, divided by K, is the action
// PSRL's sparse solve takes, in every state of 20 draws.
func TestPSRLMergedSamplesSolveTheMergedModel(t *testing.T) {
	const S, A, K = 5, 3, 4
	p := DefaultPSRL()
	p.MergedSamples, p.PlanTolerance = K, 1e-11
	l, err := NewPSRL(p)
	if err != nil {
		t.Fatal(err)
	}
	tk := task(S, A, 3)
	tk.Terminal = []bool{false, false, false, true, false}
	l.Begin(tk)
	rng := rand.New(rand.NewPCG(3, 3))
	for round := 0; round < 20; round++ {
		for range 30 {
			if i := rng.IntN(S * A); i/A != 3 {
				l.Record(i, rng.IntN(S), rng.Float64())
			}
		}
		l.EndEpisode()
		if got := len(l.agg.r); got != S*A*K {
			t.Fatalf("round %d: %d samples in the model, want S·A·K = %d", round, got, S*A*K)
		}
		rows := make([][]mdp.Transition, S*A*K)
		for j := range rows {
			if j/(A*K) != 3 {
				rows[j] = sampledTransitions(l, j)
			}
		}
		merged, err := mdp.NewEpisodic(S, A*K, rows, []float64{1, 0, 0, 0, 0}, tk.Terminal)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := mdp.ValueIteration(merged, tk.Gamma, 1e-10)
		if err != nil {
			t.Fatal(err)
		}
		for s := 0; s < S; s++ {
			if got, want := mdp.ArgMax(l.q[s*A:s*A+A]), sol.Policy[s]/K; s != 3 && got != want {
				t.Fatalf("round %d: greedy action %d in state %d, the merged model's %d", round, got, s, want)
			}
		}
	}
}

// By hand: one state, one action, no samples, the Beta(1, 1) posterior on [0, 1], a model per
// episode. At V = 0 the merged model's backup is max_k r̃_k, and the largest of K uniform
// variates has mean K/(K + 1): 1/2 for PSRL, 4/5 for K = 4, within five standard errors over
// 20 000 draws.
func TestPSRLMergedSamplesAreOptimistic(t *testing.T) {
	for _, k := range []int{1, 4} {
		p := DefaultPSRL()
		p.MergedSamples, p.Schedule = k, PerEpisode
		l, err := NewPSRL(p)
		if err != nil {
			t.Fatal(err)
		}
		l.Begin(task(1, 1, 5))
		const draws = 20_000
		mean := 0.0
		for range draws {
			l.EndEpisode()
			l.v[0] = 0
			mean += l.mergedBackup(0, 0) / draws
		}
		K := float64(k)
		want := K / (K + 1)
		se := math.Sqrt(K/((K+1)*(K+1)*(K+2))) / math.Sqrt(draws) // sd of the largest of K uniforms
		if math.Abs(mean-want) > 5*se {
			t.Errorf("K = %d: mean backup %v, want %v ± %v", k, mean, want, 5*se)
		}
	}
}

// merged_samples 1 is PSRL, variate for variate: the same actions over a run as the key unset.
func TestPSRLOneMergedSampleIsPSRL(t *testing.T) {
	p := DefaultPSRL()
	p.RewardMin, p.RewardMax = Bound(0), Bound(1) // the line's rewards: actions' task states no range
	a, _ := NewPSRL(p)
	p.MergedSamples = 1
	b, _ := NewPSRL(p)
	if x, y := actions(t, agent.NewSingle(a), 4), actions(t, agent.NewSingle(b), 4); !slices.Equal(x, y) {
		t.Error("merged_samples 1 acted differently from PSRL")
	}
}

func TestPSRLMergedSamplesValidate(t *testing.T) {
	for _, c := range []struct {
		change func(*PSRLParams)
		want   string
	}{
		{func(p *PSRLParams) { p.MergedSamples = -1 }, "psrl: merged_samples = -1, want 0 to 64 (0 or 1: one sample, PSRL)"},
		{func(p *PSRLParams) { p.MergedSamples = 65 }, "psrl: merged_samples = 65, want 0 to 64"},
		{func(p *PSRLParams) { p.MergedSamples, p.Sampling = 2, Dense }, `psrl: merged_samples 2 needs sampling "aggregate" and redraw "all", got sampling "dense" and redraw "all"`},
		{func(p *PSRLParams) { p.MergedSamples, p.Redraw = 3, RedrawChanged }, `got sampling "aggregate" and redraw "changed"`},
	} {
		p := DefaultPSRL()
		c.change(&p)
		if _, err := NewPSRL(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
	p := DefaultPSRL()
	p.MergedSamples, p.Sampling = 1, Dense // one sample: any sampler
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
}

// The memory estimate grows with K: each further sample of a pair may hold S successors.
func TestPSRLMergedSamplesMemory(t *testing.T) {
	p := DefaultPSRL()
	one := p.MemoryBytes(160, 100, 4, 20)
	p.MergedSamples = 1
	if got := p.MemoryBytes(160, 100, 4, 20); got != one {
		t.Errorf("K = 1: %d bytes, want PSRL's %d", got, one)
	}
	p.MergedSamples = 3
	if got, want := p.MemoryBytes(160, 100, 4, 20), one+2*(16*100+24)*100*4; got != want {
		t.Errorf("K = 3: %d bytes, want %d", got, want)
	}
}
