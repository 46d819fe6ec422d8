package agenttypes

// The search spaces of temple tune: for every agent type, the parameters it searches unless a
// config says otherwise, each with a bounded range and a scale. The range: tags of the parameter
// structs say what Validate accepts, often an open range (m >= 1, beta >= 0); a search needs
// bounds and a scale, given here, inside what Validate accepts (a test checks both ends of every
// range). Parameters that only bound numerical work (plan_tolerance, planning) or describe the
// task (r_max) are not searched; options not in the paper have a scale but are searched only when
// a config's search: block gives them a range.

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

// Known thresholds and learning rates span orders of magnitude: log scales. UCRL2's δ sits under
// a logarithm and barely moves its widths; width_scale multiplies them (from 1, the published
// widths, down to a hundredth), so that tuning can narrow them as it moves MBIE-EB's β (issue 50).
var (
	rmaxDims     = dims(logInt("m", 1, 500))
	qLearnDims   = dims(logReal("alpha", 0.01, 1), logReal("epsilon", 0.001, 0.5))
	mbieDims     = dims(logReal("beta", 0.01, 10), logInt("m", 1, 1000))
	e3Dims       = dims(logInt("m", 1, 500), logReal("epsilon", 0.001, 1))
	ucrl2Dims    = dims(logReal("delta", 0.001, 0.5), logReal("width_scale", 0.01, 1))
	psrlDims     = dims(logReal("prior", 0.01, 10), logReal("reward_sd", 0.01, 10), logReal("reward_noise", 0.01, 10))
	delayedQDims = dims(logInt("m", 1, 500), logReal("epsilon1", 0.001, 1))
	// templeDims are O-TempLe's own: m_s (at most the base's m: tune clamps it) and τ̂, a
	// distance between sorted distributions (at most 2).
	templeDims = dims(logInt("m_s", 1, 500), logReal("tau", 0.01, 1))
)

// searched are the parameters each type searches by default; a template learner searches its
// base's (the base's own entry, as the single-task agent of that base) and its own.
var searched = map[string][]Dim{
	"rmax":                rmaxDims,
	"q-learning":          qLearnDims,
	"mbie-eb":             mbieDims,
	"e3":                  e3Dims,
	"ucrl2":               ucrl2Dims,
	"c-ucrl":              join(ucrl2Dims, linReal("epsilon", 0, 0.5)),
	"psrl":                psrlDims,
	"lrmax":               join(rmaxDims, linReal("d_max", 0, 2)),
	"delayed-q":           delayedQDims,
	"fmrl":                join(rmaxDims, logInt("m_s", 1, 500), logReal("model_gap", 0.01, 2)),
	"abs-rl":              join(qLearnDims, logReal("abstraction_epsilon", 0.001, 1)),
	"maxqinit-q-learning": qLearnDims,
	"maxqinit-delayed-q":  delayedQDims,
	"maxqinit-rmax":       rmaxDims,
	"o-temple":            templeDims,
	"fm-temple":           join(templeDims, logReal("model_gap", 0.01, 2)),
	// The template prior's library parameters (m_s, τ̂, the strength c and the new-template
	// share ν) with PSRL's.
	"template-prior": join(psrlDims, logInt("m_s", 1, 100), logReal("tau", 0.01, 1), logInt("strength", 1, 1000),
		logReal("new_share", 0.01, 0.5)),
	// latent-psrl: PSRL's and α of its Chinese restaurant process over task models.
	"latent-psrl": join(psrlDims, logReal("concentration", 0.01, 100)),
	// hybrid-prior: PSRL's, α, the template library's (as template-prior) and the weights' reward
	// noise σ_id; the parts are ablations, not searched.
	"hybrid-prior": join(psrlDims, logReal("concentration", 0.01, 100), logInt("m_s", 1, 100), logReal("tau", 0.01, 1),
		logInt("strength", 1, 1000), logReal("new_share", 0.01, 0.5), logReal("identify_noise", 0.01, 1)),
	"true-templates": dims(logInt("strength", 1, 10000)),
}

// scales are the scales of parameters searched only when a config gives them a range (the
// options not in the paper, and the paper's parameters left fixed by default).
var scales = dims(
	logInt("template_weight", 1, 1000), logInt("early_match", 1, 50), logInt("seq_min", 1, 50),
	logReal("seq_delta", 0.001, 0.5), logReal("opt_delta", 0.001, 0.5), linInt("eta", 1, 10), logInt("t1", 1, 100),
	logInt("sample_tasks", 1, 100), logReal("delta", 0.001, 0.5), logReal("xi", 0.01, 10), logReal("epsilon_m", 0.001, 1),
	choice("action_rule", "balanced-wandering", "optimistic"), choice("replan", "doubling", "every-sample"),
	choice("schedule", "episode", "tsde", "doubling"), choice("prior_support", "all", "observed"),
	choice("planning_width", "paper", "ucrl2"),
)

// SearchSpace is what temple tune searches of an agent of type typ with parameters p unless a
// config narrows it: its type's parameters, and for a template learner its base's before its
// own (so that m_s is set after the base's m), less the keys p's settings make inert (Inert:
// reward_sd under reward_posterior beta).
func SearchSpace(typ string, p Params) []Dim { return withoutInert(fullSpace(typ, p), p) }

// fullSpace is SearchSpace with the inert keys.
func fullSpace(typ string, p Params) []Dim {
	var out []Dim
	switch t := p.(type) {
	case *OTempLe:
		out = append(out, searched[t.Base.Name]...)
	case *FMTempLe:
		out = append(out, searched[t.Base.Name]...)
	case *TrueTemplates:
		out = append(out, searched[t.Base.Name]...)
	}
	if dims, ok := searched[typ]; ok {
		return append(out, dims...)
	}
	if t, err := Lookup(typ); err == nil { // a type registered from another module
		return append(out, t.Search...)
	}
	return out
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
