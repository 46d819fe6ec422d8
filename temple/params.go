package temple

import (
	"fmt"
	"math"
	"reflect"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/yamlkeys"
)

// OTempLeType is O-TempLe's agent type: the name a config gives it (type: o-temple) and its errors
// begin with.
const OTempLeType = "o-temple"

// Params are O-TempLe's parameters; the base learner's (its known threshold m among them) are the
// base's own.
type Params struct {
	// Ms is the small known threshold m_s: a pair's template is identified after m_s own samples.
	Ms int64 `yaml:"m_s" doc:"small known threshold m_s: a pair's template is identified after m_s own samples (default: the paper's 50, or the base's m when smaller)" range:"1 <= m_s <= m"`
	// Tau is the user's template gap τ̂.
	Tau float64 `yaml:"tau" doc:"template gap τ̂: a pair matches the closest library template within τ̂" range:">= 0"`
	// Consolidate merges templates closer than τ̂ at the end of every task (decision 8).
	Consolidate bool `yaml:"consolidate" doc:"merge templates closer than τ̂ at the end of every task"`
	// Retry (not in the paper; off in the paper presets) defers a new template: a pair whose
	// m_s own samples match no library template within τ̂ keeps sampling and tries again at
	// 2·m_s, 4·m_s, … own samples; only when it reaches m (known by its own samples) unmatched,
	// or at the end of the task, does it become a new template. The paper adds the new template
	// at m_s, so a pair whose few samples were unlucky needs m own samples in every such task.
	Retry bool `yaml:"retry,omitempty" doc:"not in the paper: a pair whose m_s samples match no template tries again at 2·m_s, 4·m_s, … before it becomes a new template"`
	// EarlyMatch (not in the paper; 0, off, in the paper presets) matches a pair provisionally
	// after EarlyMatch own samples, fewer than m_s: the closest library template within τ̂
	// augments the pair at once (again at 2·EarlyMatch, 4·EarlyMatch, … below m_s while nothing
	// matches). The pair keeps counting its own samples, and at m_s Algorithm 1's identification
	// decides: the same template on the same states confirms the match; anything else withdraws
	// the augmentation, and the pair goes on as the paper's rule says. Pairs visited m_s times —
	// those the policy relies on — are thus checked as carefully as in the paper, while the rest
	// stop costing exploration after EarlyMatch samples. Unconfirmed pairs give the library
	// nothing.
	EarlyMatch int64 `yaml:"early_match,omitempty" doc:"not in the paper (0: off): match a pair provisionally after this many own samples; at m_s the paper's identification confirms or withdraws the match" range:"0 or 1 <= early_match < m_s"`
	// Refute (not in the paper; off in the paper presets) withdraws a template match that a step
	// refutes: when a pair augmented from its matched template moves to a state its estimate
	// gives probability zero, the augmented model is certainly wrong — whatever τ̂, the true
	// probability of that outcome is not zero. The pair is then left exactly its own samples of
	// the task (every step it took, this one included), is treated as unidentified, and is not
	// augmented again in this task; its own samples give that template nothing more. With few
	// samples (m_s ≪ 1/τ̂², Theorem 1's condition) a rare outcome is often missing from m_s
	// samples, a template built from such samples has no mass on it, and the planner treats it
	// as impossible for good; refuting the match lets the pair be explored again. Only template
	// matches are refuted, not FM-TempLe's augmentation from an identified model.
	Refute bool `yaml:"refute,omitempty" doc:"not in the paper: a step to a state the pair's augmented estimate gives probability zero withdraws its template match (the pair keeps its own steps)"`
	// SeqDelta (not in the paper; 0, off, in the paper presets) is the confidence δ of
	// sequential identification: from SeqMin own samples on, and before m_s, a pair is
	// identified with a library template as soon as its own samples single that template out
	// (singledOut, which states the test and its guarantee); at m_s Algorithm 1's rule decides
	// for the pairs that were not.
	SeqDelta float64 `yaml:"seq_delta,omitempty" doc:"not in the paper (0: off): sequential identification at confidence δ: a pair is identified before m_s once a likelihood-ratio test on its own samples singles out one library template" range:"0 or 0 < seq_delta < 1"`
	// SeqMin is the fewest own samples a sequential identification may use (with SeqDelta).
	SeqMin int64 `yaml:"seq_min,omitempty" doc:"with seq_delta: the fewest own samples a pair is identified by sequentially" range:"1 <= seq_min < m_s with seq_delta, else 0"`
	// SeqRewardRange is the span R of one step's reward (largest minus smallest) that the
	// sequential test's reward part assumes (with SeqDelta; 0: rewards are not used).
	SeqRewardRange float64 `yaml:"seq_reward_range,omitempty" doc:"with seq_delta or opt_delta: the span R of one step's reward (max − min) for the likelihood test's reward part; 0: rewards not used" range:">= 0"`
	// OptDelta (not in the paper; 0, off, in the paper presets) is the confidence δ of optimism
	// over library templates: a pair not yet identified is planned with the most optimistic
	// library template its own samples do not exclude at δ, and with its own samples alone (the
	// base's own optimism) when every template is excluded (optimism.go states the rule and its
	// guarantee). It needs a base whose plan's values can be read (agent.Valued: MBIE-EB).
	OptDelta float64 `yaml:"opt_delta,omitempty" doc:"not in the paper (0: off): a pair not yet identified is planned with the most optimistic library template its samples do not exclude at confidence δ (MBIE-EB base only)" range:"0 or 0 < opt_delta < 1, without early_match and refute"`
	// TemplateWeight (not in the paper; 0, off, in the paper presets) caps the counts a pair is
	// augmented with: a template's visits (or FM-TempLe's identified model's counts) enter the
	// pair's estimate scaled down to about TemplateWeight in all (weighted), a prior of that
	// strength instead of the library's thousands of visits. The pair's own samples then
	// outweigh a wrong match as they accumulate — with MBIE-EB, whose pairs keep their own
	// samples after identification, its estimate tends to the pair's truth — at the price of a
	// bonus shrunk less by a right one. Over a base with a known threshold m, an augmented pair
	// still needs m − TemplateWeight own samples to be known.
	TemplateWeight int64 `yaml:"template_weight,omitempty" doc:"not in the paper (0: off): a pair is augmented with at most about this many counts (its template's visits scaled down in proportion), so its own samples outweigh a wrong match as they accumulate" range:">= 0"`
}

