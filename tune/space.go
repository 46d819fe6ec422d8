package tune

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/experiment"
)

// space is what the search varies of one agent: the searched parameters (agenttypes.Dim), in the
// order they are set, and the parameters a config's search: block fixes.
type space struct {
	dims  []agenttypes.Dim
	fixed []param
}

// param is one parameter's value in a setting.
type param struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

// spaceOf is the search space of agent a: its type's (agenttypes.SearchSpace), narrowed or fixed by
// block, the agent's entry of the config's search: block. A value fixes the key, a pair of
// numbers [low, high] is a range (on the registry's scale for the key, else linear), a list of
// words is a list of choices.
//
// The registry's space is that of the agent with the block's fixed values set, less the keys
// those settings make inert (agenttypes.Inert: reward_sd under reward_posterior beta); a range
// for an inert key is refused, unless a list of choices in the block can make it live.
func spaceOf(a experiment.AgentSpec, block map[string]any) (space, error) {
	keys := make([]string, 0, len(block))
	for k := range block {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sp space
	dims := map[string]agenttypes.Dim{}
	for _, key := range keys {
		where := fmt.Sprintf("search: %s: %s", a.Name, key)
		if key == "base" {
			return space{}, fmt.Errorf("%s: the base is not searched; give base: in the agent's own block", where)
		}
		d, err := dimOf(a, key, block[key])
		if err != nil {
			return space{}, fmt.Errorf("%s: %w", where, err)
		}
		if d == nil {
			sp.fixed = append(sp.fixed, param{key, block[key]})
			continue
		}
		dims[key] = *d
	}
	fixed, _, err := sp.setting(a, nil) // the agent with the block's fixed values
	if err != nil {
		return space{}, fmt.Errorf("search: %s: %w", a.Name, err)
	}
	// The registry's keys the block does not give, less those inert under the block's fixed values
	// that no searched choice (the block's or the registry's) makes live: a block fixing
	// reward_posterior: beta leaves reward_sd out of PSRL's space.
	sp.dims = slices.DeleteFunc(agenttypes.SearchSpace(a.Type, fixed.Params), func(d agenttypes.Dim) bool { _, given := block[d.Key]; return given })
	searched := slices.Clone(sp.dims) // the registry's and the block's, whose choices can make a key live
	for _, key := range keys {
		if d, ok := dims[key]; ok {
			searched = append(searched, d)
		}
	}
	live := func(key string) bool { return agenttypes.Live(a.Type, fixed.Params, key, searched) }
	sp.dims = slices.DeleteFunc(sp.dims, func(d agenttypes.Dim) bool { return !live(d.Key) })
	for _, key := range keys {
		d, ok := dims[key]
		if !ok {
			continue
		}
		if !live(key) {
			return space{}, fmt.Errorf("search: %s: %s: the agent's settings leave %s unused (%s), so it is not searched; "+
				"set or search the setting that uses it", a.Name, key, key, inertWhy(fixed))
		}
		sp.dims = append(sp.dims, d)
	}
	// m_s is set after the base's m, so that it can be clamped to it.
	slices.SortStableFunc(sp.dims, func(x, y agenttypes.Dim) int { return boolInt(x.Key == "m_s") - boolInt(y.Key == "m_s") })
	if len(sp.dims) == 0 && agenttypes.Outside(a.Params) {
		return space{}, fmt.Errorf("search: %s: a learner of your own (type %s) is searched where the config's search: block says: "+
			"give its parameters ranges, e.g. search: {%s: {alpha: [0.01, 1]}} (docs/guides/own-learner.md)", a.Name, a.Type, a.Name)
	}
	if len(sp.dims) == 0 {
		return space{}, fmt.Errorf("search: %s: nothing left to search (every parameter of type %s is fixed); give one a range, "+
			"or leave the agent out of the config", a.Name, a.Type)
	}
	return sp, nil
}

// inertWhy names the settings of a that make keys inert, for messages.
func inertWhy(a experiment.AgentSpec) string {
	for _, key := range []string{"reward_posterior"} {
		if v, ok := agenttypes.Param(a.Params, key); ok {
			return fmt.Sprintf("%s: %v", key, v)
		}
	}
	return "its other settings"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dimOf reads one key's entry of a search: block: nil for a fixed value.
func dimOf(a experiment.AgentSpec, key string, v any) (*agenttypes.Dim, error) {
	list, ok := v.([]any)
	if !ok {
		if _, isMap := v.(map[string]any); isMap || v == nil {
			return nil, fmt.Errorf("want a value, a range [low, high] or a list of choices, got %v", v)
		}
		return nil, nil
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("the range is empty: want [low, high] with low < high, or a list of choices")
	}
	nums := make([]float64, 0, len(list))
	for _, x := range list {
		if f, ok := number(x); ok {
			nums = append(nums, f)
		}
	}
	if len(nums) == 0 { // choices
		var cs []string
		for _, x := range list {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("a list of choices holds words, got %v", x)
			}
			cs = append(cs, s)
		}
		if len(cs) < 2 {
			return nil, fmt.Errorf("one choice (%s) is not a search: give it as a value to fix it, or list two or more", cs[0])
		}
		return &agenttypes.Dim{Key: key, Choices: cs}, nil
	}
	if len(nums) != 2 || len(list) != 2 {
		return nil, fmt.Errorf("a range is two numbers [low, high], got %v", v)
	}
	d := agenttypes.Dim{Key: key, Low: nums[0], High: nums[1]}
	if scale, ok := agenttypes.Scale(a.Type, a.Params, key); ok {
		d.Log, d.Int = scale.Log, scale.Int
	} else {
		d.Int = isWhole(a, key)
	}
	switch {
	case math.IsNaN(d.Low) || math.IsNaN(d.High) || math.IsInf(d.Low, 0) || math.IsInf(d.High, 0):
		return nil, fmt.Errorf("range %v: want finite numbers", v)
	case !(d.Low < d.High):
		return nil, fmt.Errorf("range [%v, %v] is empty: want low < high (to fix the parameter, give one value)", d.Low, d.High)
	case d.Log && d.Low <= 0:
		return nil, fmt.Errorf("range [%v, %v]: %s is searched on a log scale, so low must be above 0", d.Low, d.High, key)
	}
	// Both ends must be valid values (m's with m_s at 1, since tune clamps m_s to m).
	check := space{dims: []agenttypes.Dim{d}}
	if key == "m" && slices.Contains(agenttypes.Keys(a.Params), "m_s") {
		check.fixed = []param{{"m_s", 1}}
	}
	for _, end := range []float64{0, 1 - 1e-12} {
		if _, _, err := check.setting(a, []any{value(d, end)}); err != nil {
			return nil, fmt.Errorf("range [%v, %v] goes out of bounds: %w", d.Low, d.High, err)
		}
	}
	return &d, nil
}

// number is x as a number, if it is one.
func number(x any) (float64, bool) {
	switch n := x.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// isWhole reports whether the agent's parameter key holds whole numbers (its field is an
// integer).
func isWhole(a experiment.AgentSpec, key string) bool {
	_, ok := intParam(a, key)
	return ok
}

// value maps u in [0, 1) to the dimension: a choice, or a number on its scale (whole numbers
// spread evenly over [low, high + 1) on that scale; others rounded to three significant digits,
// so that a tuned config reads well).
func value(d agenttypes.Dim, u float64) any {
	if len(d.Choices) > 0 {
		return d.Choices[min(int(u*float64(len(d.Choices))), len(d.Choices)-1)]
	}
	hi := d.High
	if d.Int {
		hi++
	}
	var x float64
	if d.Log {
		x = math.Exp(math.Log(d.Low) + u*(math.Log(hi)-math.Log(d.Low)))
	} else {
		x = d.Low + u*(hi-d.Low)
	}
	if d.Int {
		return int64(math.Min(math.Max(math.Floor(x), d.Low), d.High))
	}
	x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return math.Min(math.Max(x, d.Low), d.High)
}

// setting is agent a with the fixed parameters of sp and the searched ones at values (in sp.dims
// order; nil: the agent as the config gives it). m_s is clamped to the base's m.
func (sp space) setting(a experiment.AgentSpec, values []any) (experiment.AgentSpec, []param, error) {
	set := append([]param(nil), sp.fixed...)
	for k, v := range values {
		set = append(set, param{sp.dims[k].Key, v})
	}
	var searched []param
	for i, p := range set {
		v := p.Value
		if p.Key == "m_s" {
			if m, ok := intParam(a, "m"); ok && m > 0 {
				if ms, isInt := v.(int64); isInt && ms > m {
					v = m
				}
			}
		}
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return a, nil, err
		}
		q, err := agenttypes.Set(a.Type, a.Params, p.Key, &n)
		if err != nil {
			return a, nil, fmt.Errorf("%s = %v: %w", p.Key, v, err)
		}
		a.Params = q
		if i >= len(sp.fixed) {
			searched = append(searched, param{p.Key, v})
		}
	}
	if err := a.Params.Validate(); err != nil {
		if len(searched) == 0 {
			return a, nil, fmt.Errorf("the config's own setting with the search: block's fixed keys: %w", err)
		}
		return a, nil, fmt.Errorf("setting %s: %w", describe(searched), err)
	}
	return a, searched, nil
}

// intParam is the agent's whole-number parameter key.
func intParam(a experiment.AgentSpec, key string) (int64, bool) {
	v, ok := agenttypes.Param(a.Params, key)
	if !ok {
		return 0, false
	}
	switch x := reflect.ValueOf(v); x.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return x.Int(), true
	}
	return 0, false
}

// describe writes a setting's parameters as key=value, ...
func describe(ps []param) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s=%v", p.Key, p.Value))
	}
	return strings.Join(out, " ")
}
