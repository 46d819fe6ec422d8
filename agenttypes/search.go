package agenttypes

// The search spaces of temple tune: for every agent type, the parameters it searches unless a
// config says otherwise (its Type's Search, declared in the learner's file), each with a bounded
// range and a scale. The range: tags of the parameter structs say what Validate accepts, often an
// open range (m >= 1, beta >= 0); a search needs bounds and a scale, given in the Type, inside
// what Validate accepts (a test checks both ends of every range). Parameters that only bound
// numerical work (plan_tolerance, planning) or describe the task (r_max) are not searched; options
// not in the paper have a scale (the Type's Scales) but are searched only when a config's search:
// block gives them a range. Known thresholds and learning rates span orders of magnitude: log
// scales.

// Dim is one searched parameter: a range of numbers (Low to High, on a log scale when Log, whole
// numbers when Int) or a list of Choices. A range InRewardUnits is in units of the agent's reward
// scale (RewardScale: R_max for MBIE-EB, the half-width of the stated reward range for PSRL and
// the learners over it): SearchSpace multiplies it by the scale, so that a key in units of reward
// — MBIE-EB's bonus β, PSRL's σ₀ and σ, hybrid-prior's σ_id — is searched on the scale of the
// task's rewards (Strehl & Littman 2008 searched RiverSwim's β about 0.4·R_max).
type Dim struct {
	Key           string
	Low, High     float64
	Log, Int      bool
	Choices       []string
	InRewardUnits bool
}

// LogInt is key searched over the whole numbers lo to hi on a log scale.
func LogInt(key string, lo, hi float64) Dim {
	return Dim{Key: key, Low: lo, High: hi, Log: true, Int: true}
}

// LogReal is key searched over lo to hi on a log scale.
func LogReal(key string, lo, hi float64) Dim { return Dim{Key: key, Low: lo, High: hi, Log: true} }

// LinReal is key searched over lo to hi on a linear scale.
func LinReal(key string, lo, hi float64) Dim { return Dim{Key: key, Low: lo, High: hi} }

// LinInt is key searched over the whole numbers lo to hi on a linear scale.
func LinInt(key string, lo, hi float64) Dim { return Dim{Key: key, Low: lo, High: hi, Int: true} }

// Choice is key searched over the choices cs.
func Choice(key string, cs ...string) Dim { return Dim{Key: key, Choices: cs} }

// InRewardUnits is d with its range in units of the agent's reward scale (Dim.InRewardUnits).
func InRewardUnits(d Dim) Dim { d.InRewardUnits = true; return d }

// Dims is a search space of the given dimensions.
func Dims(ds ...Dim) []Dim { return ds }

// Join is space a, then the dimensions b (a is not changed): the space of a learner that has
// another's keys beside its own.
func Join(a []Dim, b ...Dim) []Dim { return append(append([]Dim(nil), a...), b...) }

// SearchSpace is what temple tune searches of an agent of type typ with parameters p unless a
// config narrows it: its type's parameters, and for a learner over a base its base's before its
// own (so that m_s is set after the base's m), less the keys p's settings make inert (Inert:
// reward_sd under reward_posterior beta), with a range InRewardUnits in p's reward scale.
func SearchSpace(typ string, p Params) []Dim {
	space := withoutInert(typ, fullSpace(typ, p), p)
	for k, d := range space {
		if d.InRewardUnits {
			unit := rewardScaleOf(p)
			space[k].Low, space[k].High, space[k].InRewardUnits = d.Low*unit, d.High*unit, false
		}
	}
	return space
}

// rewardScaler is implemented by parameters whose ranges InRewardUnits are in units of a reward
// scale of theirs: RewardScale is it. A learner over a base that does not implement it has its
// base's.
type rewardScaler interface{ RewardScale() float64 }

// rewardScaleOf is p's reward scale; 1 (a range InRewardUnits as written) for parameters without
// one, or with one that is not above 0.
func rewardScaleOf(p any) float64 {
	if r, ok := p.(rewardScaler); ok && r.RewardScale() > 0 {
		return r.RewardScale()
	}
	if o, ok := p.(overBase); ok {
		return rewardScaleOf(o.Over().Params)
	}
	return 1
}

// fullSpace is SearchSpace with the inert keys.
func fullSpace(typ string, p Params) []Dim {
	var out []Dim
	if o, ok := p.(overBase); ok {
		out = append(out, searchOf(o.Over().Name)...)
	}
	return append(out, searchOf(typ)...)
}

// searchOf is the search space of type typ (none for an unknown type).
func searchOf(typ string) []Dim {
	t, _ := Lookup(typ)
	return t.Search
}

// Scale is the scale temple tune searches key of an agent of type typ with parameters p on when a
// config gives it a range: its search space's, or an option's (the Scales a type declares, the
// same for a key wherever it is declared); ok is false for a key with none (a config's range is
// then linear).
func Scale(typ string, p Params, key string) (d Dim, ok bool) {
	for _, d := range append(fullSpace(typ, p), Scales()...) {
		if d.Key == key {
			return d, true
		}
	}
	return Dim{}, false
}

// Scales are the option scales every registered type declares, in rank order, each key once.
func Scales() []Dim {
	var out []Dim
	seen := map[string]bool{}
	for _, t := range inRankOrder() {
		for _, d := range t.Scales {
			if !seen[d.Key] {
				seen[d.Key] = true
				out = append(out, d)
			}
		}
	}
	return out
}
