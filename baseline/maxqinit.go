package baseline

import (
	"fmt"
	"math"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// Base learners of MaxQInit and Abs-RL.
const (
	BaseQLearning = learners.QLearningType
	BaseDelayedQ  = DelayedQType
	BaseRMax      = learners.RMaxType // MaxQInit only
)

// MaxQInitParams are MaxQInit's parameters: the base learner and its parameters (only those of
// Base are read) and the number of sampling tasks N.
type MaxQInitParams struct {
	Base string // BaseQLearning, BaseDelayedQ or BaseRMax
	// Tasks is N, the number of sampling tasks that start optimistic and feed the transfer table.
	Tasks int
	// QLearning are the parameters of the Q-learning base; its InitialQ is not used: the base
	// starts sampling tasks at V_max.
	QLearning learners.QLearningParams
	// DelayedQ are the parameters of the Delayed-Q base; its InitialQ is not used: the base starts
	// sampling tasks at V_max.
	DelayedQ DelayedQParams
	// RMax are the parameters of the RMax base.
	RMax learners.RMaxParams
}

// DefaultMaxQInit are MaxQInit's defaults on the given base: N = T1 = 15 (decision 25), Q-learning
// α 0.1 and ε 0.1, Delayed-Q m 5 and ε1 0.1, RMax with the paper's settings.
func DefaultMaxQInit(base string) MaxQInitParams {
	return MaxQInitParams{
		Base: base, Tasks: 15,
		QLearning: learners.DefaultQLearning(), DelayedQ: DefaultDelayedQ(), RMax: learners.DefaultRMax(),
	}
}

// Validate names the first parameter out of range.
func (p MaxQInitParams) Validate() error {
	if p.Tasks < 1 {
		return fmt.Errorf("maxqinit: sample_tasks = %d, want at least 1", p.Tasks)
	}
	var err error
	switch p.Base {
	case BaseQLearning:
		q := p.QLearning
		q.InitialQ = 0 // replaced by V_max
		err = q.Validate()
	case BaseDelayedQ:
		d := p.DelayedQ
		d.InitialQ = nil // replaced by V_max
		err = d.Validate()
	case BaseRMax:
		err = p.RMax.Validate()
	default:
		return fmt.Errorf("maxqinit: base %q, want %q, %q or %q", p.Base, BaseQLearning, BaseDelayedQ, BaseRMax)
	}
	if err != nil {
		return fmt.Errorf("maxqinit: %w", err)
	}
	return nil
}

// qBase is a base learner of MaxQInit: an agent whose Q table can be read at the end of a task
// and that can start a task from a given table (nil: optimistically).
type qBase interface {
	agent.Agent
	Q() []float64
	startFrom(q []float64)
}

type qlBase struct{ *learners.QLearning }

func (b qlBase) startFrom(q []float64) { b.SetInitial(q) }

type dqBase struct{ *DelayedQ }

func (b dqBase) startFrom(q []float64) { b.SetInitial(q) }

// rmaxBase is RMax whose unknown pairs can be planned at given values instead of the R_max
// self-loop.
type rmaxBase struct {
	l       learners.RMax
	unknown []float64
}

func (b *rmaxBase) startFrom(q []float64) { b.unknown = q }
func (b *rmaxBase) BeginTask(t agent.Task) error {
	b.l.Begin(t)
	if b.unknown != nil {
		b.l.SetUnknownValues(b.unknown)
	}
	return nil
}
func (b *rmaxBase) Act(s int) int                         { return b.l.Act(s) }
func (b *rmaxBase) Observe(s, a int, r float64, next int) { b.l.Record(s*b.l.A+a, next, r) }
func (b *rmaxBase) EndEpisode()                           {}
func (b *rmaxBase) EndTask()                              {}
func (b *rmaxBase) Q() []float64                          { return b.l.Q() }
func (b *rmaxBase) Phase(s int) agent.Phase               { return b.l.Stats().Phase(s) }
func (b *rmaxBase) TaskMetrics() []agent.Metric {
	return []agent.Metric{
		{Name: "known_pairs", Value: float64(b.l.Stats().KnownPairs())},
		{Name: "plans", Value: float64(b.l.Stats().Plans())},
	}
}

// MaxQInit is the value-transfer baseline of Abel, Jinnai, Guo, Konidaris & Littman, "Policy and
// value transfer in lifelong reinforcement learning" (ICML 2018), in its intended form (decision
// 25 in docs/decisions.md). For the first N tasks the base learner starts optimistic — Q-learning and
// Delayed-Q at Q ≡ V_max, RMax with its usual R_max self-loop for unknown pairs — and at the end of
// each of them the transfer table is updated element-wise,
//
//	Q_init(s,a) ← max(Q_init(s,a), Q_learned(s,a)),  starting from −∞,
//
// where Q_learned is the base learner's Q table at the end of the task (for RMax, its plan on the
// optimistic model). After task N, entries still at −∞ are set to V_max, and every later task
// starts from a copy of Q_init: Q-learning and Delayed-Q take it as their initial table, RMax plans
// its unknown pairs at the transferred value instead of the R_max self-loop.
//
// V_max is the largest true Q*(s,a) over the task models given to the constructor (exact value
// iteration with the experiment's γ). The published code never updated its table under the stock
// lifelong loop (and, as written, would skip the first task or keep V_max); that is not reproduced.
type MaxQInit struct {
	p     MaxQInitParams
	base  qBase
	info  agent.StepInfo // the base's phases, nil for the model-free bases
	S, A  int
	gamma float64
	vmax  float64

	table     []float64 // running element-wise maximum, −∞ where nothing was learned
	init      []float64 // the finalised table tasks after N start from; nil before
	task      int       // tasks begun
	unlearned int       // entries set to V_max at finalisation, −1 before
}

// NewMaxQInit validates p, computes V_max from the models of the task sequence with discount
// gamma, and returns the agent. The models must all have the same numbers of states and actions.
func NewMaxQInit(p MaxQInitParams, models []*mdp.Model, gamma float64) (*MaxQInit, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	vmax, S, A, err := maxQStar(models, gamma)
	if err != nil {
		return nil, err
	}
	m := &MaxQInit{p: p, S: S, A: A, gamma: gamma, vmax: vmax, unlearned: -1}
	switch p.Base {
	case BaseQLearning:
		q := p.QLearning
		q.InitialQ = vmax
		ql, err := learners.NewQLearning(q)
		if err != nil {
			return nil, fmt.Errorf("maxqinit: %w", err)
		}
		m.base = qlBase{ql}
	case BaseDelayedQ:
		d := p.DelayedQ
		d.InitialQ = &vmax
		dq, err := NewDelayedQ(d)
		if err != nil {
			return nil, fmt.Errorf("maxqinit: %w", err)
		}
		m.base = dqBase{dq}
	case BaseRMax:
		m.base = &rmaxBase{l: learners.RMax{P: p.RMax}}
	}
	m.info, _ = m.base.(agent.StepInfo)
	m.table = make([]float64, S*A)
	for i := range m.table {
		m.table[i] = math.Inf(-1)
	}
	return m, nil
}

// maxQStar returns the largest Q*(s,a) over the models and their common S and A.
func maxQStar(models []*mdp.Model, gamma float64) (vmax float64, S, A int, err error) {
	if len(models) == 0 {
		return 0, 0, 0, fmt.Errorf("maxqinit: no task models to compute V_max from")
	}
	vmax = math.Inf(-1)
	for k, m := range models {
		if m == nil {
			return 0, 0, 0, fmt.Errorf("maxqinit: task model %d is missing", k)
		}
		if k == 0 {
			S, A = m.S, m.A
		} else if m.S != S || m.A != A {
			return 0, 0, 0, fmt.Errorf("maxqinit: task model %d has S=%d A=%d, task model 0 has S=%d A=%d", k, m.S, m.A, S, A)
		}
		sol, err := mdp.ValueIteration(m, gamma, exactTolerance)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("maxqinit: task model %d: %w", k, err)
		}
		vmax = math.Max(vmax, mdp.Max(sol.Q))
	}
	return vmax, S, A, nil
}

