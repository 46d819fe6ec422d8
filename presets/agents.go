package presets

import (
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/baseline"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// The agent types the presets run, by the registry's names.
const (
	rmax          = learners.RMaxType
	mbieEB        = learners.MBIEEBType
	e3            = learners.E3Type
	ucrl2         = learners.UCRL2Type
	psrl          = learners.PSRLType
	qLearning     = learners.QLearningType
	oTempLe       = temple.OTempLeType
	fmTempLe      = temple.FMTempLeType
	fmrl          = baseline.FMRLType
	absRL         = baseline.AbsRLType
	lrmax         = baseline.LRMaxType
	maxQInitQ     = baseline.MaxQInitQType
	maxQInitDelQ  = baseline.MaxQInitDelayedQType
	maxQInitRMax  = baseline.MaxQInitRMaxType
	cucrl         = learners.CUCRLType
	trueTemplates = temple.TrueTemplatesType
	templatePrior = temple.TemplatePriorType
)

// agent is an agent of type typ at its type's defaults, reported under its type's name.
func agent(typ string) experiment.AgentSpec {
	t, err := agenttypes.Lookup(typ)
	if err != nil {
		panic(err) // a preset names a type that does not exist: a programming error
	}
	p := t.Defaults()
	return experiment.AgentSpec{Type: typ, Name: agenttypes.DisplayName(t, p), Params: p}
}

// paperAgents returns agents of the given types with the paper's settings (decision 18): RMax
// with balanced wandering (decision 1), m 500, m_s 50.
func paperAgents(types ...string) []experiment.AgentSpec {
	var out []experiment.AgentSpec
	for _, t := range types {
		out = append(out, paperAgent(t))
	}
	return out
}

// paperAgent is an agent of the given type at the paper's settings. Agents that plan pin
// planning: full, with which the presets' results were pinned (pinned_test.go): the default,
// delta planning, reaches the same tolerance but may break greedy ties differently.
func paperAgent(typ string) experiment.AgentSpec {
	a := agent(typ)
	if p := planning(a.Params); p != nil {
		*p = learners.PlanFull
	}
	return a
}

// overBase is O-TempLe over the base learner of single-task agent base (its parameters, not a
// copy: pass a fresh agent), with m_s following the base's m, named as its type names it
// (O-TempLe-MBIE-EB).
func overBase(base experiment.AgentSpec) experiment.AgentSpec {
	a := agent(oTempLe)
	a.Params.(*temple.OTempLeSpec).SetBase(agenttypes.BaseSpec{Name: base.Type, Params: base.Params.(agenttypes.BaseParams)})
	t, _ := agenttypes.Lookup(oTempLe)
	a.Name = agenttypes.DisplayName(t, a.Params)
	return a
}

// The accessors below give the parameters of an agent's learner, or of the base learner it runs
// over. planning, rMaxOf, psrlOf and mbieOf serve presets that set a key on every agent that has
// it, whatever its type: they are nil exactly when the type has no such key
// (TestAccessorsCoverEveryTypeWithTheKey holds them to the registry's keys). rmaxOf and templeOf
// serve presets that built the agent as RMax or a template learner, and are nil for any other.

// planning is the planner setting (planning:), nil for learners that do not plan by value
// iteration to a tolerance.
func planning(p any) *learners.Planning {
	switch p := p.(type) {
	case *learners.RMaxParams:
		return &p.Planning
	case *learners.MBIEEBParams:
		return &p.Planning
	case *learners.E3Params:
		return &p.Planning
	case *baseline.LRMaxParams:
		return &p.Planning
	case *baseline.FMRLParams:
		return &p.RMax.Planning
	case *baseline.MaxQInitRMaxParams:
		return &p.Planning
	}
	if b := baseOf(p); b != nil {
		return planning(b)
	}
	return nil
}

// rMaxOf is R_max, the reward an optimistic learner assumes of what it does not know (r_max:).
func rMaxOf(p any) *float64 {
	switch p := p.(type) {
	case *learners.RMaxParams:
		return &p.RMax
	case *learners.MBIEEBParams:
		return &p.RMax
	case *learners.E3Params:
		return &p.RMax
	case *learners.UCRL2Params:
		return &p.RMax
	case *learners.CUCRLParams:
		return &p.RMax
	case *baseline.LRMaxParams:
		return &p.RMax
	case *baseline.FMRLParams:
		return &p.RMax.RMax
	case *baseline.MaxQInitRMaxParams:
		return &p.RMax
	case *baseline.DelayedQParams:
		return &p.RMax
	case *baseline.AbsRLParams:
		return &p.DelayedQ.RMax
	}
	if b := baseOf(p); b != nil {
		return rMaxOf(b)
	}
	return nil
}

// rmaxOf is RMax's parameters, of RMax or of a learner over it.
func rmaxOf(p any) *learners.RMaxParams {
	if p, ok := p.(*learners.RMaxParams); ok {
		return p
	}
	if b := baseOf(p); b != nil {
		return rmaxOf(b)
	}
	return nil
}

// psrlOf is PSRL's parameters, of PSRL or of a learner over it (its reward_min:, reward_sd:, …).
func psrlOf(p any) *learners.PSRLParams {
	switch p := p.(type) {
	case *learners.PSRLParams:
		return p
	case *temple.TemplatePriorSpec:
		return &p.PSRLParams
	case *temple.LatentPSRLSpec:
		return &p.PSRLParams
	case *temple.HybridPriorSpec:
		return &p.PSRLParams
	}
	if b := baseOf(p); b != nil {
		return psrlOf(b)
	}
	return nil
}

// mbieOf is MBIE-EB's parameters, of MBIE-EB or of a learner over it (its beta:).
func mbieOf(p any) *learners.MBIEEBParams {
	if p, ok := p.(*learners.MBIEEBParams); ok {
		return p
	}
	if b := baseOf(p); b != nil {
		return mbieOf(b)
	}
	return nil
}

// templeOf is the template parameters of O-TempLe and FM-TempLe (m_s:, tau:, retry:, …).
func templeOf(p any) *temple.Params {
	switch p := p.(type) {
	case *temple.OTempLeSpec:
		return &p.Params
	case *temple.FMTempLeSpec:
		return &p.Params
	}
	return nil
}

// baseOf is the parameters of the base learner p runs over, nil if it runs over none.
func baseOf(p any) agenttypes.BaseParams {
	switch p := p.(type) {
	case *temple.OTempLeSpec:
		return p.Base.Params
	case *temple.FMTempLeSpec:
		return p.Base.Params
	case *temple.TrueTemplatesSpec:
		return p.Base.Params
	}
	return nil
}
