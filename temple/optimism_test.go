package temple

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/template"
)

// mbieBase is MBIE-EB with its defaults (β 0.4, no cap).
func mbieBase(t *testing.T) *learners.MBIEEB {
	t.Helper()
	l, err := learners.NewMBIEEB(learners.DefaultMBIEEB())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// optAgent is O-TempLe with m_s 20 over MBIE-EB with optimism over library templates at δ (0:
// off), whose library holds the given templates with the given reward sums, beginning a task of
// 10 states and 1 action; it returns the templates' IDs.
func optAgent(t *testing.T, delta float64, tmpls [][]template.Count, rewards []float64) (*OTempLe, []int) {
	t.Helper()
	p := smallParams()
	p.OptDelta = delta
	o, err := NewOTempLe(p, mbieBase(t))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for k, c := range tmpls {
		ids = append(ids, o.lib.Add(c, rewards[k]).ID)
	}
	if err := o.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	return o, ids
}

// twoWay is a template that moves to two states equally often.
var twoWay = []template.Count{{Rank: 0, N: 500}, {Rank: 1, N: 500}}

// pairCounts are pair 0's counts in the base: their number and reward sum.
func pairCounts(o *OTempLe) (int64, float64) {
	c := o.l.Stats().Counts()
	return c.N(0), c.R(0)
}

// TestOptimismPlansWithTheBetterTemplate: a pair that moved once to state 1 is consistent with two
// deterministic templates that differ in reward only (no reward part: R = 0), −0.2 and +0.8 a
// step. Before any plan V = 0, so the backups are the mean rewards and the +0.8 template is the
// more optimistic: the pair is planned with its 1000 visits on top of its own sample.
func TestOptimismPlansWithTheBetterTemplate(t *testing.T) {
	o, ids := optAgent(t, 0.05, [][]template.Count{deterministic, deterministic}, []float64{-200, 800})
	o.Observe(0, 0, -0.2, 1)
	if got := o.opt.tmpl.At(0); got != int32(ids[1]) {
		t.Fatalf("planned with template %d, want %d (the better one)", got, ids[1])
	}
	if n, r := pairCounts(o); n != 1001 || math.Abs(r-799.8) > 1e-9 {
		t.Errorf("pair counts %d, reward %v; want 1001 and 799.8", n, r)
	}
	if o.tmplOf(0) >= 0 {
		t.Error("an optimistic placement identified the pair")
	}
}

// TestOptimismDropsAnExcludedTemplate: the deterministic template (+0.8 a step) is the more
// optimistic after one sample, but a second sample to another state gives it likelihood
// (1000/1001)·1/(1001·9) against the two-way template's (500/1001)², a ratio of 1/2250 beyond
// 1/δ = 20: it is excluded, and the pair is planned with the two-way template instead, its own
// two samples plus 1000 visits.
func TestOptimismDropsAnExcludedTemplate(t *testing.T) {
	o, ids := optAgent(t, 0.05, [][]template.Count{deterministic, twoWay}, []float64{800, -200})
	o.Observe(0, 0, -0.2, 1)
	if got := o.opt.tmpl.At(0); got != int32(ids[0]) {
		t.Fatalf("after one sample planned with template %d, want %d", got, ids[0])
	}
	o.Observe(0, 0, -0.2, 2)
	if got := o.opt.tmpl.At(0); got != int32(ids[1]) {
		t.Fatalf("after two samples planned with template %d, want %d (the other is excluded)", got, ids[1])
	}
	if n, r := pairCounts(o); n != 1002 || math.Abs(r-(-200.4)) > 1e-9 {
		t.Errorf("pair counts %d, reward %v; want 1002 and −200.4", n, r)
	}
}

// TestOptimismWithoutConsistentTemplateKeepsOwnSamples: with one deterministic template in the
// library, samples to four different states exclude it against the "new template" mixture
// (already at the second: ℓ_g = ln(1000/1001) − ln 9009 ≈ −9.1 < ℓ_new − ln 20 ≈ −8.3), so the
// pair keeps exactly its own samples and MBIE-EB's own bonus applies.
func TestOptimismWithoutConsistentTemplateKeepsOwnSamples(t *testing.T) {
	o, _ := optAgent(t, 0.05, [][]template.Count{deterministic}, []float64{800})
	for _, s := range []int{1, 2, 3, 4} {
		o.Observe(0, 0, -0.2, s)
	}
	if got := o.opt.tmpl.At(0); got != -1 {
		t.Fatalf("planned with template %d, want none", got)
	}
	if n, r := pairCounts(o); n != 4 || math.Abs(r-(-0.8)) > 1e-9 {
		t.Errorf("pair counts %d, reward %v; want its own 4 and −0.8", n, r)
	}
}

// TestOptimismOffChangesNothing: without opt_delta the same samples leave the pair its own counts,
// and the plan is a plain MBIE-EB's on the same samples.
func TestOptimismOffChangesNothing(t *testing.T) {
	o, _ := optAgent(t, 0, [][]template.Count{deterministic, deterministic}, []float64{-200, 800})
	plain := mbieBase(t)
	plain.Begin(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))})
	for _, s := range []int{1, 1, 2} {
		o.Observe(0, 0, -0.2, s)
		plain.Record(0, s, -0.2)
	}
	if n, _ := pairCounts(o); n != 3 {
		t.Errorf("pair counts %d, want its own 3", n)
	}
	if got, want := o.l.(*learners.MBIEEB).Q(), plain.Q(); !slices.Equal(got, want) {
		t.Errorf("Q = %v, want plain MBIE-EB's %v", got, want)
	}
}

