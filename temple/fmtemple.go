package temple

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

// FMTempLeType is FM-TempLe's agent type: the name a config gives it (type: fm-temple) and its
// errors begin with.
const FMTempLeType = "fm-temple"

// FMParams are FM-TempLe's parameters: O-TempLe's plus the finite-model ones.
type FMParams struct {
	Params   `yaml:",inline"`
	T1       int     `yaml:"t1" doc:"number of phase-1 tasks T_1" range:">= 1"`                                                 // number of phase-1 tasks T_1
	ModelGap float64 `yaml:"model_gap" doc:"model gap Γ: a phase-1 task's model joins the closest group within Γ" range:">= 0"` // model gap Γ: a task's model joins a group within Γ
	Eta      int     `yaml:"eta" doc:"model error tolerance η: the mismatches a group survives" range:">= 1"`                   // model error tolerance η: mismatches a group survives
	// TemplateTransfer (off in the paper presets) augments a pair, once the model is identified,
	// with the visits of the library template its group's estimate matches, placed by the
	// group's ranking σ — Algorithm 3's AUGMENT(v_ρ(s,a,c*), …, σ) read literally — instead of
	// the group's own counts (decision 11 keeps those to about m_s per pair and phase-1 task, so
	// they rarely make a pair known). A pair whose group estimate has fewer than m_s samples or
	// matches no template within τ̂ still receives the group's counts.
	TemplateTransfer bool `yaml:"template_transfer,omitempty" doc:"not in the paper's presets: once the model is identified, a pair receives the visits of the library template its group's estimate matches (Algorithm 3's AUGMENT(v_ρ(s,a,c*))), not the group's own counts"`
}

// DefaultFMParams are the paper's finite-model settings: τ̂ 0.24, T_1 15, Γ 0.6, η 3.
func DefaultFMParams() FMParams {
	p := FMParams{Params: DefaultParams(), T1: 15, ModelGap: 0.6, Eta: 3}
	p.Tau = 0.24
	return p
}

// Validate names the first parameter out of range; m is the base learner's known threshold.
func (p FMParams) Validate(m int64) error {
	if err := p.Params.validate(FMTempLeType, m); err != nil {
		return err
	}
	switch {
	case p.T1 < 1:
		return fmt.Errorf("fm-temple: t1 = %d, want at least 1", p.T1)
	case !(p.ModelGap >= 0) || math.IsInf(p.ModelGap, 0):
		return fmt.Errorf("fm-temple: model_gap = %v, want a finite number >= 0", p.ModelGap)
	case p.Eta < 1:
		return fmt.Errorf("fm-temple: eta = %d, want at least 1", p.Eta)
	}
	return nil
}

// FM-TempLe registers over a base learner, with O-TempLe's search space and its model gap.
func init() {
	agenttypes.Register(agenttypes.Type{Name: FMTempLeType, Display: "FM-TempLe", Summary: "Finite-Model Template Learning (the paper's Algorithm 3) over a base learner",
		Defaults: func() agenttypes.Params {
			return &FMTempLeSpec{Base: agenttypes.DefaultBase(), FMParams: DefaultFMParams()}
		}, PairBytes: 400,
		Search: agenttypes.Join(templeSearch, agenttypes.LogReal("model_gap", 0.01, 2)),
		Scales: agenttypes.Dims(agenttypes.LinInt("eta", 1, 10), agenttypes.LogInt("t1", 1, 100)), Rank: 110})
}

// FMTempLeSpec is FM-TempLe as a config gives it: its base learner, O-TempLe's parameters and the
// finite-model ones; m_s follows the base's m as O-TempLe's does.
type FMTempLeSpec struct {
	Base     agenttypes.BaseSpec
	FMParams `yaml:",inline"`
	msSet    bool // a config set m_s
}

// Over is the base.
func (p *FMTempLeSpec) Over() agenttypes.BaseSpec { return p.Base }

// Keys are FM-TempLe's keys and its base's.
func (p *FMTempLeSpec) Keys() []string {
	return append(p.Base.Keys(), yamlkeys.Of(reflect.TypeOf(p.FMParams))...)
}

// UnmarshalYAML reads the base and the template parameters, failing on any other key.
func (p *FMTempLeSpec) UnmarshalYAML(n *yaml.Node) error {
	if err := agenttypes.DecodeOverBase(n, FMTempLeType, &p.Base, p.Keys, &p.FMParams); err != nil {
		return err
	}
	followMs(n, p.Base, &p.Ms, &p.msSet)
	return nil
}

// Follow keeps m_s following the base's m in a copy of orig (agenttypes.Clone).
func (p *FMTempLeSpec) Follow(orig agenttypes.Params) { p.msSet = orig.(*FMTempLeSpec).msSet }

// MarshalYAML writes the base and its parameters, then the template parameters.
func (p *FMTempLeSpec) MarshalYAML() (any, error) {
	return agenttypes.EncodeOverBase(p.Base, &p.FMParams)
}

