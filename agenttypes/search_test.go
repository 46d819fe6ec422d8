package agenttypes_test

import (
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners"
)

// Both ends of every searched range, and every choice, are values the type's Validate accepts
// (with m_s, the template learners' identification threshold, at most the base's m, as temple
// tune clamps it), so that the registry's search spaces agree with its range: tags.
func TestSearchSpacesLieWithinTheBounds(t *testing.T) {
	var cases []struct {
		typ string
		p   agenttypes.Params
	}
	for _, ty := range agenttypes.Types() {
		if agenttypes.Outside(ty.Defaults()) { // searched only where a config's search: block says (outside_test.go)
			continue
		}
		if len(agenttypes.Keys(ty.Defaults())) == 0 { // no parameter, nothing to search (known-models)
			continue
		}
		cases = append(cases, struct {
			typ string
			p   agenttypes.Params
		}{ty.Name, ty.Defaults()})
	}
	for _, ty := range agenttypes.Types() { // the learners over PSRL with its Normal reward posterior too
		if slices.Contains(agenttypes.Keys(ty.Defaults()), "reward_posterior") {
			var n yaml.Node
			n.Encode(map[string]string{"reward_posterior": "normal"})
			p, err := agenttypes.Decode(ty.Name, &n)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, struct {
				typ string
				p   agenttypes.Params
			}{ty.Name, p})
		}
	}
	for _, base := range agenttypes.BaseNames() { // the template learners over every base
		for _, typ := range []string{"o-temple", "fm-temple"} {
			var n yaml.Node
			n.Encode(map[string]string{"base": base})
			p, err := agenttypes.Decode(typ, &n)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, struct {
				typ string
				p   agenttypes.Params
			}{typ, p})
		}
	}
	for _, c := range cases {
		space := agenttypes.SearchSpace(c.typ, c.p)
		if len(space) == 0 {
			t.Errorf("%s: no search space", c.typ)
		}
		for _, d := range space {
			for _, v := range endsOf(d) {
				p := c.p
				if d.Key == "m" && slices.Contains(agenttypes.Keys(p), "m_s") { // temple tune clamps m_s to m
					var one yaml.Node
					one.Encode(1)
					p, _ = agenttypes.Set(c.typ, p, "m_s", &one)
				}
				var n yaml.Node
				n.Encode(v)
				q, err := agenttypes.Set(c.typ, p, d.Key, &n)
				if err == nil && d.Key != "m_s" { // m_s is clamped to m by temple tune
					err = q.Validate()
				}
				if err != nil {
					t.Errorf("%s: %s = %v: %v", c.typ, d.Key, v, err)
				}
			}
		}
	}
}

func endsOf(d agenttypes.Dim) []any {
	if len(d.Choices) > 0 {
		var out []any
		for _, c := range d.Choices {
			out = append(out, c)
		}
		return out
	}
	if d.Int {
		return []any{int64(d.Low), int64(d.High)}
	}
	return []any{d.Low, d.High}
}

// Every option's scale is of a key some type has.
func TestScalesAreOfKnownKeys(t *testing.T) {
	keys := map[string]bool{}
	for _, ty := range agenttypes.Types() {
		for _, k := range agenttypes.Keys(ty.Defaults()) {
			keys[k] = true
		}
	}
	for _, d := range agenttypes.Scales() {
		if !keys[d.Key] {
			t.Errorf("scale of %q: no agent type has that key", d.Key)
		}
	}
}

// A key a setting makes inert is not searched unless one of the space's choices makes it live:
// every type over PSRL searches reward_posterior [beta, normal, normal-shared-noise] and with it
// the Normal posteriors' reward_sd and reward_noise, from any of them; the Beta range (a bound of the task, not a
// prior) is never searched; a config's range for reward_sd has its log scale (Scale).
func TestSearchSkipsInertKeys(t *testing.T) {
	has := func(space []agenttypes.Dim, key string) bool {
		return slices.ContainsFunc(space, func(d agenttypes.Dim) bool { return d.Key == key })
	}
	overPSRL := 0
	for _, ty := range agenttypes.Types() {
		src := "{"
		if slices.Contains(agenttypes.Keys(ty.Defaults()), "base") {
			src = "{base: psrl, "
		}
		beta := decodeParams(t, ty.Name, src+"}")
		if !slices.Contains(agenttypes.Keys(beta), "reward_posterior") {
			continue
		}
		overPSRL++
		normal := decodeParams(t, ty.Name, src+"reward_posterior: normal}")
		shared := decodeParams(t, ty.Name, src+"reward_posterior: normal-shared-noise}")
		for _, p := range []agenttypes.Params{beta, normal, shared} {
			if sp := agenttypes.SearchSpace(ty.Name, p); !has(sp, "reward_posterior") || !has(sp, "reward_sd") || !has(sp, "reward_noise") ||
				has(sp, "reward_min") || has(sp, "reward_max") {
				t.Errorf("%s %s searches %v, want reward_posterior, reward_sd and reward_noise, not the Beta range", ty.Name, src, sp)
			}
		}
		if d, ok := agenttypes.Scale(ty.Name, beta, "reward_sd"); !ok || !d.Log {
			t.Errorf("%s %s: reward_sd's scale %+v (%v), want its log scale", ty.Name, src, d, ok)
		}
	}
	if overPSRL < 6 { // psrl, template-prior, latent-psrl, and o-temple, fm-temple, true-templates over it
		t.Errorf("%d types found over PSRL, want at least 6", overPSRL)
	}
}

