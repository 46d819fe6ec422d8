package describe

import (
	"fmt"
	"slices"
	"strings"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/families"
)

// AgentTypes describes every agent type of the registry (package agenttypes), in name order. A
// template learner's entry lists base: and its own keys, and says that the keys of its base
// learner apply too.
func AgentTypes() []Entry {
	var out []Entry
	for _, t := range agenttypes.Types() {
		p := t.Defaults()
		e := Entry{Name: t.Name, Summary: t.Summary, Params: Of(p)}
		for k := range e.Params {
			e.Params[k].Search = searchOf(t.Name, p, e.Params[k].Key)
		}
		if keys := agenttypes.Keys(p); len(keys) > 0 && keys[0] == "base" {
			e.Note = fmt.Sprintf("and the keys of its base learner: those of agent type %s (the default base) or of the base named; "+
				"temple tune searches the base's with its own", agenttypes.BaseNames()[0])
		}
		out = append(out, e)
	}
	return out
}

// TaskFamilies describes every task family of the registry (package families), in name order.
func TaskFamilies() []Entry {
	var out []Entry
	for _, f := range families.All() {
		out = append(out, Entry{Name: f.Name, Summary: f.Summary, Params: Of(f.Defaults())})
	}
	return out
}

// searchOf says how temple tune searches key of type typ: its range and scale, "on request" when
// only a config's search: block gives it a range, "" when it is never searched.
func searchOf(typ string, p agenttypes.Params, key string) string {
	d, ok := agenttypes.Scale(typ, p, key)
	if !ok {
		return ""
	}
	text := strings.Join(d.Choices, " | ")
	if len(d.Choices) == 0 {
		text = fmt.Sprintf("%g – %g", d.Low, d.High)
		if d.Log {
			text += ", log"
		}
	}
	if !slices.ContainsFunc(agenttypes.SearchSpace(typ, p), func(s agenttypes.Dim) bool { return s.Key == key }) {
		text = "on request: " + text
	}
	return text
}