// VMax is the largest true Q* over the task models.
func (m *MaxQInit) VMax() float64 { return m.vmax }

// Table is the transfer table: during the sampling phase the running maximum (−∞ where nothing
// was learned yet), afterwards the table every task starts from. It is owned by the agent.
func (m *MaxQInit) Table() []float64 {
	if m.init != nil {
		return m.init
	}
	return m.table
}

// Sampling reports whether the current task is one of the first N.
func (m *MaxQInit) Sampling() bool { return m.task <= m.p.Tasks }

func (m *MaxQInit) BeginTask(t agent.Task) error {
	if t.S != m.S || t.A != m.A {
		return fmt.Errorf("maxqinit: task %d has S=%d A=%d, the task models have S=%d A=%d", t.Index, t.S, t.A, m.S, m.A)
	}
	if t.Rand == nil {
		return fmt.Errorf("maxqinit: task %d has no random stream", t.Index)
	}
	if t.Gamma != m.gamma {
		return fmt.Errorf("maxqinit: task %d has discount %v, V_max was computed with %v", t.Index, t.Gamma, m.gamma)
	}
	m.task++
	if m.Sampling() {
		m.base.startFrom(nil)
	} else {
		m.base.startFrom(m.init)
	}
	if err := m.base.BeginTask(t); err != nil {
		return fmt.Errorf("maxqinit: %w", err)
	}
	return nil
}

