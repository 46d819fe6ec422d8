package experiment

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/internal/suggest"
)

// validateSearch checks that the search: block names agents of the spec and keys they have; its
// values are temple tune's to check (package tune), since only a search reads them.
func (s *Spec) validateSearch() error {
	names := make([]string, 0, len(s.Search))
	for name := range s.Search {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		k := slices.IndexFunc(s.Agents, func(a AgentSpec) bool { return a.Name == name })
		if k < 0 {
			return fmt.Errorf("search: %q is not the name of an agent (have %s)%s", name, strings.Join(s.AgentNames(), ", "),
				suggest.DidYouMean(name, s.AgentNames()))
		}
		keys := agenttypes.Keys(s.Agents[k].Params)
		for _, key := range sortedKeys(s.Search[name]) {
			switch {
			case agenttypes.Outside(s.Agents[k].Params) && slices.Contains(keys, key):
				return fmt.Errorf("search: %s: %s is not searched: a learner of your own is searched in its params:, by their names", name, key)
			case agenttypes.Outside(s.Agents[k].Params):
				// a keyword argument of the class (the learner refuses one it does not take)
			case !slices.Contains(keys, key):
				return fmt.Errorf("search: %s: agent %s (type %s) has no parameter %q (it has %s)%s", name, name, s.Agents[k].Type,
					key, strings.Join(keys, ", "), suggest.DidYouMean(key, keys))
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
