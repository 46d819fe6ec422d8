package agenttypes_test

import (
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
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/temple"
)

// basePart is a part of one type's parameters that is another type's: the field's value at the
// type's defaults and the other type's defaults of the same Go type.
type basePart struct {
	over       string // the other type (or, for a Base field, the base's name)
	got, want  any
	fieldTypes string // where it was found, for messages
}

// baseParts finds the parts of p (the defaults of type typ) that are another registry type's
// parameters: a Base field (a template learner's base, compared with its base's defaults), and
// every field, at any depth of embedded or inline structs, whose Go type is the parameters struct
// of another type or that struct's single embedded field (learners.RMaxParams of rmax). Nothing is
// listed by hand: a learner added to the registry over a base is found by what it holds.
func baseParts(typ string, p agenttypes.Params) []basePart {
	owners := map[reflect.Type]string{} // Go type → the registry type whose parameters it is
	defaults := map[reflect.Type]any{}  // Go type → its value at that type's defaults
	for _, u := range agenttypes.Types() {
		if u.Name == typ {
			continue
		}
		v := reflect.ValueOf(u.Defaults()).Elem()
		owners[v.Type()], defaults[v.Type()] = u.Name, v.Interface()
		if v.NumField() == 1 && v.Type().Field(0).Anonymous {
			inner := v.Field(0)
			owners[inner.Type()], defaults[inner.Type()] = u.Name, inner.Interface()
		}
	}
	var out []basePart
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		for i := range v.NumField() {
			f, fv := v.Type().Field(i), v.Field(i)
			if !f.IsExported() {
				continue
			}
			switch {
			case f.Type == reflect.TypeOf(agenttypes.BaseSpec{}):
				b := fv.Interface().(agenttypes.BaseSpec)
				out = append(out, basePart{over: b.Name, got: reflect.ValueOf(b.Params).Elem().Interface(),
					want: reflect.ValueOf(agenttypes.BaseDefaults(b.Name)).Elem().Interface(), fieldTypes: path + f.Name})
			case owners[f.Type] != "":
				out = append(out, basePart{over: owners[f.Type], got: fv.Interface(), want: defaults[f.Type], fieldTypes: path + f.Name})
			case f.Type.Kind() == reflect.Struct:
				walk(fv, path+f.Name+".")
			}
		}
	}
	walk(reflect.ValueOf(p).Elem(), "")
	return out
}

// TestLearnersOverABaseTakeItsDefaults: every type of the registry built over another — a
// template learner over its base, template-prior and latent-psrl over PSRL, FMRL and MaxQInit
// over RMax, Abs-RL over its inner learners, C-UCRL over UCRL2 — holds, at its defaults, exactly
// that type's defaults for that type's keys: its own keys are the only difference.
func TestLearnersOverABaseTakeItsDefaults(t *testing.T) {
	found := map[string]string{}
	for _, typ := range agenttypes.Types() {
		for _, part := range baseParts(typ.Name, typ.Defaults()) {
			found[typ.Name] = part.over
			if !reflect.DeepEqual(part.got, part.want) {
				t.Errorf("%s: its %s (%s's parameters) at defaults is\n%+v\nwant %s's defaults\n%+v",
					typ.Name, part.fieldTypes, part.over, part.got, part.over, part.want)
			}
		}
	}
	// The search finds what the registry holds: each template learner's base, and PSRL under the
	// learners that draw its models.
	for typ, over := range map[string]string{"o-temple": "rmax", "template-prior": "psrl", "latent-psrl": "psrl"} {
		if found[typ] != over {
			t.Errorf("baseParts found %s over %q, want %q (found %v)", typ, found[typ], over, found)
		}
	}
}