func (m *MaxQInit) Act(s int) int { return m.base.Act(s) }

// Phase is the RMax base's phase of s (exploring while an action of s is unknown, planned at its
// transferred value); the model-free bases report none (StepInfo).
func (m *MaxQInit) Phase(s int) agent.Phase {
	if m.info == nil {
		return agent.Unclassified
	}
	return m.info.Phase(s)
}
func (m *MaxQInit) Observe(s, a int, r float64, next int) { m.base.Observe(s, a, r, next) }
func (m *MaxQInit) EndEpisode()                           { m.base.EndEpisode() }

// EndTask folds the learned table of a sampling task into the transfer table and finalises the
// table after the last of them.
func (m *MaxQInit) EndTask() {
	m.base.EndTask()
	if !m.Sampling() {
		return
	}
	for i, x := range m.base.Q() {
		if x > m.table[i] {
			m.table[i] = x
		}
	}
	if m.task == m.p.Tasks {
		m.init = make([]float64, len(m.table))
		m.unlearned = 0
		for i, x := range m.table {
			if math.IsInf(x, -1) {
				x = m.vmax
				m.unlearned++
			}
			m.init[i] = x
		}
	}
}

// TaskMetrics reports the phase (1 sampling, 2 transfer), V_max, the number of table entries
// set to V_max at finalisation (−1 before), and the base learner's diagnostics.
func (m *MaxQInit) TaskMetrics() []agent.Metric {
	phase := 2.0
	if m.Sampling() {
		phase = 1
	}
	out := []agent.Metric{
		{Name: "phase", Value: phase},
		{Name: "v_max", Value: m.vmax},
		{Name: "unlearned_entries", Value: float64(m.unlearned)},
	}
	if r, ok := m.base.(agent.Reporter); ok {
		out = append(out, r.TaskMetrics()...)
	}
	return out
}

// MaxQInit's agent types, one on each of its base learners.
const (
	MaxQInitQType        = "maxqinit-q-learning"
	MaxQInitDelayedQType = "maxqinit-delayed-q"
	MaxQInitRMaxType     = "maxqinit-rmax"
)

// maxQInitNeeds: MaxQInit keeps the largest Q-value of every pair over its sampling tasks.
var maxQInitNeeds = agenttypes.Needs{SameStates: true, SameActions: true, Why: "it keeps the largest Q-value of every pair over its sampling tasks"}

// MaxQInit registers once on each base, with the base's search space.
func init() {
	agenttypes.Register(agenttypes.Type{Name: MaxQInitQType, Display: "Q-MaxQInit", Summary: "MaxQInit (Abel et al. 2018) on Q-learning",
		Defaults: func() agenttypes.Params { return newMaxQInitQ() }, PairBytes: 32, Search: learners.QLearningSearch,
		Scales: agenttypes.Dims(agenttypes.LogInt("sample_tasks", 1, 100)), Needs: maxQInitNeeds, Rank: 190})
	agenttypes.Register(agenttypes.Type{Name: MaxQInitDelayedQType, Display: "DelayedQ-MaxQInit", Summary: "MaxQInit (Abel et al. 2018) on Delayed-Q",
		Defaults: func() agenttypes.Params { return newMaxQInitDelayedQ() }, PairBytes: 64, Search: DelayedQSearch, Needs: maxQInitNeeds, Rank: 200})
	agenttypes.Register(agenttypes.Type{Name: MaxQInitRMaxType, Display: "RMax-MaxQInit", Summary: "MaxQInit (Abel et al. 2018) on RMax",
		Defaults: func() agenttypes.Params { return newMaxQInitRMax() }, PairBytes: 200, Search: learners.RMaxSearch, Needs: maxQInitNeeds, Rank: 210})
}

