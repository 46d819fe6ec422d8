package temple

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// TestWeightedScalesDown: 900 and 100 visits (reward sum 450, mean 0.45) at weight 50 become 45
// and 5 with reward sum 22.5, the same distribution and mean reward; the input is not modified.
func TestWeightedScalesDown(t *testing.T) {
	add := []mdp.Succ{{State: 3, N: 900}, {State: 7, N: 100}}
	got, r := weighted(add, 450, 50)
	if want := []mdp.Succ{{State: 3, N: 45}, {State: 7, N: 5}}; !slices.Equal(got, want) || r != 22.5 {
		t.Errorf("weighted = %v, %v; want %v, 22.5", got, r, want)
	}
	if add[0].N != 900 || add[1].N != 100 {
		t.Errorf("the input was modified: %v", add)
	}
}

// TestWeightedDropsWhatRoundsToZero: 995 and 5 visits at weight 50 round to 50 and 0; the rare
// outcome is dropped (left to the pair's own samples), and the reward sum keeps its mean, −0.2
// over 50 counts.
func TestWeightedDropsWhatRoundsToZero(t *testing.T) {
	got, r := weighted([]mdp.Succ{{State: 1, N: 995}, {State: 2, N: 5}}, -200, 50)
	if want := []mdp.Succ{{State: 1, N: 50}}; !slices.Equal(got, want) || math.Abs(r-(-10)) > 1e-12 {
		t.Errorf("weighted = %v, %v; want %v, -10", got, r, want)
	}
}

// TestWeightedKeepsTheLargest: three equal counts at weight 1 all round to 0; the first of the
// largest is kept at 1, with the mean reward.
func TestWeightedKeepsTheLargest(t *testing.T) {
	got, r := weighted([]mdp.Succ{{State: 4, N: 10}, {State: 5, N: 10}, {State: 6, N: 10}}, 6, 1)
	if want := []mdp.Succ{{State: 4, N: 1}}; !slices.Equal(got, want) || math.Abs(r-0.2) > 1e-12 {
		t.Errorf("weighted = %v, %v; want %v, 0.2", got, r, want)
	}
}

// TestWeightedLeavesFewCounts: counts of at most w in all are returned as they are.
func TestWeightedLeavesFewCounts(t *testing.T) {
	add := []mdp.Succ{{State: 1, N: 30}, {State: 2, N: 20}}
	if got, r := weighted(add, 5, 50); !slices.Equal(got, add) || r != 5 {
		t.Errorf("weighted = %v, %v; want the input, 5", got, r)
	}
}

// weightAgent is O-TempLe with m_s 20 over MBIE-EB (no cap: a pair keeps its own samples after
// identification) at the given template weight, whose library holds one deterministic template of
// 1000 visits, −0.2 a step; it begins a task of 10 states and 1 action.
func weightAgent(t *testing.T, weight int64) *OTempLe {
	t.Helper()
	p := smallParams()
	p.TemplateWeight = weight
	o, err := NewOTempLe(p, mbieBase(t))
	if err != nil {
		t.Fatal(err)
	}
	o.lib.Add(deterministic, -200)
	if err := o.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestTemplateWeightLetsOwnSamplesOutweighAWrongMatch: a pair moves to state 1 for its m_s = 20
// own samples, matches the deterministic template and is augmented with its visits — all 1000,
// or 50 at template weight 50. Then the pair turns out to move to state 2 (the match was wrong):
// after 200 more own samples its estimate gives state 2 the probability 200/1220 = 0.16 with the
// full visits, and 200/270 = 0.74 with weight 50, on its way to the truth.
func TestTemplateWeightLetsOwnSamplesOutweighAWrongMatch(t *testing.T) {
	for _, c := range []struct {
		weight   int64
		n        int64   // the pair's counts just after identification
		toState2 float64 // its estimate's probability of state 2 after 200 more samples there
	}{{0, 1020, 200.0 / 1220}, {50, 70, 200.0 / 270}} {
		o := weightAgent(t, c.weight)
		for range 20 {
			o.Observe(0, 0, -0.2, 1)
		}
		if o.tmplOf(0) < 0 {
			t.Fatalf("weight %d: the pair was not identified at m_s", c.weight)
		}
		counts := o.l.Stats().Counts()
		if n, r := counts.N(0), counts.R(0); n != c.n || math.Abs(r/float64(n)-(-0.2)) > 1e-12 {
			t.Errorf("weight %d: counts %d with mean reward %v after identification; want %d and -0.2", c.weight, n, r/float64(n), c.n)
		}
		for range 200 {
			o.Observe(0, 0, -0.2, 2)
		}
		var to2 int64
		for _, x := range counts.Successors(0) {
			if x.State == 2 {
				to2 = x.N
			}
		}
		if p := float64(to2) / float64(counts.N(0)); math.Abs(p-c.toState2) > 1e-12 {
			t.Errorf("weight %d: the estimate gives state 2 probability %v; want %v", c.weight, p, c.toState2)
		}
	}
}

// TestTemplateWeightValidate names the field and the value.
func TestTemplateWeightValidate(t *testing.T) {
	p := smallParams()
	p.TemplateWeight = -1
	if err := p.Validate(100); err == nil || !strings.Contains(err.Error(), "template_weight = -1") {
		t.Errorf("Validate = %v, want an error naming template_weight = -1", err)
	}
}
