package describe

import (
	"fmt"
	"slices"
	"strings"

	"github.com/temple-rl/temple/agents"
	"github.com/temple-rl/temple/families"
)

// AgentTypes describes every agent type of the registry (package agents), in name order. A
// template learner's entry lists base: and its own keys, and says that the keys of its base
// learner apply too.
func AgentTypes() []Entry {
	var out []Entry
	for _, t := range agents.Types() {
		p := t.Defaults()
		e := Entry{Name: t.Name, Summary: t.Summary, Params: Of(p)}
		if keys := agents.Keys(p); len(keys) > 0 && keys[0] == "base" {
			if !slices.ContainsFunc(e.Params, func(p Param) bool { return p.Key == "base" }) {
				// agents.Base.Name has no yaml tag of its own before the tags of the agent types land
				e.Params = append([]Param{{Key: "base", Type: "string", Default: agents.BaseNames()[0],
					Range: strings.Join(agents.BaseNames(), " | "),
					Doc:   "the base learner the templates act on, through its counts"}}, e.Params...)
			}
			e.Note = fmt.Sprintf("and the keys of its base learner: those of agent type %s (the default base) or of the base named", agents.BaseNames()[0])
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
