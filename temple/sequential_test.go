package temple

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/template"
)

// seqAgent is O-TempLe with m_s 20 over RMax m 100 and sequential identification at δ from one own
// sample on, whose library holds the two given templates (1 000 visits each, reward −0.2 a
// step), beginning a task of 10 states and 1 action.
func seqAgent(t *testing.T, delta float64, a, b []template.Count) (*OTempLe, [2]int) {
	t.Helper()
	p := smallParams()
	p.SeqDelta, p.SeqMin = delta, 1
	o, err := NewOTempLe(p, rmaxBase(100))
	if err != nil {
		t.Fatal(err)
	}
	ids := [2]int{o.lib.Add(a, -200).ID, o.lib.Add(b, -200).ID}
	if err := o.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	return o, ids
}

// deterministic and fourWay are two far-apart templates: one next state, or four equally likely.
var (
	deterministic = []template.Count{{Rank: 0, N: 1000}}
	fourWay       = []template.Count{{Rank: 0, N: 250}, {Rank: 1, N: 250}, {Rank: 2, N: 250}, {Rank: 3, N: 250}}
)

// identifiedAt feeds pair 0 the next states in order and returns the own sample at which it was
// identified (0: never) and its template.
func identifiedAt(o *OTempLe, next []int) (int, int) {
	for k, s := range next {
		o.Observe(0, 0, -0.2, s)
		if id := o.tmplOf(0); id >= 0 {
			return k + 1, id
		}
	}
	return 0, -1
}

// TestSequentialFarTemplatesIdentifyEarly: a pair that always moves to state 1 singles out the
// deterministic template against the four-way one. Each sample multiplies the likelihood ratio
// by (1000/1001)/(250/1001) = 4; with two templates the threshold is 1/δ, so at δ = 0.05 the
// third sample decides (4³ = 64 ≥ 20 > 16), far before m_s = 20, and the pair is augmented with
// the template's visits.
func TestSequentialFarTemplatesIdentifyEarly(t *testing.T) {
	o, ids := seqAgent(t, 0.05, deterministic, fourWay)
	n, id := identifiedAt(o, []int{1, 1, 1, 1, 1})
	if n != 3 || id != ids[0] || o.seqIdentified != 1 || o.st.Counts().N(0) != 1003 {
		t.Errorf("identified at sample %d as template %d (sequential %d), n %d; want 3, %d, 1, 1003",
			n, id, o.seqIdentified, o.st.Counts().N(0), ids[0])
	}
	if got := o.lib.Get(ids[0]).N(); got != 1003 {
		t.Errorf("the template holds %d visits, want its 1000 and the pair's 3", got)
	}
}

// TestSequentialSmallerDeltaWaitsLonger: at δ = 0.001 the same pair needs 4⁵ = 1024 ≥ 1000 > 4⁴,
// five samples.
func TestSequentialSmallerDeltaWaitsLonger(t *testing.T) {
	o, ids := seqAgent(t, 0.001, deterministic, fourWay)
	if n, id := identifiedAt(o, []int{1, 1, 1, 1, 1, 1}); n != 5 || id != ids[0] {
		t.Errorf("identified at sample %d as template %d, want 5, %d", n, id, ids[0])
	}
}

// TestSequentialAmbiguousWaits: between templates (0.8, 0.2) and (0.6, 0.4), a pair that splits
// 7 : 3 gains almost nothing for either — 7·ln(4/3) + 3·ln(1/2) = −0.07 every 10 samples — so no
// template is singled out below m_s = 20, and at m_s Algorithm 1's rule identifies the pair.
func TestSequentialAmbiguousWaits(t *testing.T) {
	o, _ := seqAgent(t, 0.05, []template.Count{{Rank: 0, N: 800}, {Rank: 1, N: 200}},
		[]template.Count{{Rank: 0, N: 600}, {Rank: 1, N: 400}})
	split := []int{1, 1, 2, 1, 1, 2, 1, 1, 1, 2}
	if n, _ := identifiedAt(o, append(split, split...)); n != 20 || o.seqIdentified != 0 {
		t.Errorf("identified at sample %d (sequential %d), want at m_s = 20 by the paper's rule", n, o.seqIdentified)
	}
}

// TestSequentialOneTemplateWaits: a library of one template has no alternative to exclude.
func TestSequentialOneTemplateWaits(t *testing.T) {
	p := smallParams()
	p.SeqDelta, p.SeqMin = 0.05, 1
	o, err := NewOTempLe(p, rmaxBase(100))
	if err != nil {
		t.Fatal(err)
	}
	o.lib.Add(deterministic, -200)
	if err := o.BeginTask(agent.Task{S: 10, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	if n, _ := identifiedAt(o, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}); n != 0 {
		t.Errorf("identified at sample %d with one template, want not before m_s", n)
	}
}

// TestSequentialMinimumCount: seq_min holds the identification back to that many own samples.
func TestSequentialMinimumCount(t *testing.T) {
	o, ids := seqAgent(t, 0.05, deterministic, fourWay)
	o.p.SeqMin = 8
	if n, id := identifiedAt(o, []int{1, 1, 1, 1, 1, 1, 1, 1, 1}); n != 8 || id != ids[0] {
		t.Errorf("identified at sample %d as template %d, want 8, %d", n, id, ids[0])
	}
}

func TestSequentialParamsValidate(t *testing.T) {
	for _, c := range []struct {
		delta float64
		min   int64
		key   string // "" when valid
	}{
		{0, 0, ""}, {0.05, 1, ""}, {0.05, 19, ""},
		{1, 1, "seq_delta"}, {-0.1, 1, "seq_delta"}, {0, 3, "seq_min"}, {0.05, 0, "seq_min"}, {0.05, 20, "seq_min"},
	} {
		p := smallParams()
		p.SeqDelta, p.SeqMin = c.delta, c.min
		err := p.Validate(100)
		if c.key == "" && err != nil || c.key != "" && (err == nil || !strings.Contains(err.Error(), c.key)) {
			t.Errorf("seq_delta %v, seq_min %d: %v, want an error naming %q", c.delta, c.min, err, c.key)
		}
	}
}

// TestSequentialRewardSeparates: two deterministic templates that differ in reward only (−0.2
// and −1 a step) tie on transitions. With rewards spanning R = 1.8 (σ² = 0.81) each reward of
// −0.2 adds (0.8² − 0)/(2·0.81) = 0.395 to the log-ratio, so at δ = 0.05 (ln 20 = 3.0) the 8th
// sample decides; with R = 0 the rewards are not used and the pair waits for m_s.
func TestSequentialRewardSeparates(t *testing.T) {
	for _, c := range []struct {
		R    float64
		want int
	}{{1.8, 8}, {0, 0}} {
		o, ids := seqAgent(t, 0.05, deterministic, []template.Count{{Rank: 0, N: 1000}})
		o.lib.Get(ids[1]).Reward = -1000
		o.p.SeqRewardRange = c.R
		if n, id := identifiedAt(o, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}); n != c.want || c.want > 0 && id != ids[0] {
			t.Errorf("R = %v: identified at sample %d as template %d, want %d, %d", c.R, n, id, c.want, ids[0])
		}
	}
}

func TestSequentialRewardRangeValidate(t *testing.T) {
	p := smallParams()
	p.SeqDelta, p.SeqMin, p.SeqRewardRange = 0.05, 1, -1
	if err := p.Validate(100); err == nil || !strings.Contains(err.Error(), "seq_reward_range") {
		t.Errorf("seq_reward_range −1: %v, want an error naming it", err)
	}
}
