package agenttypes_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/agenttypes"
	_ "github.com/temple-rl/temple/alllearners"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/temple"
)

func node(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// maze is a 3×3 maze of the online setting, for building agents that need true models.
func maze(t *testing.T) *mdp.Model {
	t.Helper()
	mz := env.Maze{Width: 3, Height: 3, Slip: make([]float64, 9), Goals: []env.Cell{{X: 3, Y: 3}}, StepCost: 0.2, GoalReward: 1, Actions: 4}
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEveryTypeRoundTrips: every registered type's defaults validate and read back from what
// Encode writes as the same parameters (TestEveryTypeRunsOnDefaults builds and runs them).
func TestEveryTypeRoundTrips(t *testing.T) {
	for _, typ := range agenttypes.Types() {
		if agenttypes.Outside(typ.Defaults()) { // its class or command is the user's (outside_test.go)
			continue
		}
		t.Run(typ.Name, func(t *testing.T) {
			p := typ.Defaults()
			if err := p.Validate(); err != nil {
				t.Fatalf("defaults do not validate: %v", err)
			}
			n, err := agenttypes.Encode(p)
			if err != nil {
				t.Fatal(err)
			}
			back, err := agenttypes.Decode(typ.Name, n)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := yaml.Marshal(p)
			b, _ := yaml.Marshal(back)
			if string(a) != string(b) {
				t.Errorf("round trip changed the parameters:\n%s\nback:\n%s", a, b)
			}
			var keys []string
			for i := 0; i < len(n.Content); i += 2 {
				keys = append(keys, n.Content[i].Value)
			}
			for _, k := range keys { // omitempty options that are off are not written
				if !slices.Contains(agenttypes.Keys(p), k) {
					t.Errorf("wrote key %q, not one of the type's keys %v", k, agenttypes.Keys(p))
				}
			}
		})
	}
}

func TestDecodeRejectsKeysOfOtherTypes(t *testing.T) {
	for _, c := range []struct{ typ, src, want string }{
		{"o-temple", "tau: 0.2\nalpha: 0.1", `line 2: agent type o-temple (base rmax) has no parameter "alpha" (it has base, m, r_max, action_rule, plan_tolerance, planning, m_s, tau,`},
		{"rmax", "m: 5\nm_s: 2", `line 2: agent type rmax has no parameter "m_s" (it has m, r_max`},
		{"q-learning", "gamma: 0.9", `line 1: agent type q-learning has no parameter "gamma"`},
		{"o-temple", "base: dqn", `line 1: base = "dqn", want one of rmax`},
		{"fm-temple", "model_gap: 0.5\nbase: rmax\nxi: 1", `line 3: agent type fm-temple (base rmax) has no parameter "xi"`},
		{"nope", "", `agent type "nope", want one of abs-rl,`},
		{"o-temple", "base: ucrl2\nbeta: 0.3", `line 2: agent type o-temple (base ucrl2) has no parameter "beta" (it has base, delta,`},
		{"o-temple", "base: psrl\nprior: 0.5\nbeta: 1", `line 3: agent type o-temple (base psrl) has no parameter "beta"`},
		{"psrl", "delta: 0.1", `agent type psrl has no parameter "delta"`},
	} {
		_, err := agenttypes.Decode(c.typ, node(t, c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s {%s}: error %v, want it to contain %q", c.typ, c.src, err, c.want)
		}
	}
}

// TestUnknownNamesSuggest: a misspelt agent type, base or key gets a "did you mean" with the
// closest names; a name close to none gets none.
func TestUnknownNamesSuggest(t *testing.T) {
	for _, c := range []struct{ typ, src, want string }{
		{"o-tempel", "", `; did you mean "o-temple"?`},
		{"rmx", "", `; did you mean "rmax"?`},
		{"mbieeb", "", `; did you mean "mbie-eb"?`},
		{"o-temple", "base: ucrl3", `; did you mean "ucrl2"?`},
		{"o-temple", "ms: 10", `; did you mean "m" or "m_s"?`},
		{"o-temple", "base: e3\nepsilonn: 0.2", `; did you mean "epsilon"?`},
		{"fm-temple", "model-gap: 0.5", `; did you mean "model_gap"?`},
		{"q-learning", "alpah: 0.1", `; did you mean "alpha"?`},
		{"psrl", "shedule: tsde", `; did you mean "schedule"?`},
	} {
		_, err := agenttypes.Decode(c.typ, node(t, c.src))
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s {%s}: error %v, want it to end in %q", c.typ, c.src, err, c.want)
		}
	}
	if _, err := agenttypes.Decode("zzzzzz", nil); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("a name close to no type: error %v, want one without a suggestion", err)
	}
}

func TestValidateNamesTheKey(t *testing.T) {
	for _, c := range []struct{ typ, src, want string }{
		{"o-temple", "m_s: 600", "o-temple: m_s = 600, want 1 <= m_s <= m (m = 500)"},
		{"o-temple", "m: 40\nm_s: 50", "o-temple: m_s = 50, want 1 <= m_s <= m (m = 40): set m >= 50 or m_s <= 40"},
		{"fm-temple", "base: e3\nm_s: 50", "m_s = 50, want 1 <= m_s <= m (m = 16): set m >= 50 or m_s <= 16"},
		{"o-temple", "planning: sometimes", `rmax: planning "sometimes"`},
		{"fm-temple", "t1: 0", "fm-temple: t1 = 0"},
		{"q-learning", "alpha: 2", "q-learning: alpha = 2"},
		{"mbie-eb", "beta: -1", "mbie-eb: beta = -1, want a finite number >= 0"},
		{"o-temple", "base: mbie-eb\nbeta: -1", "mbie-eb: beta = -1"},
		{"ucrl2", "delta: 1.5", "ucrl2: delta = 1.5"},
		{"fm-temple", "base: ucrl2\ndelta: 0", "ucrl2: delta = 0"},
		{"psrl", "prior: 0", "psrl: prior = 0"},
		{"o-temple", "base: psrl\nprior: -1", "psrl: prior = -1"},
	} {
		p, err := agenttypes.Decode(c.typ, node(t, c.src))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s {%s}: Validate = %v, want it to contain %q", c.typ, c.src, err, c.want)
		}
	}
}