// DefaultParams are the paper's online settings: m_s = 50, τ̂ = 0.15, consolidation on (with
// learners.DefaultRMax as the base: m = 500).
func DefaultParams() Params {
	return Params{Ms: paperMs, Tau: 0.15, Consolidate: true}
}

// paperMs is the paper's small known threshold m_s.
const paperMs = 50

// DefaultMs is m_s over a base whose known threshold is m, when the configuration does not set
// it: the paper's 50, or m when that is smaller (E3's default m = 16), since m_s may not exceed
// m. With m_s = m a pair is identified when its own samples make it known: its template still
// joins the library, but it is not explored any sooner; lower m_s or raise m for that.
func DefaultMs(m int64) int64 { return min(paperMs, m) }

// Validate names the first parameter out of range, and the fix where two conflict; m is the base
// learner's known threshold.
func (p Params) Validate(m int64) error { return p.validate(OTempLeType, m) }

// validate is Validate with the agent type that errors are named after (o-temple, fm-temple).
func (p Params) validate(agentType string, m int64) error {
	if p.Ms < 1 {
		return fmt.Errorf("%s: m_s = %d, want 1 <= m_s <= m (m = %d)", agentType, p.Ms, m)
	}
	if p.Ms > m {
		return fmt.Errorf("%s: m_s = %d, want 1 <= m_s <= m (m = %d): set m >= %d or m_s <= %d", agentType, p.Ms, m, p.Ms, m)
	}
	if p.EarlyMatch < 0 || p.EarlyMatch >= p.Ms && p.EarlyMatch != 0 {
		return fmt.Errorf("%s: early_match = %d, want 0 (off) or 1 <= early_match < m_s (m_s = %d)", agentType, p.EarlyMatch, p.Ms)
	}
	if !(p.Tau >= 0) || math.IsInf(p.Tau, 0) {
		return fmt.Errorf("%s: tau = %v, want a finite number >= 0", agentType, p.Tau)
	}
	if !(p.SeqDelta >= 0 && p.SeqDelta < 1) {
		return fmt.Errorf("%s: seq_delta = %v, want 0 (off) or 0 < seq_delta < 1", agentType, p.SeqDelta)
	}
	if p.SeqDelta == 0 && p.SeqMin != 0 {
		return fmt.Errorf("%s: seq_min = %d without seq_delta, want seq_min 0 or seq_delta > 0", agentType, p.SeqMin)
	}
	if !(p.OptDelta >= 0 && p.OptDelta < 1) {
		return fmt.Errorf("%s: opt_delta = %v, want 0 (off) or 0 < opt_delta < 1", agentType, p.OptDelta)
	}
	if p.OptDelta > 0 && m != math.MaxInt64 {
		return fmt.Errorf("%s: opt_delta = %v over a base with known threshold m = %d, want a base without one (mbie-eb with m 0): an optimistic template's counts would make the pair known and end its own samples", agentType, p.OptDelta, m)
	}
	if p.OptDelta > 0 && (p.EarlyMatch > 0 || p.Refute) {
		return fmt.Errorf("%s: opt_delta = %v with early_match = %d and refute = %v, want early_match 0 and refute false with opt_delta (both also augment pairs before identification)", agentType, p.OptDelta, p.EarlyMatch, p.Refute)
	}
	if p.TemplateWeight < 0 {
		return fmt.Errorf("%s: template_weight = %d, want 0 (off) or a number of counts >= 1", agentType, p.TemplateWeight)
	}
	if !(p.SeqRewardRange >= 0) || math.IsInf(p.SeqRewardRange, 0) {
		return fmt.Errorf("%s: seq_reward_range = %v, want a finite number >= 0", agentType, p.SeqRewardRange)
	}
	if p.SeqDelta > 0 && (p.SeqMin < 1 || p.SeqMin >= p.Ms) {
		return fmt.Errorf("%s: seq_min = %d, want 1 <= seq_min < m_s (m_s = %d) with seq_delta", agentType, p.SeqMin, p.Ms)
	}
	return nil
}