// Validate checks the base's keys, then FM-TempLe's against the base's m.
func (p *FMTempLeSpec) Validate() error {
	if err := p.Base.Params.Validate(); err != nil {
		return err
	}
	return p.FMParams.Validate(p.Base.KnownThreshold())
}

// New builds FM-TempLe over a fresh base learner.
func (p *FMTempLeSpec) New(agenttypes.Context) (agent.Agent, error) {
	base, err := p.Base.Params.NewBase()
	if err != nil {
		return nil, err
	}
	return NewFMTempLe(p.FMParams, base)
}

// MemoryBytes is a template learner's own tables, its base's, and its T_1 phase-1 models.
func (p *FMTempLeSpec) MemoryBytes(typeBytes, S, A, _ int64) int64 {
	return agenttypes.OverBaseMemory(p.Base, typeBytes, S, A) + int64(p.T1)*agenttypes.RecordPairBytes*S*A + refuteMemory(p.Refute, S, A)
}

// FMTempLe is Finite-Model Template Learning (paper Algorithm 3). In phase 1 (the first T_1
// tasks) it is O-TempLe and records each task's own samples as a model (decision 11). After task
// T_1 it groups the models: a model joins the closest group within Γ, where the model distance is
// the largest ‖P̂_x(·|s,a) − P̂_g(·|s,a)‖₂ + |R̂_x(s,a) − R̂_g(s,a)| over the pairs both have seen
// at least m_s times, or starts a new group. In phase 2 it runs O-TempLe and scores the groups: every group starts at
// η and loses a point each time a pair's identified template and permutation disagree with the
// group's (decision 13). When exactly one group keeps a positive score the task's model is
// identified and every pair not yet augmented receives that group's counts (decisions 12–14).
// If every group drops to zero the task simply continues as O-TempLe.
type FMTempLe struct {
	p FMParams
	o *OTempLe

	task    int
	own     mdp.Counts    // this task's own samples (phase 1)
	records []*mdp.Counts // phase-1 models
	groups  []*mdp.Counts // model groups, fixed after T_1

	scores     []int
	identified int             // identified group, −1 while none
	steps      int             // steps observed in this task
	foundAfter int             // steps before the model was identified, −1 while not
	freq       []mdp.StateProb // scratch: a group's (or an augmentation's) frequencies of one pair, by state
	truthRow   []mdp.StateProb // scratch: the true outcomes of one pair, by state
	truth      *mdp.Model      // the task's true model, for diagnostics only
}

// NewFMTempLe validates p and returns an agent over the base learner base.
func NewFMTempLe(p FMParams, base agent.Base) (*FMTempLe, error) {
	if err := p.Validate(base.KnownThreshold()); err != nil {
		return nil, err
	}
	o, err := NewOTempLe(p.Params, base)
	if err != nil {
		return nil, err
	}
	return &FMTempLe{p: p, o: o}, nil
}

// Groups are the model groups formed after phase 1, as summed counts.
func (f *FMTempLe) Groups() []*mdp.Counts { return f.groups }

// Identified is the group identified in the current task, or −1.
func (f *FMTempLe) Identified() int { return f.identified }

// Base is the base learner.
func (f *FMTempLe) Base() agent.Base { return f.o.l }

func (f *FMTempLe) phase2() bool { return f.task >= f.p.T1 }

func (f *FMTempLe) BeginTask(t agent.Task) error {
	f.task = t.Index
	if f.phase2() && len(f.groups) > 0 && (f.groups[0].S != t.S || f.groups[0].A != t.A) {
		return fmt.Errorf("fm-temple: task %d has %d states and %d actions, but the models of phase 1 have %d and %d",
			t.Index, t.S, t.A, f.groups[0].S, f.groups[0].A)
	}
	if err := f.o.BeginTask(t); err != nil {
		return err
	}
	f.own.Reset(t.S, t.A)
	f.truth = t.Truth
	f.steps, f.identified, f.foundAfter = 0, -1, -1
	f.scores = f.scores[:0]
	if f.phase2() {
		for range f.groups {
			f.scores = append(f.scores, f.p.Eta)
		}
		f.checkIdentified()
	}
	return nil
}

func (f *FMTempLe) Act(s int) int { return f.o.Act(s) }

func (f *FMTempLe) Observe(s, a int, r float64, next int) {
	f.steps++
	i := s*f.o.A + a
	own, identified := f.o.observe(i, next, r)
	if !f.phase2() {
		if own {
			f.own.Add(i, next, 1, r)
		}
		return
	}
	if identified && f.identified < 0 {
		f.score(i)
		f.checkIdentified()
	}
}