// TestEveryTypeRunsOnDefaults: every agent type, and each template learner over every base, with
// nothing set but the base validates, builds and runs a few episodes of two tasks.
func TestEveryTypeRunsOnDefaults(t *testing.T) {
	m := maze(t)
	ctx := agenttypes.Context{Models: []*mdp.Model{m, m}, Gamma: 0.95}
	for _, typ := range agenttypes.Types() {
		if agenttypes.Outside(typ.Defaults()) { // its class or command is the user's (outside_test.go)
			continue
		}
		blocks := []string{""}
		if slices.Contains(agenttypes.Keys(typ.Defaults()), "base") {
			blocks = nil
			for _, b := range agenttypes.BaseNames() {
				blocks = append(blocks, "base: "+b)
			}
		}
		for _, src := range blocks {
			t.Run(typ.Name+"/"+src, func(t *testing.T) {
				p, err := agenttypes.Decode(typ.Name, node(t, src))
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Validate(); err != nil {
					t.Fatalf("defaults do not validate: %v", err)
				}
				ag, err := p.New(ctx)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(2, 2))
				for task := range 2 {
					if err := ag.BeginTask(agent.Task{Index: task, S: m.S, A: m.A, Gamma: 0.95, Rand: rng, Truth: m, Rewards: agent.RewardsOf(m)}); err != nil {
						t.Fatal(err)
					}
					// Its own loop, not agenttest's: every action is checked before the model steps it.
					for range 3 {
						s := 0
						for range 30 {
							a := ag.Act(s)
							if a < 0 || a >= m.A {
								t.Fatalf("action %d of %d", a, m.A)
							}
							next, r := m.Step(s, a, rng)
							ag.Observe(s, a, r, next)
							s = next
						}
						ag.EndEpisode()
					}
					ag.EndTask()
				}
			})
		}
	}
}

