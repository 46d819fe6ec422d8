package temple

import (
	"fmt"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/internal/lazy"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

// OTempLe is Online Template Learning (paper Algorithm 1). Across tasks it keeps a library of
// transition templates. Within a task it runs its base learner (the paper's RMax); when a pair
// has m_s own samples its template is identified: matched to the closest library template within
// τ̂ (the pair is then augmented with that template's visits through σ⁻¹ and its own samples join
// the template), or added as a new template. At the end of the task every identified pair gives
// its remaining own samples to its template.
//
// No sample is ever counted twice (decision 7): a template holds each own sample of a pair exactly
// once — the m_s at identification, the rest at the end of the task — and a pair's estimate is its
// own samples plus the samples other pairs gave its template before it was augmented.
//
// This file is Algorithm 1. The options that are not in the paper (off in the paper presets) each
// keep their state in a file of their own: retry.go, early_match.go, refute.go, sequential.go,
// optimism.go, weight.go; the diagnostics against the task's true model are in truth.go.
type OTempLe struct {
	p   Params
	lib *template.Library // the template library 𝒯 with its visits 𝒱 (line 1)
	l   agent.Base
	st  *agent.Stats   // l's statistics
	rep agent.Replacer // l, with the options that withdraw counts (early_match, refute, opt_delta)

	// Per task.
	S, A    int
	pending mdp.Counts        // own samples of each pair not yet given to a template
	own     lazy.Table[int64] // own samples of each pair in this task, ‖n(s,a,·)‖₁
	// ident[i] is pair i's entry in idents once its template is identified in this task, −1 before.
	ident  lazy.Table[int32]
	idents []identification
	// augmented marks pairs that already received counts from elsewhere in this task (FM-TempLe
	// augments from an identified model); they are not augmented again from the library.
	augmented []bool
	stats     taskStats

	// The options' state (each in its own file), and the diagnostics (truth.go).
	deferred      int // retry.go: attempts without a match in this task
	early         earlyMatching
	refutes       refutation
	seqIdentified int // sequential.go: pairs identified before m_s in this task
	opt           optimism
	diag          diagnostics
}

// identification is what a pair's identification fixed for the rest of the task.
type identification struct {
	tmpl  int            // ID of the pair's template
	sigma template.Sigma // the pair's ranking permutation σ, by its support
}

// taskStats are Algorithm 1's counts of a task, for its metrics.
type taskStats struct {
	identified, matched, created, knownEarly int
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
	o.diag.tau = p.Tau
	if p.EarlyMatch > 0 || p.Refute || p.OptDelta > 0 {
		rep, ok := base.(agent.Replacer)
		if !ok {
			return nil, fmt.Errorf("o-temple: early_match, refute and opt_delta withdraw counts from the base learner (agent.Replacer), and this base cannot")
		}
		o.rep = rep
	}
	if p.OptDelta > 0 {
		v, ok := base.(agent.Valued)
		if !ok {
			return nil, fmt.Errorf("o-temple: opt_delta = %v needs a base learner whose plan's values can be read (mbie-eb); this base has none", p.OptDelta)
		}
		o.opt.values = v
	}
	return o, nil
}

// Library is the agent's template library.
func (o *OTempLe) Library() *template.Library { return o.lib }

// Base is the base learner of the current task.
func (o *OTempLe) Base() agent.Base { return o.l }

// tmplOf is the ID of pair i's template, −1 while it is not identified.
func (o *OTempLe) tmplOf(i int) int {
	k := o.ident.At(i)
	if k < 0 {
		return -1
	}
	return o.idents[k].tmpl
}

// BeginTask receives task M_t and starts with no visits, nothing known and nothing identified
// (Algorithm 1, lines 3–4); the library stays.
func (o *OTempLe) BeginTask(t agent.Task) error {
	if err := agent.BeginBase(o.l, t); err != nil {
		return err
	}
	o.S, o.A = t.S, t.A
	o.pending.Reset(t.S, t.A)
	o.own.Reset(t.S*t.A, 0)
	o.ident.Reset(t.S*t.A, -1)
	clear(o.idents)
	o.idents = o.idents[:0]
	o.augmented = buf.Zeroed(o.augmented, t.S*t.A)
	o.stats = taskStats{}
	o.deferred, o.seqIdentified = 0, 0
	if o.p.EarlyMatch > 0 {
		o.early.begin(t.S * t.A)
	}
	if o.p.Refute {
		o.refutes.begin(t.S, t.A)
	}
	if o.p.OptDelta > 0 {
		o.opt.begin(t.S*t.A, t.Gamma)
	}
	o.diag.begin(t)
	return nil
}

// Act takes the base learner's action (line 6).
func (o *OTempLe) Act(s int) int { return o.l.Act(s) }

func (o *OTempLe) Observe(s, a int, r float64, next int) { o.observe(s*o.A+a, next, r) }

// observe records the transition of pair i (line 7) and reports whether it was one of the pair's
// own samples — recorded by the learner while the pair is unknown, or counted towards m_s while
// its match is provisional — and whether the pair's template was identified (lines 8–15). The
// base learner makes the pair known at m samples and plans (lines 16–18).
func (o *OTempLe) observe(i, next int, r float64) (own, identified bool) {
	if o.p.Refute && o.refuted(i, next, r) {
		return true, false
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

// attempt reports whether pair i, not yet identified, tries to identify its template at this
// own sample: at ‖n(s,a,·)‖₁ = m_s (line 8), and with Retry at the later attempts of retry.go.
func (o *OTempLe) attempt(i int) bool {
	return o.own.At(i) == o.p.Ms || o.p.Retry && o.retryAttempt(i)
}

// identify runs GEN-TT on pair i's own samples (line 9), finds the closest library template
// within τ̂ (lines 10, 13) and identifies the pair with it, or with a new template when there is
// none, and reports whether it did.
func (o *OTempLe) identify(i int, endOfTask bool) bool {
	sigma, ranked := template.Ranking(o.pending.Successors(i), o.S)
	reward := o.pending.R(i) // of the pair's own samples: m_s without Retry
	t, _ := o.lib.Match(pointOf(ranked, reward))
	return o.identifyAs(i, t, sigma, ranked, reward, endOfTask)
}

// identifyAs matches pair i, whose own samples are ranked by σ with their reward sum, to
// template t: it augments the pair with t's visits through σ⁻¹ (line 15) and gives t the pair's
// own samples (TT-update, line 14); when t is nil it adds them as a new template (line 11).
// Options first settle what they placed before identification, and Retry may defer a new template.
func (o *OTempLe) identifyAs(i int, t *template.Template, sigma template.Sigma, ranked []template.Count, reward float64, endOfTask bool) bool {
	o.withdrawOptimistic(i)
	if o.provisional(i) {
		o.settleEarly(i, t, sigma)
	}
	if t == nil && o.p.Retry && o.defers(i, endOfTask) {
		return false
	}
	transferred := false // augmented here (a kept provisional match was augmented before)
	if t != nil {
		// Augment with the visits other pairs gave the template, then give it this pair's own.
		if !o.augmented[i] {
			o.augment(i, t.Augmentation(sigma), t.Reward)
			transferred = true
			o.mayRefute(i)
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
	o.diag.identified(i, t)
	if transferred {
		o.diag.markWrong(i, t)
	}
	return true
}

// replace sets pair i's counts in the base to its own samples succ with their reward sum,
// withdrawing what an option augmented it with.
func (o *OTempLe) replace(i int, succ []mdp.Succ, reward float64) { o.rep.Replace(i, succ, reward) }

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

// augment adds counts that are not pair i's own samples to its estimate (AUGMENT), once per
// task, scaled down to TemplateWeight when it is set (weight.go).
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
func (o *OTempLe) Phase(s int) agent.Phase { return o.diag.phase(s, o.st.Phase(s)) }

// PolicyVersion and Policy are its base learner's (agent.PolicyInfo).
func (o *OTempLe) PolicyVersion() uint64       { return o.l.PolicyVersion() }
func (o *OTempLe) Policy(s int, dst []float64) { o.l.Policy(s, dst) }

func (o *OTempLe) EndEpisode() { o.l.EndEpisode() }

// ObserveTerminal marks s terminal in the base learner (agent.TerminalObserver).
func (o *OTempLe) ObserveTerminal(s int) { o.l.ObserveTerminal(s) }

// EndTask gives every identified pair's remaining own samples to its template (Algorithm 1,
// lines 19–20), aligned by the pair's σ, then consolidates the library (decision 8).
func (o *OTempLe) EndTask() {
	if o.p.Retry {
		o.identifyDeferred()
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
// pairs, own samples recorded, and own samples until all pairs were known; each option's counts;
// and, against the true model, the diagnostics of truth.go.
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
	m = append(m, o.st.RewardMetrics()...) // the base's clamped rewards, when its reward model has a range
	m = append(m, o.optionMetrics()...)
	return append(m, o.diag.metrics(o.lib, o.stats.identified)...)
}

// optionMetrics are the counts of the options that are on, in a fixed order.
func (o *OTempLe) optionMetrics() []agent.Metric {
	var m []agent.Metric
	if o.p.Retry {
		m = append(m, agent.Metric{Name: "deferred_identifications", Value: float64(o.deferred)})
	}
	if o.p.EarlyMatch > 0 {
		m = append(m, agent.Metric{Name: "early_matches", Value: float64(o.early.matches)},
			agent.Metric{Name: "early_withdrawn", Value: float64(o.early.withdrawn)})
	}
	if o.p.Refute {
		m = append(m, agent.Metric{Name: "refuted_matches", Value: float64(o.refutes.refuted)})
	}
	if o.p.OptDelta > 0 {
		m = append(m, agent.Metric{Name: "optimistic_placements", Value: float64(o.opt.placements)})
	}
	if o.p.SeqDelta > 0 {
		m = append(m, agent.Metric{Name: "sequential_identifications", Value: float64(o.seqIdentified)})
	}
	return m
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