// hybrid-prior's part turned off is not searched: without templates none of the library's keys,
// without whole tasks not α; with both parts, both. σ_id, unused under the Normal reward
// posterior, is searched from that default too, since the searched choice beta uses it.
func TestHybridSearchesItsPartsOn(t *testing.T) {
	for src, want := range map[string][2][]string{
		"{}":                         {{"concentration", "m_s", "tau", "strength", "new_share", "identify_noise"}, nil},
		"{reward_posterior: normal}": {{"identify_noise"}, nil},
		"{templates: false}":         {{"concentration"}, {"m_s", "tau", "strength", "new_share"}},
		"{whole_tasks: false}":       {{"m_s", "tau", "strength", "new_share"}, {"concentration"}},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		p, err := agenttypes.Decode("hybrid-prior", n.Content[0])
		if err != nil {
			t.Fatal(err)
		}
		space := agenttypes.SearchSpace("hybrid-prior", p)
		has := func(key string) bool {
			return slices.ContainsFunc(space, func(d agenttypes.Dim) bool { return d.Key == key })
		}
		for _, key := range want[0] {
			if !has(key) {
				t.Errorf("hybrid-prior %s does not search %s", src, key)
			}
		}
		for _, key := range want[1] {
			if has(key) {
				t.Errorf("hybrid-prior %s searches %s, which it leaves unused", src, key)
			}
		}
	}
}

// Every learner over a base (o-temple, fm-temple, true-templates: every type with a base: key)
// searches, over every base it accepts, all that base searches as a single-task agent, before its
// own keys (so that m_s is set after the base's m). O-TempLe over C-UCRL searched none of its
// base's keys while the list of bases' search spaces was kept apart from the types' and lacked
// c-ucrl.
func TestLearnersOverABaseSearchTheirBasesKeys(t *testing.T) {
	overBase := 0
	for _, ty := range agenttypes.Types() {
		if !slices.Contains(agenttypes.Keys(ty.Defaults()), "base") {
			continue
		}
		overBase++
		for _, base := range agenttypes.BaseNames() {
			var n yaml.Node
			n.Encode(map[string]string{"base": base})
			p, err := agenttypes.Decode(ty.Name, &n)
			if err != nil {
				t.Errorf("%s over %s: %v", ty.Name, base, err)
				continue
			}
			want := agenttypes.SearchSpace(base, agenttypes.BaseDefaults(base).(agenttypes.Params))
			if len(want) == 0 {
				t.Errorf("base %s searches nothing as a single-task agent", base)
			}
			got := agenttypes.SearchSpace(ty.Name, p)
			if len(got) < len(want) {
				t.Errorf("%s over %s searches %v, want its base's %v first", ty.Name, base, got, want)
				continue
			}
			for i, d := range want {
				if got[i].Key != d.Key || got[i].Low != d.Low || got[i].High != d.High || got[i].Log != d.Log || got[i].Int != d.Int {
					t.Errorf("%s over %s: dimension %d is %+v, want its base's %+v", ty.Name, base, i, got[i], d)
				}
			}
		}
	}
	if overBase < 3 {
		t.Errorf("%d types over a base, want o-temple, fm-temple and true-templates at least", overBase)
	}
}

// A key in units of reward is searched in the agent's reward scale: MBIE-EB's β in its R_max
// (0.01 to 10 at the default r_max 1, 100 to 100 000 at RiverSwim's r_max 10 000, for MBIE-EB and
// a template learner over it); PSRL's σ₀ and σ in half the reward range the config gives (1 at
// [−1, 1], 5 000 at [0, 10 000]; 1 when the range is the task's), σ at most that half-width
// (Popoviciu's bound on a bounded reward's spread). hybrid-prior's σ_id is in
// half-widths of the range already, the same at every range.
func TestRewardKeysAreSearchedInRewardUnits(t *testing.T) {
	for _, c := range []struct {
		typ, src, key string
		low, high     float64
	}{
		{"mbie-eb", "{}", "beta", 0.01, 10},
		{"mbie-eb", "{r_max: 10000}", "beta", 100, 100000},
		{"o-temple", "{base: mbie-eb, r_max: 10000}", "beta", 100, 100000},
		{"fm-temple", "{base: mbie-eb, r_max: 0.5}", "beta", 0.005, 5},
		{"psrl", "{}", "reward_sd", 0.01, 10},
		{"psrl", "{reward_min: -1, reward_max: 1}", "reward_noise", 0.001, 1},
		{"psrl", "{reward_min: 0, reward_max: 10000}", "reward_sd", 50, 50000},
		{"latent-psrl", "{reward_min: 0, reward_max: 10000}", "reward_noise", 5, 5000},
		{"o-temple", "{base: psrl, reward_min: 0, reward_max: 10000}", "reward_sd", 50, 50000},
		{"hybrid-prior", "{reward_min: 0, reward_max: 10000}", "identify_noise", 0.01, 1},
		{"hybrid-prior", "{}", "identify_noise", 0.01, 1},
	} {
		space := agenttypes.SearchSpace(c.typ, decodeParams(t, c.typ, c.src))
		i := slices.IndexFunc(space, func(d agenttypes.Dim) bool { return d.Key == c.key })
		if i < 0 {
			t.Fatalf("%s %s does not search %s", c.typ, c.src, c.key)
		}
		if d := space[i]; d.Low != c.low || d.High != c.high || d.InRewardUnits {
			t.Errorf("%s %s searches %s in %+v, want [%v, %v] resolved", c.typ, c.src, c.key, d, c.low, c.high)
		}
	}
}