// TestMsFollowsTheBase: until a config sets m_s, it is the paper's 50 or the base's m when that is
// smaller, through decoding, sweep points (Set) and copies; once set, it stays.
func TestMsFollowsTheBase(t *testing.T) {
	ms := func(p agenttypes.Params) int64 {
		switch p := p.(type) {
		case *temple.OTempLeSpec:
			return p.Ms
		case *temple.FMTempLeSpec:
			return p.Ms
		}
		t.Fatalf("%T is not a template learner", p)
		return 0
	}
	for _, typ := range []string{"o-temple", "fm-temple"} {
		for _, c := range []struct {
			src  string
			want int64
		}{
			{"", 50},
			{"base: e3", 16},
			{"base: e3\nm: 100", 50},
			{"base: e3\nm: 30", 30},
			{"m: 20", 20},
			{"base: mbie-eb", 50},
			{"m_s: 10\nbase: e3", 10},
			{"base: e3\nm_s: 40", 40}, // set: Validate then names the fix
		} {
			p, err := agenttypes.Decode(typ, node(t, c.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := ms(p); got != c.want {
				t.Errorf("%s {%s}: m_s = %d, want %d", typ, c.src, got, c.want)
			}
		}
		set := func(p agenttypes.Params, key string, v any) agenttypes.Params {
			var n yaml.Node
			if err := n.Encode(v); err != nil {
				t.Fatal(err)
			}
			q, err := agenttypes.Set(typ, p, key, &n)
			if err != nil {
				t.Fatal(err)
			}
			return q
		}
		p, _ := agenttypes.Decode(typ, nil)
		if p = set(set(p, "base", "e3"), "m", 500); ms(p) != 50 {
			t.Errorf("%s: base e3, then m 500: m_s = %d, want 50", typ, ms(p))
		}
		if p = set(p, "m", 8); ms(p) != 8 {
			t.Errorf("%s: then m 8: m_s = %d, want 8", typ, ms(p))
		}
		if p = set(set(p, "m_s", 4), "m", 100); ms(p) != 4 {
			t.Errorf("%s: m_s 4, then m 100: m_s = %d, want 4 (set)", typ, ms(p))
		}
	}
	// The typed setters of O-TempLe (the presets') follow as a config does.
	o := &temple.OTempLeSpec{Base: agenttypes.DefaultBase(), Params: temple.DefaultParams()}
	e3 := ptr(learners.DefaultE3())
	if o.SetBase(agenttypes.BaseSpec{Name: learners.E3Type, Params: e3}); o.Ms != 16 {
		t.Errorf("o-temple, SetBase e3: m_s = %d, want 16", o.Ms)
	}
	e3 = ptr(learners.DefaultE3())
	e3.M = 500
	if o.SetBase(agenttypes.BaseSpec{Name: learners.E3Type, Params: e3}); o.Ms != 50 {
		t.Errorf("o-temple, SetBase e3 with m 500: m_s = %d, want 50", o.Ms)
	}
	if o.SetMs(4); o.Ms != 4 {
		t.Errorf("o-temple, SetMs 4: m_s = %d, want 4", o.Ms)
	}
	if o.SetBase(agenttypes.DefaultBase()); o.Ms != 4 {
		t.Errorf("o-temple, SetMs 4, then SetBase rmax: m_s = %d, want 4 (set)", o.Ms)
	}
	if q, err := agenttypes.Set(temple.OTempLeType, o, "m", &yaml.Node{Kind: yaml.ScalarNode, Value: "8"}); err != nil || ms(q) != 4 {
		t.Errorf("o-temple, SetMs 4, then m 8: m_s = %d (%v), want 4 (set)", ms(q), err)
	}
}

// docTags maps each yaml key of struct type t (inline fields descended) to its doc and range
// tags.
func docTags(t reflect.Type, out map[string][2]string) {
	for _, f := range yamlkeys.Fields(t) {
		out[yamlkeys.Key(f)] = [2]string{f.Tag.Get("doc"), f.Tag.Get("range")}
	}
}

// TestEveryKeyIsDocumented: every config key of every type, and of each template learner over
// every base, carries a one-line doc tag; a range tag, where there is one, is one line too.
func TestEveryKeyIsDocumented(t *testing.T) {
	for _, typ := range agenttypes.Types() {
		blocks := []string{""}
		if slices.Contains(agenttypes.Keys(typ.Defaults()), "base") {
			blocks = []string{}
			for _, b := range agenttypes.BaseNames() {
				blocks = append(blocks, "base: "+b)
			}
		}
		for _, src := range blocks {
			p, err := agenttypes.Decode(typ.Name, node(t, src))
			if err != nil {
				t.Fatal(err)
			}
			tags := map[string][2]string{}
			docTags(reflect.TypeOf(p).Elem(), tags)
			switch p := p.(type) { // the template learners' keys: base:, the base's, their own
			case *temple.OTempLeSpec:
				docTags(reflect.TypeOf(p.Base), tags)
				docTags(reflect.TypeOf(p.Base.Params).Elem(), tags)
			case *temple.FMTempLeSpec:
				docTags(reflect.TypeOf(p.Base), tags)
				docTags(reflect.TypeOf(p.Base.Params).Elem(), tags)
			case *temple.TrueTemplatesSpec:
				docTags(reflect.TypeOf(p.Base), tags)
				docTags(reflect.TypeOf(p.Base.Params).Elem(), tags)
			}
			for _, k := range agenttypes.Keys(p) {
				doc, rng := tags[k][0], tags[k][1]
				if doc == "" || strings.Contains(doc+rng, "\n") {
					t.Errorf("%s {%s}: key %s has doc %q, range %q; want a one-line doc", typ.Name, src, k, doc, rng)
				}
			}
		}
	}
}

// A template learner over another base is reported as TYPE-BASE and builds over that base.
func TestTemplateLearnerOverEveryBase(t *testing.T) {
	for _, base := range agenttypes.BaseNames() {
		p, err := agenttypes.Decode("o-temple", node(t, "base: "+base+"\nm_s: 10"))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("o-temple over %s: %v", base, err)
		}
		typ, _ := agenttypes.Lookup("o-temple")
		want := "O-TempLe"
		if base != "rmax" {
			b, _ := agenttypes.Lookup(base)
			want += "-" + b.Display
		}
		if got := agenttypes.DisplayName(typ, p); got != want {
			t.Errorf("display name over %s = %q, want %q", base, got, want)
		}
		ag, err := p.New(agenttypes.Context{Gamma: 0.9})
		if err != nil {
			t.Fatal(err)
		}
		learner := strings.ReplaceAll(base, "-", "")
		if base == "c-ucrl" {
			learner = "ucrl2" // C-UCRL is a UCRL2 whose confidence sets pool its classes (learners.NewCUCRL)
		}
		if got := fmt.Sprintf("%T", ag.(interface{ Base() agent.Base }).Base()); !strings.Contains(strings.ToLower(got), learner) {
			t.Errorf("o-temple over %s runs over a %s", base, got)
		}
	}
}

// Templates reach every base: on the second task of the same maze, O-TempLe over each base
// augments pairs from the library its first task filled.
func TestTemplatesAugmentEveryBase(t *testing.T) {
	m := maze(t)
	for _, base := range agenttypes.BaseNames() {
		p, err := agenttypes.Decode("o-temple", node(t, "base: "+base+"\nm_s: 10"))
		if err != nil {
			t.Fatal(err)
		}
		ag, err := p.New(agenttypes.Context{Gamma: 0.95})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 6))
		var augmented float64
		for k := range 2 {
			if err := ag.BeginTask(agent.Task{Index: k, S: m.S, A: m.A, Gamma: 0.95, Rand: rng, Rewards: agent.RewardsOf(m)}); err != nil {
				t.Fatal(err)
			}
			loop := agenttest.Loop{Agent: ag, Task: m, Rand: rng}
			for range 300 {
				loop.Episode(rng.IntN(m.S), 30)
			}
			ag.EndTask()
			for _, x := range ag.(agent.Reporter).TaskMetrics() {
				if x.Name == "augmented_pairs" {
					augmented = x.Value
				}
			}
		}
		if augmented < 1 {
			t.Errorf("o-temple over %s augmented no pair on the second task", base)
		}
	}
}