// TestBasePartsSeesADrift: a learner over PSRL whose defaults differ from PSRL's in one base key
// is caught, and one that differs in its own keys only is not.
func TestBasePartsSeesADrift(t *testing.T) {
	drifted := &temple.TemplatePriorSpec{PSRLParams: *agenttypes.BaseDefaults("psrl").(*learners.PSRLParams)}
	drifted.Schedule = learners.PerEpisode
	parts := baseParts("template-prior", drifted)
	if len(parts) != 1 || parts[0].over != "psrl" || reflect.DeepEqual(parts[0].got, parts[0].want) {
		t.Errorf("a template-prior with schedule episode: parts %+v, want one over psrl that differs", parts)
	}
	own := &temple.TemplatePriorSpec{PSRLParams: *agenttypes.BaseDefaults("psrl").(*learners.PSRLParams)}
	own.Strength = 7
	if parts := baseParts("template-prior", own); len(parts) != 1 || !reflect.DeepEqual(parts[0].got, parts[0].want) {
		t.Errorf("a template-prior with its own strength changed: parts %+v, want one over psrl equal to its defaults", parts)
	}
}

// Every learner over PSRL's Beta posterior — PSRL, template-prior, latent-psrl and the template
// learners over psrl — takes the task's reward range at its defaults, and counts the rewards
// outside a range it is given: on a maze paying −0.2 a step and 0.8 at the goal, none on the
// task's range, every step's −0.2 on [0, 1].
func TestEveryLearnerOverPSRLCountsClamps(t *testing.T) {
	m := maze(t)
	found := 0
	for _, typ := range agenttypes.Types() {
		prefix := ""
		if slices.Contains(agenttypes.Keys(typ.Defaults()), "base") {
			prefix = "base: psrl\n"
		}
		if p, _ := agenttypes.Decode(typ.Name, node(t, prefix)); !slices.Contains(agenttypes.Keys(p), "reward_min") {
			continue
		}
		found++
		for _, c := range []struct {
			src     string
			clamped bool // some rewards clamped, or none
		}{{prefix, false}, {prefix + "reward_min: 0\nreward_max: 1", true}} {
			ag, err := agenttypes.New(typ.Name, node(t, c.src), agenttypes.Context{Models: []*mdp.Model{m}, Gamma: 0.95})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			if err := ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.95, Rand: rng, Truth: m, Rewards: agent.RewardsOf(m)}); err != nil {
				t.Fatalf("%s {%s}: %v", typ.Name, c.src, err)
			}
			loop := agenttest.Loop{Agent: ag, Task: m, Rand: rng}
			for range 5 {
				loop.Episode(0, 30)
			}
			ag.EndTask()
			clamps := -1.0
			for _, x := range ag.(agent.Reporter).TaskMetrics() {
				if x.Name == "reward_clamps" {
					clamps = x.Value
				}
			}
			if c.clamped && clamps < 1 || !c.clamped && clamps != 0 {
				t.Errorf("%s {%s}: reward_clamps %v (−1: not reported), want clamps %v", typ.Name, strings.ReplaceAll(c.src, "\n", "; "), clamps, c.clamped)
			}
		}
	}
	if found < 6 {
		t.Errorf("%d learners over PSRL found, want psrl, template-prior, latent-psrl, o-temple, fm-temple and true-templates", found)
	}
}

// A base's known threshold read from its parameters is the built learner's, for every base, at
// its defaults and at m 7 (MBIE-EB's m 0, no cap: no pair is ever known).
func TestKnownThresholdWithoutBuilding(t *testing.T) {
	for _, name := range agenttypes.BaseNames() {
		for _, src := range []string{"{}", "{m: 7}", "{m: 0}"} {
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(src), &n); err != nil {
				t.Fatal(err)
			}
			p, err := agenttypes.Decode(name, n.Content[0])
			if err != nil {
				continue // m 0 is out of range for this base
			}
			bp := p.(agenttypes.BaseParams)
			l, err := bp.NewBase()
			if err != nil {
				continue
			}
			if got, want := bp.KnownThreshold(), l.KnownThreshold(); got != want {
				t.Errorf("%s %s: KnownThreshold %d from the parameters, %d from the learner", name, src, got, want)
			}
		}
	}
}
