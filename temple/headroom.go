package temple

import (
	"fmt"
	"math"
	"reflect"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

// TrueTemplatesType is TrueTemplates' agent type: the name a config gives it (type: true-templates)
// and its errors begin with.
const TrueTemplatesType = "true-templates"

// HeadroomParams are the parameters of TrueTemplates, the reference learner that is told every
// pair's true template.
type HeadroomParams struct {
	// Strength is c: a pair's true template enters its statistics as c pseudo-counts (each rank's
	// round(c·p), the reward c·r), so it outweighs the pair's own samples by far.
	Strength int64 `yaml:"strength" doc:"pseudo-counts a pair's true template is placed with (each rank round(strength·p)), once the pair has seen as many next states as the template has ranks" range:">= 1"`
	// Partial places a template before the pair has seen all its ranks (placement).
	Partial bool `yaml:"partial" doc:"place a template whose ranks the pair has not all seen: its first ranks on the states seen, the rest left out (meant for bases that keep every sample: psrl)"`
}

// DefaultHeadroomParams place a true template with 1000 pseudo-counts.
func DefaultHeadroomParams() HeadroomParams { return HeadroomParams{Strength: 1000} }

// Validate names the first parameter out of range.
func (p HeadroomParams) Validate() error {
	if p.Strength < 1 {
		return fmt.Errorf("true-templates: strength = %d, want at least 1", p.Strength)
	}
	return nil
}

// True-Templates registers over a base learner, searching its base's keys and its strength.
func init() {
	agenttypes.Register(agenttypes.Type{Name: TrueTemplatesType, Display: "True-Templates", Summary: "a reference, not a method: told each pair's true template (its sorted distribution and reward; the placement still learned) over a base learner, the headroom of templates",
		Defaults: func() agenttypes.Params {
			return &TrueTemplatesSpec{Base: agenttypes.DefaultBase(), HeadroomParams: DefaultHeadroomParams()}
		}, PairBytes: 240, Search: agenttypes.Dims(agenttypes.LogInt("strength", 1, 10000)), Rank: 150})
}

// TrueTemplatesSpec is the reference told each pair's true template as a config gives it: its
// strength and its base learner.
type TrueTemplatesSpec struct {
	Base           agenttypes.BaseSpec
	HeadroomParams `yaml:",inline"`
}

// Over is the base.
func (p *TrueTemplatesSpec) Over() agenttypes.BaseSpec { return p.Base }

// Keys are the reference's keys and its base's.
func (p *TrueTemplatesSpec) Keys() []string {
	return append(p.Base.Keys(), yamlkeys.Of(reflect.TypeOf(p.HeadroomParams))...)
}

// UnmarshalYAML reads the base (base: NAME and its keys) and the strength, failing on any other
// key with its line.
func (p *TrueTemplatesSpec) UnmarshalYAML(n *yaml.Node) error {
	return agenttypes.DecodeOverBase(n, TrueTemplatesType, &p.Base, p.Keys, &p.HeadroomParams)
}

// MarshalYAML writes the base and its parameters, then the strength.
func (p *TrueTemplatesSpec) MarshalYAML() (any, error) {
	return agenttypes.EncodeOverBase(p.Base, &p.HeadroomParams)
}

// Validate checks the base's keys, then the strength.
func (p *TrueTemplatesSpec) Validate() error {
	if err := p.Base.Params.Validate(); err != nil {
		return err
	}
	return p.HeadroomParams.Validate()
}

// New builds the reference over a fresh base learner.
func (p *TrueTemplatesSpec) New(agenttypes.Context) (agent.Agent, error) {
	base, err := p.Base.Params.NewBase()
	if err != nil {
		return nil, err
	}
	return NewTrueTemplates(p.HeadroomParams, base)
}

// BuiltFromModels: the reference reads each task's true model, so it runs on stored models only,
// never driven step by step from outside (agenttypes.NeedsModels).
func (*TrueTemplatesSpec) BuiltFromModels() {}

// MemoryBytes is the base's and the reference's own copy of every pair's samples.
func (p *TrueTemplatesSpec) MemoryBytes(typeBytes, S, A, _ int64) int64 {
	return agenttypes.OverBaseMemory(p.Base, typeBytes, S, A)
}

// TrueTemplates is a reference, not a method: a learner told each pair's true template — its
// sorted next-state distribution and its mean reward, read from the task's true model
// (agent.Task.Truth) — over a base learner. What it is not told is the placement: which next
// state holds which rank. A pair's true template is placed once the pair has seen as many
// distinct next states as the template has ranks, on the states its own samples rank by count
// (σ, the maximum-likelihood placement: by the rearrangement inequality the largest counts go to
// the largest probabilities), and placed again after every own sample (σ may change). Before
// that, the pair has its own samples and the base's own exploration.
//
// It measures the headroom of templates on a family: what a template learner whose
// identification were free and always right could gain over the same base. It is not a proof of
// a bound: a learner could also act on a template's ranks not yet seen, which counts cannot
// express (docs/decisions.md, "Templates as a prior").
type TrueTemplates struct {
	p HeadroomParams
	overBase
	truth template.Truth
}

// NewTrueTemplates validates p and returns the reference learner over base.
func NewTrueTemplates(p HeadroomParams, base agent.Base) (*TrueTemplates, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	ob, err := newOverBase(base, TrueTemplatesType)
	if err != nil {
		return nil, err
	}
	return &TrueTemplates{p: p, overBase: ob}, nil
}

// BeginTask begins the base and reads the task's true templates; a task without a true model
// (a simulator, an on-demand maze) is an error: this learner cannot run without the truth.
func (h *TrueTemplates) BeginTask(t agent.Task) error {
	if t.Truth == nil {
		return fmt.Errorf("true-templates: task %d has no true model (a simulator or a task computed on demand), and this reference learner reads each pair's true template from it", t.Index)
	}
	if err := h.begin(t); err != nil {
		return err
	}
	h.truth = template.OfModel(t.Truth)
	return nil
}

// Observe records the sample with the base and, when the base kept it as an own sample, places
// the pair's true template on the states its samples rank.
func (h *TrueTemplates) Observe(s, a int, r float64, next int) {
	i := s*h.A + a
	if !h.record(i, next, r) {
		return
	}
	if k := h.truth.PairTemplate[i]; k >= 0 {
		g := h.truth.Templates[k]
		h.place(i, g, g.R, h.p.Strength, h.p.Partial)
	}
}

// EndTask does nothing: the reference learns nothing across tasks, it is told.
func (h *TrueTemplates) EndTask() {}

// TaskMetrics are the base's statistics and the pairs whose true template was placed.
func (h *TrueTemplates) TaskMetrics() []agent.Metric {
	return append(h.st.Metrics(), agent.Metric{Name: "placed_pairs", Value: float64(h.placedPairs())})
}

// overBase is what the template-as-prior learners share: a base learner, the own samples of
// every pair in the task, and the placement of a template's counts beside them.
type overBase struct {
	l    agent.Base
	rep  agent.Replacer // l: a placement is withdrawn and placed again
	st   *agent.Stats
	S, A int
	own  mdp.Counts // own samples of each pair in this task
	// placed[i] says that pair i's statistics hold a template's counts beside its own samples.
	placed []bool
	succ   []mdp.Succ // placePooled's buffer
}

// newOverBase is the shared part of the learner named typ over base, which must be able to
// replace a pair's counts (agent.Replacer).
func newOverBase(base agent.Base, typ string) (overBase, error) {
	rep, ok := base.(agent.Replacer)
	if !ok {
		return overBase{}, fmt.Errorf("%s: places templates by replacing a pair's counts in the base learner (agent.Replacer), and this base cannot", typ)
	}
	return overBase{l: base, rep: rep, st: base.Stats()}, nil
}

// Base is the base learner.
func (o *overBase) Base() agent.Base { return o.l }

func (o *overBase) begin(t agent.Task) error {
	if err := agent.BeginBase(o.l, t); err != nil {
		return err
	}
	o.S, o.A = t.S, t.A
	o.own.Reset(t.S, t.A)
	o.placed = buf.Zeroed(o.placed, t.S*t.A)
	return nil
}

// record offers pair i's sample to the base and keeps it among the pair's own samples when the
// base kept it.
func (o *overBase) record(i, next int, r float64) bool {
	if !o.l.Record(i, next, r) {
		return false
	}
	o.own.Add(i, next, 1, r)
	return true
}

// place sets pair i's statistics to its own samples plus template g with strength c, placed on
// the states its own samples rank (σ: its largest counts on g's first ranks), each pseudo-count
// with reward r (g's own, or the pair's own mean: TemplateRewards), and reports whether it
// could. A template with more ranks than the pair has seen states is placed only when partial
// is set — its first ranks on the states seen, the counts of the others left out, so the pair's
// model is g conditioned on the states it has seen; otherwise the pair is left its own samples.
// A template with fewer ranks than the pair has seen states is never placed.
func (o *overBase) place(i int, g template.Point, r float64, c int64, partial bool) bool {
	sigma, _ := template.Ranking(o.own.Successors(i), o.S)
	if k := ranks(g); len(sigma.Top) > k || len(sigma.Top) < k && !partial {
		o.unplace(i)
		return false
	}
	succ := append([]mdp.Succ(nil), o.own.Successors(i)...)
	var added int64
	for j, p := range g.P {
		n := int64(math.Round(float64(c) * p))
		rank := int(rankOf(g, j))
		if n == 0 || rank >= len(sigma.Top) {
			continue
		}
		state := sigma.Top[rank]
		for k := range succ {
			if succ[k].State == state {
				succ[k].N += n
			}
		}
		added += n
	}
	o.rep.Replace(i, succ, o.own.R(i)+float64(added)*r)
	o.placed[i] = true
	return true
}

// placePooled sets pair i's statistics to its own samples plus m's samples of pair i (a whole-task
// model's pooled samples) and records them as placed.
func (o *overBase) placePooled(i int, m *mdp.Counts) { o.placeSamples(i, m.Successors(i), m.R(i)) }

// placeSamples sets pair i's statistics to its own samples plus the given ones (next states succ,
// reward sum r) and records them as placed.
func (o *overBase) placeSamples(i int, succ []mdp.Succ, r float64) {
	o.succ = append(o.succ[:0], o.own.Successors(i)...)
	for _, x := range succ {
		j := 0
		for j < len(o.succ) && o.succ[j].State != x.State {
			j++
		}
		if j == len(o.succ) {
			o.succ = append(o.succ, mdp.Succ{State: x.State})
		}
		o.succ[j].N += x.N
	}
	o.rep.Replace(i, o.succ, o.own.R(i)+r)
	o.placed[i] = true
}

// unplace leaves pair i exactly its own samples, if a template was placed on it.
func (o *overBase) unplace(i int) {
	if o.placed[i] {
		o.rep.Replace(i, o.own.Successors(i), o.own.R(i))
		o.placed[i] = false
	}
}

func (o *overBase) placedPairs() int {
	n := 0
	for _, p := range o.placed {
		if p {
			n++
		}
	}
	return n
}

// ranks is the number of ranks of g up to its last one of non-zero probability.
func ranks(g template.Point) int {
	k := 0
	for j, p := range g.P {
		if p > 0 {
			k = max(k, int(rankOf(g, j))+1)
		}
	}
	return k
}

// rankOf is the rank of entry j of g.P.
func rankOf(g template.Point, j int) int32 {
	if g.Rank == nil {
		return int32(j)
	}
	return g.Rank[j]
}

func (o *overBase) Act(s int) int         { return o.l.Act(s) }
func (o *overBase) EndEpisode()           { o.l.EndEpisode() }
func (o *overBase) ObserveTerminal(s int) { o.l.ObserveTerminal(s) }

// Phase is the base's (StepInfo); the policy is the base's (PolicyInfo).
func (o *overBase) Phase(s int) agent.Phase     { return o.st.Phase(s) }
func (o *overBase) PolicyVersion() uint64       { return o.l.PolicyVersion() }
func (o *overBase) Policy(s int, dst []float64) { o.l.Policy(s, dst) }