// TestSetLeavesTheOriginal: a sweep point's change is a copy.
func TestSetLeavesTheOriginal(t *testing.T) {
	p, err := agenttypes.Decode("o-temple", node(t, "tau: 0.2"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := agenttypes.Set("o-temple", p, "m", node(t, "60"))
	if err != nil {
		t.Fatal(err)
	}
	if got := q.(*temple.OTempLeSpec).Base.Params.(*learners.RMaxParams).M; got != 60 {
		t.Errorf("set m = %d, want 60", got)
	}
	if p.(*temple.OTempLeSpec).Base.Params.(*learners.RMaxParams).M != 500 || q.(*temple.OTempLeSpec).Tau != 0.2 {
		t.Errorf("agenttypes.Set changed the original or lost tau: %+v, %+v", p, q)
	}
	// Another base drops the old base's parameters and keeps the template's.
	r, err := agenttypes.Set("o-temple", q, "base", node(t, "ucrl2"))
	if err != nil {
		t.Fatal(err)
	}
	if o := r.(*temple.OTempLeSpec); o.Base.Name != "ucrl2" || o.Tau != 0.2 || o.Base.Params.(*learners.UCRL2Params).M != 500 {
		t.Errorf("set base: ucrl2 gave %+v", o)
	}
}

// An o-temple block over the default RMax base, decoded, validated and built as a config does;
// it reports under the type's display name.
func ExampleNew() {
	var block yaml.Node
	if err := yaml.Unmarshal([]byte("base: rmax\nm: 200\nm_s: 20\ntau: 0.2\n"), &block); err != nil {
		fmt.Println(err)
		return
	}
	ag, err := agenttypes.New("o-temple", block.Content[0], agenttypes.Context{Gamma: 0.95})
	fmt.Printf("%T %v\n", ag, err)
	typ, _ := agenttypes.Lookup("o-temple")
	fmt.Println(agenttypes.DisplayName(typ, typ.Defaults()))
	// Output:
	// *temple.OTempLe <nil>
	// O-TempLe
}

// The memory estimate grows with what each learner holds: PSRL's dense model with S² per action,
// LRMax's memory with the tasks it keeps, a template learner with its base's.
func TestMemory(t *testing.T) {
	memWritten := func(typ, src string, S, A, tasks, written int64) int64 {
		p, err := agenttypes.Decode(typ, node(t, src))
		if err != nil {
			t.Fatal(err)
		}
		ty, _ := agenttypes.Lookup(typ)
		return agenttypes.Memory(ty, p, S, A, tasks, written)
	}
	mem := func(typ, src string, S, A, tasks int64) int64 { return memWritten(typ, src, S, A, tasks, 1000) }
	if got := mem("rmax", "", 100, 4, 10); got != 160*400 {
		t.Errorf("rmax on 100 states × 4 actions: %d bytes, want 160 per pair", got)
	}
	if got, want := mem("psrl", "", 10000, 4, 1), int64((160+8*10000)*40000+8*10000*10000); got != want {
		t.Errorf("psrl on 10 000 states: %d bytes, want %d (dense rows and the S×S evaluation)", got, want)
	}
	if a, b := mem("lrmax", "", 100, 4, 50), mem("lrmax", "max_memory: 5", 100, 4, 50); !(a > b && b > mem("rmax", "", 100, 4, 50)) {
		t.Errorf("lrmax keeping 50 tasks: %d bytes, keeping 5: %d; want more for more tasks, and more than RMax", a, b)
	}
	if rm, ps := mem("o-temple", "", 10000, 4, 1), mem("o-temple", "base: psrl\nm_s: 10", 10000, 4, 1); rm != 320*40000 || ps <= mem("psrl", "", 10000, 4, 1) {
		t.Errorf("o-temple over rmax %d bytes (want 320 per pair), over psrl %d (want more than PSRL alone)", rm, ps)
	}
	// On a task of more than lazy.FlatMax pairs, RMax and O-TempLe over RMax pay their lazy tables
	// only for the blocks a task writes; the others stay flat.
	const S = 2_000_000
	rmax, otemple := mem("rmax", "", S, 4, 2), mem("o-temple", "", S, 4, 2)
	if rmax >= 160*S*4/2 || otemple <= rmax || otemple >= 320*S*4/2 {
		t.Errorf("on 2 M states: rmax %d bytes, o-temple %d; want each under half its flat figure, o-temple above rmax", rmax, otemple)
	}
	if memWritten("rmax", "", S, 4, 2, 0) != 160*S*4 || memWritten("rmax", "", S, 4, 2, 1e9) <= rmax {
		t.Error("rmax's estimate does not grow with the pairs written, or is not flat when they are unknown")
	}
	// Full plans build a model of every pair.
	if full, inc := mem("rmax", "planning: full", S, 4, 2), mem("rmax", "planning: incremental", S, 4, 2); full != 160*S*4 || inc >= 160*S*4/2 {
		t.Errorf("on 2 M states: rmax planning in full %d bytes (want its flat figure), incrementally %d (want under half of it)", full, inc)
	}
	if mem("o-temple", "base: psrl\nm_s: 10", 1000, 4, 1) != memWritten("o-temple", "base: psrl\nm_s: 10", 1000, 4, 1, 0) {
		t.Error("o-temple over psrl depends on the pairs written; it keeps flat tables")
	}
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// Param reads a parameter by its key from the typed fields: a learner's own, a base's through a
// learner over it, an option of the template learner, and nothing for a key the type lacks.
func TestParamReadsTypedFields(t *testing.T) {
	for _, c := range []struct {
		typ, src, key string
		want          any
		found         bool
	}{
		{"rmax", "{m: 7}", "m", int64(7), true},
		{"o-temple", "{base: mbie-eb, beta: 0.5, m_s: 3}", "beta", 0.5, true},
		{"o-temple", "{base: mbie-eb, beta: 0.5, m_s: 3}", "m_s", int64(3), true},
		{"o-temple", "{template_weight: 20}", "template_weight", int64(20), true},
		{"psrl", "{reward_posterior: normal}", "reward_posterior", learners.NormalReward, true},
		{"q-learning", "{}", "m", nil, false},
	} {
		got, ok := agenttypes.Param(decodeParams(t, c.typ, c.src), c.key)
		if ok != c.found || got != c.want {
			t.Errorf("Param(%s %s, %s) = %v (%T), %v; want %v (%T), %v", c.typ, c.src, c.key, got, got, ok, c.want, c.want, c.found)
		}
	}
}

// decodeParams is the parameters of type typ that the config block src (a YAML mapping) gives.
func decodeParams(t *testing.T, typ, src string) agenttypes.Params {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	p, err := agenttypes.Decode(typ, n.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	return p
}
