package describe

import (
	"fmt"

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
		if keys := agenttypes.Keys(p); len(keys) > 0 && keys[0] == "base" {
			e.Note = fmt.Sprintf("and the keys of its base learner: those of agent type %s (the default base) or of the base named", agenttypes.BaseNames()[0])
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