// templeSearch is what temple tune searches of O-TempLe's own keys, after its base's: m_s (at most
// the base's m: tune clamps it) and τ̂, a distance between sorted distributions (at most 2).
var templeSearch = agenttypes.Dims(agenttypes.LogInt("m_s", 1, 500), agenttypes.LogReal("tau", 0.01, 1))

// templeScales are the scales of O-TempLe's options, searched when a config gives them a range.
var templeScales = agenttypes.Dims(agenttypes.LogInt("template_weight", 1, 1000), agenttypes.LogInt("early_match", 1, 50),
	agenttypes.LogInt("seq_min", 1, 50), agenttypes.LogReal("seq_delta", 0.001, 0.5), agenttypes.LogReal("opt_delta", 0.001, 0.5))

// O-TempLe registers over a base learner (the paper's RMax by default). Its PairBytes are
// measured over RMax on 100×100 mazes (OverBaseMemory counts another base's).
func init() {
	agenttypes.Register(agenttypes.Type{Name: OTempLeType, Display: "O-TempLe", Summary: "Online Template Learning (the paper's Algorithm 1) over a base learner",
		Defaults: func() agenttypes.Params { return &OTempLeSpec{Base: agenttypes.DefaultBase(), Params: DefaultParams()} }, PairBytes: 320,
		Search: templeSearch, Scales: templeScales, Rank: 100})
}

// OTempLeSpec is O-TempLe as a config gives it: its base learner and the template parameters
// (m_s, τ̂, …). Until a config sets m_s, it follows the base's m (DefaultMs): the paper's 50, or m
// when that is smaller, so that O-TempLe runs with its defaults over every base.
type OTempLeSpec struct {
	Base   agenttypes.BaseSpec
	Params `yaml:",inline"`
	msSet  bool // a config set m_s
}

// Over is the base.
func (p *OTempLeSpec) Over() agenttypes.BaseSpec { return p.Base }

// Keys are O-TempLe's keys and its base's.
func (p *OTempLeSpec) Keys() []string {
	return append(p.Base.Keys(), yamlkeys.Of(reflect.TypeOf(p.Params))...)
}