// score lowers the score of every group whose template or permutation for pair i disagrees
// with the pair's just-identified template (Algorithm 3, lines 11–14): the L2 distance between
// the template put back in state order by the pair's σ (so equal probabilities may swap freely)
// and the group's estimate, plus the reward difference.
func (f *FMTempLe) score(i int) {
	id := f.o.idents[f.o.ident.At(i)]
	g := f.o.lib.Get(id.tmpl).Mean()
	pair := g.Placed(id.sigma)
	for c, grp := range f.groups {
		if grp.N(i) == 0 || f.scores[c] <= 0 {
			continue
		}
		n := float64(grp.N(i))
		f.freq = mdp.Frequencies(f.freq, grp.Successors(i), n)
		if mdp.L2(pair, f.freq)+math.Abs(g.R-grp.R(i)/n) > f.p.Tau {
			f.scores[c]--
		}
	}
}

// checkIdentified identifies the model when exactly one group keeps a positive score, and
// augments every pair not yet augmented with that group's counts.
func (f *FMTempLe) checkIdentified() {
	alive := -1
	for c, u := range f.scores {
		if u > 0 {
			if alive >= 0 {
				return
			}
			alive = c
		}
	}
	if alive < 0 {
		return
	}
	f.identified, f.foundAfter = alive, f.steps
	grp := f.groups[alive]
	for i := range f.o.augmented {
		if f.o.augmented[i] || grp.N(i) == 0 {
			continue
		}
		add, reward := grp.Successors(i), grp.R(i)
		if f.p.TemplateTransfer && grp.N(i) >= f.p.Ms {
			sigma, ranked := template.Ranking(add, f.o.S)
			if t, _ := f.o.lib.Match(pointOf(ranked, reward)); t != nil {
				add, reward = t.Augmentation(sigma), t.Reward
			}
		}
		f.o.augment(i, add, reward)
		if f.farFromTruth(add, reward, i) {
			f.o.diag.mark(i)
		}
	}
}

// farFromTruth reports whether the counts add (with reward sum reward) given to pair i are
// farther than τ̂ from its true model, ‖P̂(·|s,a) − P(·|s,a)‖₂ + |R̂(s,a) − r(s,a)| > τ̂: a wrong
// transfer (diagnostics only).
func (f *FMTempLe) farFromTruth(add []mdp.Succ, reward float64, i int) bool {
	if f.truth == nil {
		return false
	}
	s, a := i/f.o.A, i%f.o.A
	f.truthRow = f.truthRow[:0]
	for _, t := range f.truth.Row(s, a) {
		f.truthRow = append(f.truthRow, mdp.StateProb{State: int32(t.Next), P: t.Prob})
	}
	slices.SortFunc(f.truthRow, func(x, y mdp.StateProb) int { return cmp.Compare(x.State, y.State) })
	var n int64
	for _, x := range add {
		n += x.N
	}
	f.freq = mdp.Frequencies(f.freq, add, float64(n))
	return mdp.L2(f.truthRow, f.freq)+math.Abs(f.truth.ExpectedReward(s, a)-reward/float64(n)) > f.p.Tau
}

// Phase is O-TempLe's phase of s, where a pair augmented from the identified model group
// counts as misidentified when the group's estimate is farther than τ̂ from the truth (StepInfo).
func (f *FMTempLe) Phase(s int) agent.Phase { return f.o.Phase(s) }

// PolicyVersion and Policy are its base learner's (agent.PolicyInfo).
func (f *FMTempLe) PolicyVersion() uint64       { return f.o.l.PolicyVersion() }
func (f *FMTempLe) Policy(s int, dst []float64) { f.o.l.Policy(s, dst) }

func (f *FMTempLe) EndEpisode() { f.o.EndEpisode() }

// ObserveTerminal marks s terminal in the base learner (agent.TerminalObserver).
func (f *FMTempLe) ObserveTerminal(s int) { f.o.ObserveTerminal(s) }

func (f *FMTempLe) EndTask() {
	f.o.EndTask()
	if f.phase2() {
		return
	}
	f.records = append(f.records, f.own.Clone())
	if f.task == f.p.T1-1 {
		f.groupModels()
	}
}

// groupModels clusters the phase-1 records with the model gap Γ (decision 11), comparing the
// pairs both models have seen at least m_s times.
func (f *FMTempLe) groupModels() {
	f.groups = mdp.GroupModels(f.records, f.p.ModelGap, f.p.Ms)
	f.records = nil
}

// TaskMetrics adds to O-TempLe's diagnostics the phase, the number of model groups, whether and
// which group was identified, and after how many steps of the task.
func (f *FMTempLe) TaskMetrics() []agent.Metric {
	phase, id := 1.0, 0.0
	if f.phase2() {
		phase = 2
	}
	if f.identified >= 0 {
		id = 1
	}
	return append(f.o.TaskMetrics(),
		agent.Metric{Name: "phase", Value: phase},
		agent.Metric{Name: "groups", Value: float64(len(f.groups))},
		agent.Metric{Name: "model_identified", Value: id},
		agent.Metric{Name: "identified_group", Value: float64(f.identified)},
		agent.Metric{Name: "identified_after_steps", Value: float64(f.foundAfter)},
	)
}

// TemplateSnapshot is the snapshot of its O-TempLe.
func (f *FMTempLe) TemplateSnapshot() template.Snapshot { return f.o.TemplateSnapshot() }
