// Package temple holds the TempLe agents: O-TempLe (online template learning, paper Algorithm 1)
// and FM-TempLe (finite-model template learning, Algorithm 3). Both run over a base learner
// (agent.Base): the paper's RMax, or any other model-based learner behind the seam — MBIE-EB, E3,
// UCRL2, PSRL. Templates act on a base only through its counts: an identified pair is augmented
// with its template's visits (agent.Base.Augment), which makes an RMax pair known sooner, shrinks
// an MBIE-EB bonus or a UCRL2 confidence width, and adds pseudo-counts to a PSRL posterior.
//
// It imports agent, template and mdp; it must not import the baselines, the registry (agents),
// the runner (experiment) or the results directory (results).
package temple

import (
	"fmt"
	"math"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/internal/lazy"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

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
func (p Params) Validate(m int64) error {
	if p.Ms < 1 {
		return fmt.Errorf("o-temple: m_s = %d, want 1 <= m_s <= m (m = %d)", p.Ms, m)
	}
	if p.Ms > m {
		return fmt.Errorf("o-temple: m_s = %d, want 1 <= m_s <= m (m = %d): set m >= %d or m_s <= %d", p.Ms, m, p.Ms, m)
	}
	if p.EarlyMatch < 0 || p.EarlyMatch >= p.Ms && p.EarlyMatch != 0 {
		return fmt.Errorf("o-temple: early_match = %d, want 0 (off) or 1 <= early_match < m_s (m_s = %d)", p.EarlyMatch, p.Ms)
	}
	if !(p.Tau >= 0) || math.IsInf(p.Tau, 0) {
		return fmt.Errorf("o-temple: tau = %v, want a finite number >= 0", p.Tau)
	}
	if !(p.SeqDelta >= 0 && p.SeqDelta < 1) {
		return fmt.Errorf("o-temple: seq_delta = %v, want 0 (off) or 0 < seq_delta < 1", p.SeqDelta)
	}
	if p.SeqDelta == 0 && p.SeqMin != 0 {
		return fmt.Errorf("o-temple: seq_min = %d without seq_delta, want seq_min 0 or seq_delta > 0", p.SeqMin)
	}
	if !(p.OptDelta >= 0 && p.OptDelta < 1) {
		return fmt.Errorf("o-temple: opt_delta = %v, want 0 (off) or 0 < opt_delta < 1", p.OptDelta)
	}
	if p.OptDelta > 0 && m != math.MaxInt64 {
		return fmt.Errorf("o-temple: opt_delta = %v over a base with known threshold m = %d, want a base without one (mbie-eb with m 0): an optimistic template's counts would make the pair known and end its own samples", p.OptDelta, m)
	}
	if p.OptDelta > 0 && (p.EarlyMatch > 0 || p.Refute) {
		return fmt.Errorf("o-temple: opt_delta = %v with early_match = %d and refute = %v, want early_match 0 and refute false with opt_delta (both also augment pairs before identification)", p.OptDelta, p.EarlyMatch, p.Refute)
	}
	if p.TemplateWeight < 0 {
		return fmt.Errorf("o-temple: template_weight = %d, want 0 (off) or a number of counts >= 1", p.TemplateWeight)
	}
	if !(p.SeqRewardRange >= 0) || math.IsInf(p.SeqRewardRange, 0) {
		return fmt.Errorf("o-temple: seq_reward_range = %v, want a finite number >= 0", p.SeqRewardRange)
	}
	if p.SeqDelta > 0 && (p.SeqMin < 1 || p.SeqMin >= p.Ms) {
		return fmt.Errorf("o-temple: seq_min = %d, want 1 <= seq_min < m_s (m_s = %d) with seq_delta", p.SeqMin, p.Ms)
	}
	return nil
}

// OTempLe is Online Template Learning (paper Algorithm 1). Across tasks it keeps a library of
// transition templates. Within a task it runs its base learner (the paper's RMax); when a pair has m_s own samples its template
// is identified: matched to the closest library template within τ̂ (the pair is then augmented
// with that template's visits through σ⁻¹ and its own samples join the template), or added as a
// new template. At the end of the task every identified pair gives its remaining own samples to
// its template.
//
// No sample is ever counted twice (decision 7): a template holds each own sample of a pair exactly
// once — the m_s at identification, the rest at the end of the task — and a pair's estimate is its
// own samples plus the samples other pairs gave its template before it was augmented.
type OTempLe struct {
	p   Params
	lib *template.Library
	l   agent.Base
	st  *agent.Stats // l's statistics

	// Per task.
	S, A    int
	pending mdp.Counts        // own samples of each pair not yet given to a template
	own     lazy.Table[int64] // own samples of each pair in this task
	// ident[i] is pair i's entry in idents once its template is identified in this task, −1 before.
	ident  lazy.Table[int32]
	idents []identification
	// augmented marks pairs that already received counts from elsewhere in this task (FM-TempLe
	// augments from an identified model); they are not augmented again from the library.
	augmented []bool
	// early[i] is the ID of pair i's provisional template (EarlyMatch) until m_s decides, −1
	// otherwise; earlySigma[i] is the σ it was placed by.
	early      lazy.Table[int32]
	earlySigma lazy.Table[template.Sigma]
	// optTmpl[i] is the ID of the library template pair i is planned with (OptDelta), −1 for
	// none; optSigma[i] the σ it was placed by; values reads the base's plan, gamma its γ.
	optTmpl  lazy.Table[int32]
	optSigma lazy.Table[template.Sigma]
	values   agent.Valued
	gamma    float64
	// fromTemplate[i]: pair i's estimate holds the visits of its matched template (Refute).
	// steps holds every step of each pair in this task, own samples or not (Refute).
	fromTemplate []bool
	steps        mdp.Counts
	truth        *template.Truth
	stats        taskStats
	// wrong[s] counts the pairs of state s that received counts from elsewhere (a matched
	// template, or FM-TempLe's identified model) farther than τ̂ from the pair's truth, and
	// wrongPair[i] whether pair i is one of them: diagnostics only, for Phase.
	wrong     []int
	wrongPair []bool

	// Diagnostics only: every true template met so far, to measure learned templates against.
	seenTruth template.Truth
}

// identification is what a pair's identification fixed for the rest of the task.
type identification struct {
	tmpl  int            // ID of the pair's template
	sigma template.Sigma // the pair's ranking permutation σ, by its support
}

// tmplOf is the ID of pair i's template, −1 while it is not identified.
func (o *OTempLe) tmplOf(i int) int {
	k := o.ident.At(i)
	if k < 0 {
		return -1
	}
	return o.idents[k].tmpl
}

type taskStats struct {
	identified, matched, created, knownEarly, misidentified int
	deferred                                                int // with Retry: attempts without a match
	early, withdrawn                                        int // with EarlyMatch: provisional matches, and those withdrawn at m_s
	refuted                                                 int // with Refute: matches a step refuted
	sequential                                              int // with SeqDelta: pairs identified before m_s
	optimistic                                              int // with OptDelta: optimistic templates placed
}

// NewOTempLe validates p and returns an agent with an empty library over the base learner base
// (learners.NewRMax for the paper's RMax), which it begins afresh at every task.
func NewOTempLe(p Params, base agent.Base) (*OTempLe, error) {
	if err := p.Validate(base.KnownThreshold()); err != nil {
		return nil, err
	}
	lib, err := template.NewLibrary(p.Tau)
	if err != nil {
		return nil, err
	}
	o := &OTempLe{p: p, lib: lib, l: base, st: base.Stats()}
	if p.OptDelta > 0 {
		v, ok := base.(agent.Valued)
		if !ok {
			return nil, fmt.Errorf("o-temple: opt_delta = %v needs a base learner whose plan's values can be read (mbie-eb); this base has none", p.OptDelta)
		}
		o.values = v
	}
	return o, nil
}

// Library is the agent's template library.
func (o *OTempLe) Library() *template.Library { return o.lib }

// Base is the base learner of the current task.
func (o *OTempLe) Base() agent.Base { return o.l }

func (o *OTempLe) BeginTask(t agent.Task) error {
	o.l.Begin(t)
	o.S, o.A = t.S, t.A
	o.pending.Reset(t.S, t.A)
	o.own.Reset(t.S*t.A, 0)
	o.ident.Reset(t.S*t.A, -1)
	clear(o.idents)
	o.idents = o.idents[:0]
	o.augmented = buf.Zeroed(o.augmented, t.S*t.A)
	if o.p.EarlyMatch > 0 {
		o.early.Reset(t.S*t.A, -1)
		o.earlySigma.Reset(t.S*t.A, template.Sigma{})
	}
	if o.p.Refute {
		o.fromTemplate = buf.Zeroed(o.fromTemplate, t.S*t.A)
		o.steps.Reset(t.S, t.A)
	}
	if o.p.OptDelta > 0 {
		o.gamma = t.Gamma
		o.optTmpl.Reset(t.S*t.A, -1)
		o.optSigma.Reset(t.S*t.A, template.Sigma{})
	}
	o.wrong = buf.Zeroed(o.wrong, t.S)
	o.wrongPair = buf.Zeroed(o.wrongPair, t.S*t.A)
	o.stats = taskStats{}
	o.truth = nil
	if t.Truth != nil {
		tr := template.OfModel(t.Truth)
		o.truth = &tr
		o.seenTruth.Include(tr.Templates...)
	}
	return nil
}

func (o *OTempLe) Act(s int) int { return o.l.Act(s) }

func (o *OTempLe) Observe(s, a int, r float64, next int) { o.observe(s*o.A+a, next, r) }

// observe records the transition of pair i and reports whether it was one of the pair's own
// samples — recorded by the learner while the pair is unknown, or counted towards m_s while its
// match is provisional — and whether the pair's template was identified.
func (o *OTempLe) observe(i, next int, r float64) (own, identified bool) {
	if o.p.Refute {
		o.steps.Add(i, next, 1, r)
		if o.fromTemplate[i] && !reaches(o.st.Counts().Successors(i), next) {
			o.refute(i)
			return true, false
		}
	}
	if !o.l.Record(i, next, r) && !o.provisional(i) {
		return false, false
	}
	o.pending.Add(i, next, 1, r)
	*o.own.Ptr(i)++
	switch {
	case o.ident.At(i) >= 0:
	case o.seqAttempt(i) && o.identifySequentially(i):
		identified = true
	case o.earlyAttempt(i):
		o.matchEarly(i)
	case o.attempt(i):
		identified = o.identify(i, false)
	}
	if o.p.OptDelta > 0 && o.ident.At(i) < 0 {
		o.placeOptimistic(i)
	}
	return true, identified
}

// reaches reports whether next is among the successors.
func reaches(succ []mdp.Succ, next int) bool {
	for _, x := range succ {
		if int(x.State) == next {
			return true
		}
	}
	return false
}

// refute withdraws pair i's template match, which its last step refuted (Refute): the pair keeps
// exactly its steps of this task, is no longer identified, and its template gets nothing more
// of it; being augmented once, it is not augmented again in this task.
func (o *OTempLe) refute(i int) {
	o.l.Replace(i, o.steps.Successors(i), o.steps.R(i))
	o.fromTemplate[i] = false
	o.ident.Set(i, -1)
	o.pending.ClearPair(i)
	o.own.Set(i, o.steps.N(i))
	o.unmarkWrong(i)
	o.stats.refuted++
}

// markWrong counts pair i in wrong when template t, augmented into it, is farther than τ̂ from
// its truth; unmarkWrong takes it out again when the augmentation is withdrawn.
func (o *OTempLe) markWrong(i int, t *template.Template) {
	if o.farFromTruth(t, i) {
		o.wrongPair[i] = true
		o.wrong[i/o.A]++
	}
}

func (o *OTempLe) unmarkWrong(i int) {
	if o.wrongPair[i] {
		o.wrongPair[i] = false
		o.wrong[i/o.A]--
	}
}

// provisional reports whether pair i holds a provisional match (EarlyMatch).
func (o *OTempLe) provisional(i int) bool { return o.p.EarlyMatch > 0 && o.early.At(i) >= 0 }

// earlyAttempt reports whether pair i, neither identified nor augmented, tries a provisional
// match at this own sample: at EarlyMatch, 2·EarlyMatch, 4·EarlyMatch, … below m_s.
func (o *OTempLe) earlyAttempt(i int) bool {
	n, e := o.own.At(i), o.p.EarlyMatch
	if e == 0 || n >= o.p.Ms || n%e != 0 || o.augmented[i] {
		return false
	}
	k := n / e
	return k&(k-1) == 0
}

// matchEarly augments pair i with the closest library template within τ̂ of its own samples so
// far, provisionally: its own samples stay with the pair until m_s decides (identify).
func (o *OTempLe) matchEarly(i int) {
	sigma, ranked := template.Ranking(o.pending.Successors(i), o.S)
	t, _ := o.lib.Match(pointOf(ranked, o.pending.R(i)))
	if t == nil {
		return
	}
	o.early.Set(i, int32(t.ID))
	o.earlySigma.Set(i, sigma)
	o.augment(i, t.Augmentation(sigma), t.Reward)
	o.stats.early++
	o.markWrong(i, t)
}

// settleEarly decides pair i's provisional match at its m_s-th own sample, whose closest
// template within τ̂ is t (nil: none) and ranking σ: it keeps the match when t is the
// provisional template placed on the same states; otherwise it withdraws the augmentation,
// leaving the pair its own samples.
func (o *OTempLe) settleEarly(i int, t *template.Template, sigma template.Sigma) {
	id := o.early.At(i)
	o.early.Set(i, -1)
	if t != nil && int32(t.ID) == id && sigma.Agrees(o.earlySigma.At(i), int(t.Visits[len(t.Visits)-1].Rank)+1) {
		if o.p.Refute {
			o.fromTemplate[i] = true
		}
		return
	}
	o.l.Replace(i, o.pending.Successors(i), o.pending.R(i))
	o.augmented[i] = false
	o.unmarkWrong(i)
	o.stats.withdrawn++
}

// attempt reports whether pair i, not yet identified, tries to identify its template at this
// own sample: at m_s, and with Retry also at 2·m_s, 4·m_s, … and when it became known.
func (o *OTempLe) attempt(i int) bool {
	n := o.own.At(i)
	if n == o.p.Ms || !o.p.Retry || n < o.p.Ms {
		return n == o.p.Ms
	}
	k := n / o.p.Ms
	return n%o.p.Ms == 0 && k&(k-1) == 0 || o.st.Known(i)
}

// identify runs GEN-TT on pair i's own samples and matches, augments or adds its template
// (Algorithm 1, lines 7–15), and reports whether it did. With Retry and no match it defers the
// new template unless the task ends or the pair is known by its own samples. With EarlyMatch it
// first settles a provisional match.
func (o *OTempLe) identify(i int, endOfTask bool) bool {
	sigma, ranked := template.Ranking(o.pending.Successors(i), o.S)
	reward := o.pending.R(i) // of the pair's own samples: m_s without Retry
	t, _ := o.lib.Match(pointOf(ranked, reward))
	return o.identifyAs(i, t, sigma, ranked, reward, endOfTask)
}

// identifyAs matches pair i, whose own samples are ranked by σ with their reward sum, to
// template t, or adds them as a new template when t is nil (identify).
func (o *OTempLe) identifyAs(i int, t *template.Template, sigma template.Sigma, ranked []template.Count, reward float64, endOfTask bool) bool {
	o.withdrawOptimistic(i)
	if o.provisional(i) {
		o.settleEarly(i, t, sigma)
	}
	if t == nil && o.p.Retry && !endOfTask && !o.st.Known(i) {
		o.stats.deferred++
		return false
	}
	transferred := false // augmented here (a kept provisional match was augmented before)
	if t != nil {
		// Augment with the visits other pairs gave the template, then give it this pair's own.
		if !o.augmented[i] {
			o.augment(i, t.Augmentation(sigma), t.Reward)
			transferred = true
			if o.p.Refute {
				o.fromTemplate[i] = true
			}
		}
		t.Update(ranked, reward)
		o.stats.matched++
	} else {
		t = o.lib.Add(ranked, reward)
		o.stats.created++
	}
	o.pending.ClearPair(i)
	o.ident.Set(i, int32(len(o.idents)))
	o.idents = append(o.idents, identification{tmpl: t.ID, sigma: sigma})
	o.stats.identified++
	if o.farFromTruth(t, i) {
		o.stats.misidentified++
	}
	if transferred {
		o.markWrong(i, t)
	}
	return true
}

// farFromTruth reports whether template t is farther than τ̂ from pair i's true template, when
// the task's truth is known (diagnostics only).
func (o *OTempLe) farFromTruth(t *template.Template, i int) bool {
	return o.truth != nil && o.truth.PairTemplate[i] >= 0 && template.Distance(t.Mean(), o.truth.Templates[o.truth.PairTemplate[i]]) > o.p.Tau
}

// pointOf is GEN-TT's template of counts already ranked by σ, with their reward sum.
func pointOf(ranked []template.Count, reward float64) template.Point {
	var n float64
	for _, x := range ranked {
		n += float64(x.N)
	}
	g := template.Point{P: make([]float64, len(ranked)), R: reward / n}
	for k, x := range ranked {
		g.P[k] = float64(x.N) / n
	}
	return g
}

// augment adds counts that are not pair i's own samples to its estimate, once per task, scaled
// down to TemplateWeight when it is set.
func (o *OTempLe) augment(i int, add []mdp.Succ, reward float64) {
	if o.p.TemplateWeight > 0 {
		add, reward = weighted(add, reward, o.p.TemplateWeight)
	}
	o.l.Augment(i, add, reward)
	o.augmented[i] = true
	if o.st.Known(i) {
		o.stats.knownEarly++
	}
}

// Phase is Exploring while some action of s is unknown; once all are known, Misidentified if
// one of them was augmented from a template farther than τ̂ from its true template (the measure
// of the misidentification_rate diagnostic), KnownModel otherwise (StepInfo).
func (o *OTempLe) Phase(s int) agent.Phase {
	ph := o.st.Phase(s)
	if ph == agent.KnownModel && o.wrong[s] > 0 {
		return agent.Misidentified
	}
	return ph
}

// PolicyVersion and Policy are its base learner's (agent.PolicyInfo).
func (o *OTempLe) PolicyVersion() uint64       { return o.l.PolicyVersion() }
func (o *OTempLe) Policy(s int, dst []float64) { o.l.Policy(s, dst) }

func (o *OTempLe) EndEpisode() { o.l.EndEpisode() }

// ObserveTerminal marks s terminal in the base learner (agent.TerminalObserver).
func (o *OTempLe) ObserveTerminal(s int) { o.l.ObserveTerminal(s) }

// EndTask gives every identified pair's remaining own samples to its template (Algorithm 1,
// lines 19–21), aligned by the pair's σ, then consolidates the library.
func (o *OTempLe) EndTask() {
	if o.p.Retry {
		// Pairs still deferred give their samples to the library as new or matched templates.
		for i := range o.ident.Len() {
			if o.ident.At(i) < 0 && o.pending.N(i) >= o.p.Ms {
				o.identify(i, true)
			}
		}
	}
	for i := range o.ident.Len() {
		k := o.ident.At(i)
		if k < 0 || o.pending.N(i) == 0 {
			continue
		}
		id := o.idents[k]
		o.lib.Get(id.tmpl).Update(id.sigma.Ranked(o.pending.Successors(i)), o.pending.R(i))
		o.pending.ClearPair(i)
	}
	if o.p.Consolidate {
		o.lib.Consolidate()
	}
}

// TaskMetrics reports, for the task just ended: the library size; pairs identified, augmented
// from a matched template, added as new templates, and known at once by augmentation; known
// pairs, own samples recorded, and own samples until all pairs were known; and, against the true model, the share of
// identifications whose template is farther than τ̂ from the pair's true template (when any pair
// was identified), the number of distinct true templates of the task, and the mean
// and largest distance from each library template to the nearest true template seen so far, and
// the share of the library's visits held by templates within τ̂ of a true template.
func (o *OTempLe) TaskMetrics() []agent.Metric {
	m := []agent.Metric{
		{Name: "library_size", Value: float64(o.lib.Len())},
		{Name: "identified_pairs", Value: float64(o.stats.identified)},
		{Name: "augmented_pairs", Value: float64(o.stats.matched)},
		{Name: "new_templates", Value: float64(o.stats.created)},
		{Name: "known_early_pairs", Value: float64(o.stats.knownEarly)},
		{Name: "known_pairs", Value: float64(o.st.KnownPairs())},
		{Name: "samples_recorded", Value: float64(o.st.Samples())},
		{Name: "samples_until_all_known", Value: float64(o.st.SamplesUntilAllKnown())},
	}
	if o.p.Retry {
		m = append(m, agent.Metric{Name: "deferred_identifications", Value: float64(o.stats.deferred)})
	}
	if o.p.EarlyMatch > 0 {
		m = append(m, agent.Metric{Name: "early_matches", Value: float64(o.stats.early)},
			agent.Metric{Name: "early_withdrawn", Value: float64(o.stats.withdrawn)})
	}
	if o.p.Refute {
		m = append(m, agent.Metric{Name: "refuted_matches", Value: float64(o.stats.refuted)})
	}
	if o.p.OptDelta > 0 {
		m = append(m, agent.Metric{Name: "optimistic_placements", Value: float64(o.stats.optimistic)})
	}
	if o.p.SeqDelta > 0 {
		m = append(m, agent.Metric{Name: "sequential_identifications", Value: float64(o.stats.sequential)})
	}
	if o.truth == nil {
		return m
	}
	mean, worst, close := 0.0, 0.0, 0.0
	for _, t := range o.lib.Templates() {
		_, d := o.seenTruth.Nearest(t.Mean())
		mean += d / float64(o.lib.Len())
		worst = math.Max(worst, d)
		if d <= o.p.Tau {
			close += float64(t.N())
		}
	}
	if o.stats.identified > 0 {
		m = append(m, agent.Metric{Name: "misidentification_rate", Value: float64(o.stats.misidentified) / float64(o.stats.identified)})
	}
	return append(m,
		agent.Metric{Name: "true_templates", Value: float64(len(o.truth.Templates))},
		agent.Metric{Name: "template_error_mean", Value: mean},
		agent.Metric{Name: "template_error_max", Value: worst},
		agent.Metric{Name: "visits_within_tau", Value: close / float64(max(o.lib.TotalVisits(), 1))},
	)
}

// TemplateSnapshot is the library and each pair's template at this point of the task; a pair's
// template is named by its current ID (following consolidation).
func (o *OTempLe) TemplateSnapshot() template.Snapshot {
	snap := template.Snapshot{Pairs: make([]int, o.ident.Len())}
	for i := range o.ident.Len() {
		snap.Pairs[i] = -1
		if id := o.tmplOf(i); id >= 0 {
			if t := o.lib.Get(id); t != nil {
				snap.Pairs[i] = t.ID
			}
		}
	}
	for _, t := range o.lib.Templates() {
		snap.Library = append(snap.Library, template.Template{ID: t.ID, Visits: slices.Clone(t.Visits), Reward: t.Reward})
	}
	return snap
}