// TestOptimismGivesWayToIdentification: at m_s = 20 the optimistic placement is withdrawn and
// Algorithm 1's identification augments the pair once: its 20 own samples plus the template's
// 1000 visits, not 2000.
func TestOptimismGivesWayToIdentification(t *testing.T) {
	o, ids := optAgent(t, 0.05, [][]template.Count{deterministic}, []float64{-200})
	for range 20 {
		o.Observe(0, 0, -0.2, 1)
	}
	if o.tmplOf(0) != ids[0] || o.opt.tmpl.At(0) != -1 {
		t.Fatalf("template %d, optimistic %d; want identified with %d and no placement", o.tmplOf(0), o.opt.tmpl.At(0), ids[0])
	}
	if n, _ := pairCounts(o); n != 1020 {
		t.Errorf("pair counts %d, want 1020", n)
	}
}

func TestOptimismParamsValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    func(*Params)
		base agent.Base
		want string
	}{
		{"negative", func(p *Params) { p.OptDelta = -0.1 }, mbieBase(t), "opt_delta = -0.1"},
		{"one", func(p *Params) { p.OptDelta = 1 }, mbieBase(t), "opt_delta = 1"},
		{"early", func(p *Params) { p.OptDelta, p.EarlyMatch = 0.05, 5 }, mbieBase(t), "early_match 0 and refute false"},
		{"refute", func(p *Params) { p.OptDelta, p.Refute = 0.05, true }, mbieBase(t), "early_match 0 and refute false"},
		{"capped base", func(p *Params) { p.OptDelta = 0.05 }, rmaxBase(100), "known threshold m = 100"},
	} {
		p := smallParams()
		tc.p(&p)
		_, err := NewOTempLe(p, tc.base)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestOptimismNewRewardExcludesTheOnlyTemplate: with one template of −0.2 a step and R = 0.2
// (σ² = 0.01), a first step that pays +0.8 — the goal, in a library of steps — leaves the
// template's log-likelihood at −18 against the "new template" mixture's 27.1 (transitions ln 0.1,
// rewards b²/(2a) − ½ ln a = 31.7 − 2.3 with a = 101, b = 80), beyond ln 20: the template is
// excluded and the pair keeps its own sample. A first step that pays −0.2 keeps it (2 against
// −2.6 − 3.0) and the pair is planned with it.
func TestOptimismNewRewardExcludesTheOnlyTemplate(t *testing.T) {
	for _, tc := range []struct {
		reward float64
		want   int64
	}{{0.8, 1}, {-0.2, 1001}} {
		o, _ := optAgent(t, 0.05, [][]template.Count{deterministic}, []float64{-200})
		o.p.SeqRewardRange = 0.2
		o.Observe(0, 0, tc.reward, 1)
		if n, _ := pairCounts(o); n != tc.want {
			t.Errorf("reward %v: pair counts %d, want %d", tc.reward, n, tc.want)
		}
	}
}

// TestOptimismWaitsForTheTemplatesSupport: a two-way template is consistent with one sample, but
// the pair has seen one state and σ⁻¹ would put the template's second rank on an arbitrary unseen
// state, so the pair keeps its own sample; once it has seen two states the template is placed.
func TestOptimismWaitsForTheTemplatesSupport(t *testing.T) {
	o, ids := optAgent(t, 0.05, [][]template.Count{twoWay}, []float64{800})
	o.Observe(0, 0, -0.2, 1)
	if n, _ := pairCounts(o); n != 1 || o.opt.tmpl.At(0) != -1 {
		t.Fatalf("after one state: pair counts %d, template %d; want its own 1 and none", n, o.opt.tmpl.At(0))
	}
	o.Observe(0, 0, -0.2, 2)
	if n, _ := pairCounts(o); n != 1002 || o.opt.tmpl.At(0) != int32(ids[0]) {
		t.Errorf("after two states: pair counts %d, template %d; want 1002 and %d", n, o.opt.tmpl.At(0), ids[0])
	}
}
