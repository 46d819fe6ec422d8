package presets

import (
	"bytes"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// Every preset builds: its tasks are valid and its agents constructible.
func TestEveryPresetBuilds(t *testing.T) {
	for _, p := range All() {
		s := p.Spec()
		s.Runs = 1
		if _, err := experiment.Build(s); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
	}
}

// The spec.yaml a results directory holds reads back into the same spec, for every preset.
func TestWrittenSpecReadsBack(t *testing.T) {
	for _, p := range All() {
		s := p.Spec()
		b, err := yaml.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := experiment.Parse(b)
		if err != nil {
			t.Fatalf("preset %s: spec.yaml does not read back: %v\n%s", p.Name, err, b)
		}
		again, _ := yaml.Marshal(back)
		if !bytes.Equal(again, b) {
			t.Errorf("preset %s: spec.yaml changes when read back:\n%s\nbecame\n%s", p.Name, b, again)
		}
	}
}

// The default experiment of temple run validates and puts the paper's O-TempLe beside the beyond
// variant and the single-task learners.
func TestDemo(t *testing.T) {
	s := Demo()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	want := []string{"O-TempLe", "O-TempLe+retry+early", "Q-learning", "RMax"}
	if got := s.AgentNames(); !slices.Equal(got, want) || s.Runs != 5 || s.Output.Baseline != "RMax" {
		t.Errorf("agents %v, %d runs, baseline %q; want %v, 5 runs, RMax", got, s.Runs, s.Output.Baseline, want)
	}
}

// TestPresetsPinFullPlanning: every agent of a preset that plans pins planning: full, the setting
// its results were recorded with; large-maze and scaling (too large for full plans) pin planning:
// incremental, theirs.
func TestPresetsPinFullPlanning(t *testing.T) {
	for _, p := range All() {
		want := learners.PlanFull
		if p.Name == "large-maze" || p.Name == "scaling" {
			want = learners.PlanIncremental
		}
		for _, a := range p.Spec().Agents {
			if got := planning(a.Params); got != nil && *got != want {
				t.Errorf("preset %s, agent %s: planning %q, want %q", p.Name, a.Name, *got, want)
			}
		}
	}
}

// TestAccessorsCoverEveryTypeWithTheKey: the accessors the presets set a key through, whatever
// the agent's type, find it on every type of the registry that has the key (a template learner
// over every base), and on no other: a learner that gains planning: is not left out of a preset's
// planning: full.
func TestAccessorsCoverEveryTypeWithTheKey(t *testing.T) {
	accessors := map[string]func(any) bool{
		"planning":   func(p any) bool { return planning(p) != nil },
		"r_max":      func(p any) bool { return rMaxOf(p) != nil },
		"reward_min": func(p any) bool { return psrlOf(p) != nil },
		"beta":       func(p any) bool { return mbieOf(p) != nil },
	}
	for _, p := range everyType() {
		keys := agenttypes.Keys(p)
		for key, found := range accessors {
			if has := slices.Contains(keys, key); found(p) != has {
				t.Errorf("%T (keys %v): the accessor of %s finds it: %v, want %v", p, keys, key, found(p), has)
			}
		}
	}
}

// everyType is every agent type's defaults, a learner over a base over each base.
func everyType() []agenttypes.Params {
	var out []agenttypes.Params
	for _, t := range agenttypes.Types() {
		out = append(out, t.Defaults())
		for _, name := range agenttypes.BaseNames() {
			b, _ := agenttypes.Lookup(name)
			base := agenttypes.BaseSpec{Name: name, Params: b.Defaults().(agenttypes.BaseParams)}
			switch p := t.Defaults().(type) {
			case *temple.OTempLeSpec:
				p.SetBase(base)
				out = append(out, p)
			case *temple.FMTempLeSpec:
				p.Base = base
				out = append(out, p)
			case *temple.TrueTemplatesSpec:
				p.Base = base
				out = append(out, p)
			}
		}
	}
	return out
}
