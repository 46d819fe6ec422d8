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
// numbers when Int) or a list of Choices.
type Dim struct {
	Key       string
	Low, High float64
	Log, Int  bool
	Choices   []string
}

func logInt(key string, lo, hi float64) Dim {
	return Dim{Key: key, Low: lo, High: hi, Log: true, Int: true}
}
func logReal(key string, lo, hi float64) Dim { return Dim{Key: key, Low: lo, High: hi, Log: true} }
func linReal(key string, lo, hi float64) Dim { return Dim{Key: key, Low: lo, High: hi} }
func linInt(key string, lo, hi float64) Dim  { return Dim{Key: key, Low: lo, High: hi, Int: true} }
func choice(key string, cs ...string) Dim    { return Dim{Key: key, Choices: cs} }
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
// reward_sd under reward_posterior beta).
func SearchSpace(typ string, p Params) []Dim { return withoutInert(typ, fullSpace(typ, p), p) }

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
