package agenttypes

import "github.com/temple-rl/temple/learners"

// The search spaces of temple tune: for every agent type, the parameters it searches unless a
// config says otherwise (its entry's Search, in the table of types.go), each with a bounded range
// and a scale. The range: tags of the parameter structs say what Validate accepts, often an open
// range (m >= 1, beta >= 0); a search needs bounds and a scale, given in the entry, inside what
// Validate accepts (a test checks both ends of every range). Parameters that only bound numerical
// work (plan_tolerance, planning) or describe the task (r_max) are not searched; options not in the
// paper have a scale but are searched only when a config's search: block gives them a range.

// Dim is one searched parameter: a range of numbers (Low to High, on a log scale when Log, whole
// numbers when Int) or a list of Choices. A range PerRMax is in units of the agent's R_max (its
// r_max key): SearchSpace multiplies it by R_max, so that MBIE-EB's β, a bonus in units of reward,
// is searched on the scale of the task's rewards (Strehl & Littman 2008 searched RiverSwim's β
// about 0.4·R_max).
type Dim struct {
	Key       string
	Low, High float64
	Log, Int  bool
	Choices   []string
	PerRMax   bool
}

func logInt(key string, lo, hi float64) Dim {
	return Dim{Key: key, Low: lo, High: hi, Log: true, Int: true}
}
func logReal(key string, lo, hi float64) Dim { return Dim{Key: key, Low: lo, High: hi, Log: true} }
func linReal(key string, lo, hi float64) Dim { return Dim{Key: key, Low: lo, High: hi} }
func linInt(key string, lo, hi float64) Dim  { return Dim{Key: key, Low: lo, High: hi, Int: true} }
func choice(key string, cs ...string) Dim    { return Dim{Key: key, Choices: cs} }
func perRMax(d Dim) Dim                      { d.PerRMax = true; return d }
func dims(ds ...Dim) []Dim                   { return ds }
func join(a []Dim, b ...Dim) []Dim           { return append(append([]Dim(nil), a...), b...) }

// scales are the scales of parameters searched only when a config gives them a range (the
// options not in the paper, and the paper's parameters left fixed by default).
var scales = dims(
	logInt("template_weight", 1, 1000), logInt("early_match", 1, 50), logInt("seq_min", 1, 50),
	logReal("seq_delta", 0.001, 0.5), logReal("opt_delta", 0.001, 0.5), linInt("eta", 1, 10), logInt("t1", 1, 100),
	logInt("sample_tasks", 1, 100), logReal("delta", 0.001, 0.5), logReal("xi", 0.01, 10), logReal("epsilon_m", 0.001, 1),
	choice("action_rule", "balanced-wandering", "optimistic"), choice("replan", "doubling", "every-sample"),
	choice("schedule", "episode", "tsde", "doubling"), choice("prior_support", "all", "observed"),
	choice("planning_width", string(learners.PaperPlanningWidth), string(learners.UCRL2PlanningWidth)),
)

// SearchSpace is what temple tune searches of an agent of type typ with parameters p unless a
// config narrows it: its type's parameters, and for a template learner its base's before its
// own (so that m_s is set after the base's m), less the keys p's settings make inert (Inert:
// reward_sd under reward_posterior beta), with a range PerRMax in p's R_max.
func SearchSpace(typ string, p Params) []Dim {
	space := withoutInert(typ, fullSpace(typ, p), p)
	for k, d := range space {
		if d.PerRMax {
			unit := rMaxOf(p)
			space[k].Low, space[k].High, space[k].PerRMax = d.Low*unit, d.High*unit, false
		}
	}
	return space
}

// rMaxer is implemented by parameters with an R_max (r_max), and by a template learner, whose
// base's it is.
type rMaxer interface{ rMax() float64 }

func (p *MBIEEB) rMax() float64        { return p.RMax }
func (p *OTempLe) rMax() float64       { return rMaxOf(p.Base.Params) }
func (p *FMTempLe) rMax() float64      { return rMaxOf(p.Base.Params) }
func (p *TrueTemplates) rMax() float64 { return rMaxOf(p.Base.Params) }

// rMaxOf is p's R_max; 1 (a range PerRMax as written) for parameters without one, or with an
// R_max that is not above 0.
func rMaxOf(p any) float64 {
	if r, ok := p.(rMaxer); ok && r.rMax() > 0 {
		return r.rMax()
	}
	return 1
}

// fullSpace is SearchSpace with the inert keys.
func fullSpace(typ string, p Params) []Dim {
	var out []Dim
	switch t := p.(type) {
	case *OTempLe:
		out = append(out, searchOf(t.Base.Name)...)
	case *FMTempLe:
		out = append(out, searchOf(t.Base.Name)...)
	case *TrueTemplates:
		out = append(out, searchOf(t.Base.Name)...)
	}
	return append(out, searchOf(typ)...)
}

// searchOf is the search space of type typ's entry (none for an unknown type).
func searchOf(typ string) []Dim {
	t, _ := Lookup(typ)
	return t.Search
}

// Scale is the scale temple tune searches key of an agent of type typ with parameters p on when a
// config gives it a range: its search space's, or a known option's; ok is false for a key with
// none (a config's range is then linear).
func Scale(typ string, p Params, key string) (d Dim, ok bool) {
	for _, d := range append(fullSpace(typ, p), scales...) {
		if d.Key == key {
			return d, true
		}
	}
	return Dim{}, false
}
