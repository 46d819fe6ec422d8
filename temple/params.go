package temple

import (
	"fmt"
	"math"
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
