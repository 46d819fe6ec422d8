package agenttypes

import (
	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/baseline"
	"github.com/temple-rl/temple/internal/registry"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// The agent types' names, the type: of a config. A learner's name is a constant in its own file
// (learners.RMaxType); these are the registry's names for the packages above it (the runner's
// presets, the benchmark), which do not import every learner's package.
const (
	RMaxType             = learners.RMaxType
	MBIEEBType           = learners.MBIEEBType
	E3Type               = learners.E3Type
	UCRL2Type            = learners.UCRL2Type
	PSRLType             = learners.PSRLType
	CUCRLType            = learners.CUCRLType
	QLearningType        = learners.QLearningType
	DelayedQType         = baseline.DelayedQType
	LRMaxType            = baseline.LRMaxType
	FMRLType             = baseline.FMRLType
	AbsRLType            = baseline.AbsRLType
	OTempLeType          = temple.OTempLeType
	FMTempLeType         = temple.FMTempLeType
	TemplatePriorType    = temple.TemplatePriorType
	LatentPSRLType       = temple.LatentPSRLType
	HybridPriorType      = temple.HybridPriorType
	TrueTemplatesType    = temple.TrueTemplatesType
	KnownModelsType      = temple.KnownModelsType
	PythonType           = "python"
	ExternalType         = "external"
	MaxQInitQType        = "maxqinit-q-learning" // MaxQInit on each of its base learners
	MaxQInitDelayedQType = "maxqinit-delayed-q"
	MaxQInitRMaxType     = "maxqinit-rmax"
)

// table is the registry of agent types: one entry per type, with everything the registry knows
// of it — its name, display name and summary, its defaults, its memory figure, its search space,
// what it needs of a run's tasks, and whether it is a single-task learner or a base learner. The
// base learners come first, in the order BaseNames lists them (the paper's RMax first).
//
// PairBytes are measured on 100×100 mazes (heap after two tasks), rounded up to cover pairs whose
// every outcome has been seen, for RMax, O-TempLe, FM-TempLe, FMRL and the model-free learners;
// MBIE-EB, E3 and UCRL2 (not measured) take RMax's figure with room for their extra per-pair
// arrays, C-UCRL (not measured) UCRL2's with room for its sorted profiles and classes; PSRL and
// LRMax count what grows beyond that (their memory methods).
//
// Search is what temple tune searches by default (search.go says how): each parameter with a
// bounded range inside what Validate accepts and a scale. Known thresholds and learning rates span
// orders of magnitude: log scales. A template learner searches its base's entry before its own
// keys (so that m_s is set after the base's m).
var table = registry.New("agent type %q", func(t Type) string { return t.Name }, []Type{
	{Name: RMaxType, Display: "RMax", Summary: "RMax (Brafman & Tennenholtz 2002), the paper's base learner",
		Defaults: func() Params { return defaultRMax() }, PairBytes: 160, Search: rmaxSearch, SingleTask: true, base: true},
	{Name: MBIEEBType, Display: "MBIE-EB", Summary: "MBIE-EB, model-based interval estimation with an exploration bonus (Strehl & Littman 2008)",
		Defaults: func() Params { return &MBIEEB{learners.DefaultMBIEEB()} }, PairBytes: 200,
		Search: dims(perRMax(logReal("beta", 0.01, 10)), logInt("m", 1, 1000)), SingleTask: true, base: true},
	{Name: E3Type, Display: "E3", Summary: "E3, explicit explore or exploit (Kearns & Singh 2002), discounted",
		Defaults: func() Params { return &E3{learners.DefaultE3()} }, PairBytes: 200,
		Search: dims(logInt("m", 1, 500), logReal("epsilon", 0.001, 1)), SingleTask: true, base: true},
	{Name: UCRL2Type, Display: "UCRL2", Summary: "UCRL2, optimism over L1 confidence sets (Jaksch, Ortner & Auer 2010)",
		Defaults: func() Params { return &UCRL2{learners.DefaultUCRL2()} }, PairBytes: 200, Search: ucrl2Search, SingleTask: true, base: true},
	{Name: PSRLType, Display: "PSRL", Summary: "posterior sampling for RL (Osband, Russo & Van Roy 2013)",
		Defaults: func() Params { return defaultPSRL() }, PairBytes: 160, Search: psrlSearch, SingleTask: true, base: true},
	{Name: CUCRLType, Display: "C-UCRL", Summary: "C-UCRL with ApproxEquivalence (Asadi et al. 2019): UCRL2 pooling pairs with equal sorted transition profiles",
		Defaults: func() Params { return &CUCRL{learners.DefaultCUCRL()} }, PairBytes: 240,
		Search: join(ucrl2Search, linReal("epsilon", 0, 0.5)), SingleTask: true, base: true},
	{Name: QLearningType, Display: "Q-learning", Summary: "tabular Q-learning with ε-greedy exploration (Watkins 1992)",
		Defaults: func() Params { return &QLearning{learners.DefaultQLearning()} }, PairBytes: 16, Search: qLearningSearch, SingleTask: true},
	{Name: DelayedQType, Display: "Delayed-Q", Summary: "Delayed Q-learning (Strehl et al. 2006)",
		Defaults: func() Params { return &DelayedQ{baseline.DefaultDelayedQ()} }, PairBytes: 48, Search: delayedQSearch, SingleTask: true},
	{Name: LRMaxType, Display: "LRMax", Summary: "Lipschitz lifelong RMax (Lecarpentier et al. 2021), transferring bounds on Q* between tasks",
		Defaults: func() Params { return &LRMax{baseline.DefaultLRMax()} }, PairBytes: 160, Search: join(rmaxSearch, linReal("d_max", 0, 2)),
		Needs: Needs{SameStates: true, SameActions: true, Why: "it transfers bounds on Q* between tasks pair by pair"}},
	{Name: OTempLeType, Display: "O-TempLe", Summary: "Online Template Learning (the paper's Algorithm 1) over a base learner",
		Defaults: func() Params { return &OTempLe{Base: defaultBase(), Params: temple.DefaultParams()} }, PairBytes: 320, Search: templeSearch},
	{Name: FMTempLeType, Display: "FM-TempLe", Summary: "Finite-Model Template Learning (the paper's Algorithm 3) over a base learner",
		Defaults: func() Params { return &FMTempLe{Base: defaultBase(), FMParams: temple.DefaultFMParams()} }, PairBytes: 400,
		Search: join(templeSearch, logReal("model_gap", 0.01, 2))},
	// The template prior searches its library's parameters (m_s, τ̂, the strength c and the
	// new-template share ν) with PSRL's.
	{Name: TemplatePriorType, Display: "TemplatePrior-PSRL", Summary: "PSRL whose prior for each pair is a mixture over the library's templates and a new-template component (Thompson sampling with a mixture prior, Hong et al. 2022)",
		Defaults: func() Params {
			return &TemplatePrior{PSRL: *defaultPSRL(), PriorParams: temple.DefaultPriorParams()}
		}, PairBytes: 240,
		Search: join(psrlSearch, logInt("m_s", 1, 100), logReal("tau", 0.01, 1), logInt("strength", 1, 1000), logReal("new_share", 0.01, 0.5))},
	// latent-psrl searches PSRL's and α of its Chinese restaurant process over task models.
	{Name: LatentPSRLType, Display: "Latent-PSRL", Summary: "PSRL whose prior is a mixture over the task models seen so far and a new one: Wilson et al. 2007's model class acting as MixTS (Hong et al. 2022), the mixture learned across tasks as in Meta-TS (Kveton et al. 2021)",
		Defaults: func() Params {
			return &LatentPrior{PSRL: *defaultPSRL(), LatentParams: temple.DefaultLatentParams()}
		}, PairBytes: 200, Search: join(psrlSearch, logReal("concentration", 0.01, 100)),
		Needs: Needs{SameStates: true, SameActions: true, Why: "its posterior is over whole task models, pair by pair"}},
	// hybrid-prior searches PSRL's, α, the template library's (as template-prior) and the
	// weights' reward noise σ_id; the parts are ablations, not searched.
	{Name: HybridPriorType, Display: "Hybrid-Prior-PSRL", Summary: "PSRL whose prior is a Dirichlet-process mixture over the task models seen so far (Wilson et al. 2007) whose new model's pairs have the template library's mixture as their prior (template-prior's): one posterior over whole tasks and templates, ours",
		Defaults: func() Params {
			return &HybridPrior{PSRL: *defaultPSRL(), HybridParams: temple.DefaultHybridParams()}
		}, PairBytes: 280,
		Search: join(psrlSearch, logReal("concentration", 0.01, 100), logInt("m_s", 1, 100), logReal("tau", 0.01, 1),
			logInt("strength", 1, 1000), logReal("new_share", 0.01, 0.5), logReal("identify_noise", 0.01, 1))},
	{Name: TrueTemplatesType, Display: "True-Templates", Summary: "a reference, not a method: told each pair's true template (its sorted distribution and reward; the placement still learned) over a base learner, the headroom of templates",
		Defaults: func() Params {
			return &TrueTemplates{Base: defaultBase(), HeadroomParams: temple.DefaultHeadroomParams()}
		}, PairBytes: 240, Search: dims(logInt("strength", 1, 10000))},
	{Name: KnownModelsType, Display: "Known-Models", Summary: "a reference, not a method: the identification oracle, told the distinct models of the run's tasks (not which task has which) and acting by posterior sampling over them, the headroom of identification",
		Defaults: func() Params { return &KnownModels{} }, PairBytes: 120},
	{Name: FMRLType, Display: "FMRL", Summary: "finite-model RL (Brunskill & Li 2013), the paper's finite-model baseline",
		Defaults: func() Params { return &FMRL{baseline.DefaultFMRL()} }, PairBytes: 280,
		Search: join(rmaxSearch, logInt("m_s", 1, 500), logReal("model_gap", 0.01, 2)),
		Needs:  Needs{SameStates: true, SameActions: true, Why: "it clusters whole task models, pair by pair"}},
	{Name: AbsRLType, Display: "Abs-RL", Summary: "state abstraction of the tasks' true models + a model-free learner (Abel et al. 2018)",
		Defaults: func() Params { return &AbsRL{baseline.DefaultAbsRL(baseline.QStarEpsilon)} }, PairBytes: 64,
		Search: join(qLearningSearch, logReal("abstraction_epsilon", 0.001, 1)),
		Needs:  Needs{SameStates: true, Why: "its abstraction maps the states of the tasks' true models, which must be the same states"}},
	{Name: MaxQInitQType, Display: "Q-MaxQInit", Summary: "MaxQInit (Abel et al. 2018) on Q-learning",
		Defaults: func() Params { return newMaxQInitQ() }, PairBytes: 32, Search: qLearningSearch, Needs: maxQInitNeeds},
	{Name: MaxQInitDelayedQType, Display: "DelayedQ-MaxQInit", Summary: "MaxQInit (Abel et al. 2018) on Delayed-Q",
		Defaults: func() Params { return newMaxQInitDelayedQ() }, PairBytes: 64, Search: delayedQSearch, Needs: maxQInitNeeds},
	{Name: MaxQInitRMaxType, Display: "RMax-MaxQInit", Summary: "MaxQInit (Abel et al. 2018) on RMax",
		Defaults: func() Params { return newMaxQInitRMax() }, PairBytes: 200, Search: rmaxSearch, Needs: maxQInitNeeds},
	// The learners written outside temple are searched only where a config's search: block says.
	{Name: PythonType, Display: "Python", Summary: "a learner written as a Python class of your own (module:Class), run in a Python process by the runner's own code (docs/guides/own-learner.md)",
		Defaults: func() Params { return defaultPython() }},
	{Name: ExternalType, Display: "External", Summary: "a learner in any language, in a process of its own speaking temple's agent protocol on its standard input and output (docs/reference/external-agents.md)",
		Defaults: func() Params { return defaultExternal() }},
})

// The search spaces several entries share. UCRL2's δ sits under a logarithm and barely moves its
// widths; width_scale multiplies them (from 1, the published widths, down to a hundredth), so that
// tuning can narrow them as it moves MBIE-EB's β (issue 50). O-TempLe's own are m_s (at most the
// base's m: tune clamps it) and τ̂, a distance between sorted distributions (at most 2).
var (
	rmaxSearch      = dims(logInt("m", 1, 500))
	qLearningSearch = dims(logReal("alpha", 0.01, 1), logReal("epsilon", 0.001, 0.5))
	ucrl2Search     = dims(logReal("delta", 0.001, 0.5), logReal("width_scale", 0.01, 1))
	psrlSearch      = dims(logReal("prior", 0.01, 10), logReal("reward_sd", 0.01, 10), logReal("reward_noise", 0.01, 10), choice("reward_posterior", "beta", "normal"))
	delayedQSearch  = dims(logInt("m", 1, 500), logReal("epsilon1", 0.001, 1))
	templeSearch    = dims(logInt("m_s", 1, 500), logReal("tau", 0.01, 1))
)

// maxQInitNeeds: MaxQInit keeps the largest Q-value of every pair over its sampling tasks.
var maxQInitNeeds = Needs{SameStates: true, SameActions: true, Why: "it keeps the largest Q-value of every pair over its sampling tasks"}

// LRMax is LRMax's parameters.
type LRMax struct {
	baseline.LRMaxParams `yaml:",inline"`
}

func (p *LRMax) New(Context) (agent.Agent, error) { return baseline.NewLRMax(p.LRMaxParams) }

// memory is RMax's and, per task it keeps (max_memory, 0: all), a model of every pair.
func (p *LRMax) memory(typeBytes, S, A, tasks int64) int64 {
	kept := tasks
	if p.MaxMemory > 0 {
		kept = min(kept, int64(p.MaxMemory))
	}
	return (typeBytes + kept*recordPairBytes) * S * A
}

// recordPairBytes is one stored model of a pair (LRMax's memory, FM-TempLe's and FMRL's phase-1
// records).
const recordPairBytes = 100

// QLearning is Q-learning's parameters.
type QLearning struct {
	learners.QLearningParams `yaml:",inline"`
}

func (p *QLearning) New(Context) (agent.Agent, error) {
	return learners.NewQLearning(p.QLearningParams)
}

// FMRL is FMRL's parameters (its base is RMax by definition).
type FMRL struct {
	baseline.FMRLParams `yaml:",inline"`
}

func (p *FMRL) New(Context) (agent.Agent, error) { return baseline.NewFMRL(p.FMRLParams) }

// memory is RMax's and the models of FMRL's T_1 phase-1 tasks.
func (p *FMRL) memory(typeBytes, S, A, _ int64) int64 {
	return (typeBytes + int64(p.T1)*recordPairBytes) * S * A
}

// DelayedQ is Delayed Q-learning's parameters.
type DelayedQ struct {
	baseline.DelayedQParams `yaml:",inline"`
}

func (p *DelayedQ) New(Context) (agent.Agent, error) { return baseline.NewDelayedQ(p.DelayedQParams) }

// AbsRL is Abs-RL's parameters: the abstraction and the parameters of both of its learners.
type AbsRL struct {
	baseline.AbsRLParams `yaml:",inline"`
}

func (p *AbsRL) New(ctx Context) (agent.Agent, error) {
	return baseline.NewAbsRL(p.AbsRLParams, ctx.Models, ctx.Gamma)
}

// MaxQInitQ is MaxQInit on Q-learning: N sampling tasks, α and ε.
type MaxQInitQ struct {
	SampleTasks int     `yaml:"sample_tasks" doc:"N: tasks that start optimistic and feed the max table" range:">= 1"` // N: tasks that start optimistic and feed the max table
	Alpha       float64 `yaml:"alpha" doc:"learning rate α of Q-learning" range:"0 < alpha <= 1"`
	Epsilon     float64 `yaml:"epsilon" doc:"exploration rate ε of ε-greedy" range:"0 <= epsilon <= 1"`
}

func newMaxQInitQ() *MaxQInitQ {
	d := baseline.DefaultMaxQInit(baseline.BaseQLearning)
	return &MaxQInitQ{SampleTasks: d.Tasks, Alpha: d.QLearning.Alpha, Epsilon: d.QLearning.Epsilon}
}

func (p *MaxQInitQ) params() baseline.MaxQInitParams {
	mp := baseline.DefaultMaxQInit(baseline.BaseQLearning)
	mp.Tasks, mp.QLearning.Alpha, mp.QLearning.Epsilon = p.SampleTasks, p.Alpha, p.Epsilon
	return mp
}

func (p *MaxQInitQ) Validate() error { return p.params().Validate() }
func (p *MaxQInitQ) New(ctx Context) (agent.Agent, error) {
	return baseline.NewMaxQInit(p.params(), ctx.Models, ctx.Gamma)
}

// MaxQInitDelayedQ is MaxQInit on Delayed-Q: N sampling tasks, m and ε1.
type MaxQInitDelayedQ struct {
	SampleTasks int     `yaml:"sample_tasks" doc:"N: tasks that start optimistic and feed the max table" range:">= 1"`
	M           int     `yaml:"m" doc:"m of Delayed-Q: samples gathered per attempted update" range:">= 1"`
	Epsilon1    float64 `yaml:"epsilon1" doc:"ε1 of Delayed-Q: an attempted update must lower Q(s,a) by at least 2ε1" range:"> 0"`
}

func newMaxQInitDelayedQ() *MaxQInitDelayedQ {
	d := baseline.DefaultMaxQInit(baseline.BaseDelayedQ)
	return &MaxQInitDelayedQ{SampleTasks: d.Tasks, M: d.DelayedQ.M, Epsilon1: d.DelayedQ.Epsilon1}
}

func (p *MaxQInitDelayedQ) params() baseline.MaxQInitParams {
	mp := baseline.DefaultMaxQInit(baseline.BaseDelayedQ)
	mp.Tasks, mp.DelayedQ.M, mp.DelayedQ.Epsilon1 = p.SampleTasks, p.M, p.Epsilon1
	return mp
}

func (p *MaxQInitDelayedQ) Validate() error { return p.params().Validate() }
func (p *MaxQInitDelayedQ) New(ctx Context) (agent.Agent, error) {
	return baseline.NewMaxQInit(p.params(), ctx.Models, ctx.Gamma)
}

// MaxQInitRMax is MaxQInit on RMax: N sampling tasks and RMax's parameters.
type MaxQInitRMax struct {
	SampleTasks         int `yaml:"sample_tasks" doc:"N: tasks that start optimistic and feed the max table" range:">= 1"`
	learners.RMaxParams `yaml:",inline"`
}

func newMaxQInitRMax() *MaxQInitRMax {
	d := baseline.DefaultMaxQInit(baseline.BaseRMax)
	return &MaxQInitRMax{SampleTasks: d.Tasks, RMaxParams: d.RMax}
}

func (p *MaxQInitRMax) params() baseline.MaxQInitParams {
	mp := baseline.DefaultMaxQInit(baseline.BaseRMax)
	mp.Tasks, mp.RMax = p.SampleTasks, p.RMaxParams
	return mp
}

func (p *MaxQInitRMax) Validate() error { return p.params().Validate() }
func (p *MaxQInitRMax) New(ctx Context) (agent.Agent, error) {
	return baseline.NewMaxQInit(p.params(), ctx.Models, ctx.Gamma)
}