// UnmarshalYAML reads the base (base: NAME and its keys) and the template parameters, failing on
// any other key with its line.
func (p *OTempLeSpec) UnmarshalYAML(n *yaml.Node) error {
	if err := agenttypes.DecodeOverBase(n, OTempLeType, &p.Base, p.Keys, &p.Params); err != nil {
		return err
	}
	followMs(n, p.Base, &p.Ms, &p.msSet)
	return nil
}

// followMs keeps m_s (*ms) following base b's m until a config block n sets it (*msSet).
func followMs(n *yaml.Node, b agenttypes.BaseSpec, ms *int64, msSet *bool) {
	*msSet = *msSet || hasKey(n, "m_s")
	if !*msSet {
		*ms = defaultMs(b, *ms)
	}
}

// hasKey reports whether mapping n has the key.
func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// defaultMs is m_s over base b when no config set it (DefaultMs), or ms as it is while b's m is
// out of range (Validate names it).
func defaultMs(b agenttypes.BaseSpec, ms int64) int64 {
	if m := b.KnownThreshold(); m >= 1 {
		return DefaultMs(m)
	}
	return ms
}

// Follow keeps m_s following the base's m in a copy of orig (agenttypes.Clone).
func (p *OTempLeSpec) Follow(orig agenttypes.Params) { p.msSet = orig.(*OTempLeSpec).msSet }

// SetBase runs O-TempLe over base b, as a config's base: and the base's keys do: m_s follows b's
// m unless it was set (SetMs, or a config's m_s:). Set b's parameters before: changing them in
// place afterwards leaves m_s where it was.
func (p *OTempLeSpec) SetBase(b agenttypes.BaseSpec) {
	p.Base = b
	if !p.msSet {
		p.Ms = defaultMs(b, p.Ms)
	}
}

// SetMs sets m_s, as a config's m_s: does: from then on it no longer follows the base's m.
func (p *OTempLeSpec) SetMs(ms int64) { p.Ms, p.msSet = ms, true }

// MarshalYAML writes the base and its parameters, then the template parameters.
func (p *OTempLeSpec) MarshalYAML() (any, error) { return agenttypes.EncodeOverBase(p.Base, &p.Params) }

// Validate checks the base's keys, then O-TempLe's against the base's m.
func (p *OTempLeSpec) Validate() error {
	if err := p.Base.Params.Validate(); err != nil {
		return err
	}
	return p.Params.Validate(p.Base.KnownThreshold())
}

// New builds O-TempLe over a fresh base learner.
func (p *OTempLeSpec) New(agenttypes.Context) (agent.Agent, error) {
	base, err := p.Base.Params.NewBase()
	if err != nil {
		return nil, err
	}
	return NewOTempLe(p.Params, base)
}

// MemoryBytes is a template learner's own tables and its base's.
func (p *OTempLeSpec) MemoryBytes(typeBytes, S, A, _ int64) int64 {
	return agenttypes.OverBaseMemory(p.Base, typeBytes, S, A) + refuteMemory(p.Refute, S, A)
}

// refuteMemory is what the refute option adds: every pair's steps of the task as counts (n, R,
// the successor list and one successor) and its flag.
func refuteMemory(refute bool, S, A int64) int64 {
	if !refute {
		return 0
	}
	return (8 + 8 + 24 + 16 + 1) * S * A
}

// LargeMemory is O-TempLe's memory on a large task over a base that keeps lazy tables there
// (RMax planning incrementally): the base's, and O-TempLe's own — per state its count of wrong
// pairs; per pair its augmented and wrong flags; in blocks its pending counts, own samples and
// identification, and with its options an early match (its template and σ) and every step
// (refute).
func (p *OTempLeSpec) LargeMemory() (agenttypes.LargeBytes, bool) {
	l, ok := agenttypes.LargeMemoryOf(p.Base.Params)
	if !ok {
		return agenttypes.LargeBytes{}, false
	}
	l.StateBytes += 8
	l.PairBytes += 1 + 1
	l.BlockBytes += 8 + 8 + 24 + 8 + 4
	l.WrittenBytes += 4 * 16
	if p.EarlyMatch > 0 {
		l.BlockBytes += 4 + 32
		l.WrittenBytes += 4 * 4
	}
	if p.Refute {
		l.PairBytes++
		l.BlockBytes += 8 + 8 + 24
		l.WrittenBytes += 4 * 16
	}
	return l, true
}