// MaxQInitQParams are MaxQInit's parameters on Q-learning as a config gives them: N sampling
// tasks, α and ε.
type MaxQInitQParams struct {
	SampleTasks int     `yaml:"sample_tasks" doc:"N: tasks that start optimistic and feed the max table" range:">= 1"`
	Alpha       float64 `yaml:"alpha" doc:"learning rate α of Q-learning" range:"0 < alpha <= 1"`
	Epsilon     float64 `yaml:"epsilon" doc:"exploration rate ε of ε-greedy" range:"0 <= epsilon <= 1"`
}

func newMaxQInitQ() *MaxQInitQParams {
	d := DefaultMaxQInit(BaseQLearning)
	return &MaxQInitQParams{SampleTasks: d.Tasks, Alpha: d.QLearning.Alpha, Epsilon: d.QLearning.Epsilon}
}

func (p *MaxQInitQParams) params() MaxQInitParams {
	mp := DefaultMaxQInit(BaseQLearning)
	mp.Tasks, mp.QLearning.Alpha, mp.QLearning.Epsilon = p.SampleTasks, p.Alpha, p.Epsilon
	return mp
}

func (p *MaxQInitQParams) Validate() error { return p.params().Validate() }
func (p *MaxQInitQParams) New(ctx agenttypes.Context) (agent.Agent, error) {
	return NewMaxQInit(p.params(), ctx.Models, ctx.Gamma)
}

// MaxQInitDelayedQParams are MaxQInit's parameters on Delayed-Q as a config gives them: N
// sampling tasks, m and ε1.
type MaxQInitDelayedQParams struct {
	SampleTasks int     `yaml:"sample_tasks" doc:"N: tasks that start optimistic and feed the max table" range:">= 1"`
	M           int     `yaml:"m" doc:"m of Delayed-Q: samples gathered per attempted update" range:">= 1"`
	Epsilon1    float64 `yaml:"epsilon1" doc:"ε1 of Delayed-Q: an attempted update must lower Q(s,a) by at least 2ε1" range:"> 0"`
}

func newMaxQInitDelayedQ() *MaxQInitDelayedQParams {
	d := DefaultMaxQInit(BaseDelayedQ)
	return &MaxQInitDelayedQParams{SampleTasks: d.Tasks, M: d.DelayedQ.M, Epsilon1: d.DelayedQ.Epsilon1}
}

func (p *MaxQInitDelayedQParams) params() MaxQInitParams {
	mp := DefaultMaxQInit(BaseDelayedQ)
	mp.Tasks, mp.DelayedQ.M, mp.DelayedQ.Epsilon1 = p.SampleTasks, p.M, p.Epsilon1
	return mp
}

func (p *MaxQInitDelayedQParams) Validate() error { return p.params().Validate() }
func (p *MaxQInitDelayedQParams) New(ctx agenttypes.Context) (agent.Agent, error) {
	return NewMaxQInit(p.params(), ctx.Models, ctx.Gamma)
}

// MaxQInitRMaxParams are MaxQInit's parameters on RMax as a config gives them: N sampling tasks
// and RMax's parameters.
type MaxQInitRMaxParams struct {
	SampleTasks         int `yaml:"sample_tasks" doc:"N: tasks that start optimistic and feed the max table" range:">= 1"`
	learners.RMaxParams `yaml:",inline"`
}

func newMaxQInitRMax() *MaxQInitRMaxParams {
	d := DefaultMaxQInit(BaseRMax)
	return &MaxQInitRMaxParams{SampleTasks: d.Tasks, RMaxParams: d.RMax}
}

func (p *MaxQInitRMaxParams) params() MaxQInitParams {
	mp := DefaultMaxQInit(BaseRMax)
	mp.Tasks, mp.RMax = p.SampleTasks, p.RMaxParams
	return mp
}

func (p *MaxQInitRMaxParams) Validate() error { return p.params().Validate() }
func (p *MaxQInitRMaxParams) New(ctx agenttypes.Context) (agent.Agent, error) {
	return NewMaxQInit(p.params(), ctx.Models, ctx.Gamma)
}

// BuiltFromModels: MaxQInit samples the true models of the run's tasks (agenttypes.NeedsModels).
func (*MaxQInitQParams) BuiltFromModels()        {}
func (*MaxQInitDelayedQParams) BuiltFromModels() {}
func (*MaxQInitRMaxParams) BuiltFromModels()     {}

// LargeMemory: MaxQInit keeps flat tables on every task (the figures RMaxParams would lend it are
// RMax's alone).
func (*MaxQInitRMaxParams) LargeMemory() (agenttypes.LargeBytes, bool) {
	return agenttypes.LargeBytes{}, false
}
