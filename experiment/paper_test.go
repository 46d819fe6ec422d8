package experiment

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/baseline"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// The paper presets' common settings, for the runner's tests and benchmarks: package presets has
// the presets themselves, and it imports this package, so this package's tests cannot import it.

// Agent types the tests name beside those of agents.go.
const (
	TypeFMTempLe = temple.FMTempLeType
	TypeFMRL     = baseline.FMRLType
	TypeDelayedQ = baseline.DelayedQType
)

// paper is a spec at the paper presets' common settings (Appendix F.1, decision 18): 20 runs of
// 3000 × 30 on the family's default tasks, the agents at the paper's settings.
func paper(name, family string, agents ...string) Spec {
	s := Default()
	s.Name = name
	s.Runs, s.Episodes, s.Steps = 20, 3000, 30
	tasks, err := families.New(family)
	if err != nil {
		panic(err)
	}
	s.Tasks = tasks
	s.Agents = paperAgents(agents...)
	return s
}

func finiteModelSpec(name string, agents ...string) Spec {
	return paper(name, families.FiniteModel, agents...)
}

// paperAgents are agents of the given types at the paper's settings: their defaults, with
// planning: full for those that plan, as the paper presets pin it.
func paperAgents(types ...string) []AgentSpec {
	var out []AgentSpec
	for _, t := range types {
		a := defaultAgent(t)
		if a.Has("planning") {
			a.mustSet("planning", learners.PlanFull)
		}
		out = append(out, a)
	}
	return out
}

// mustSet changes one parameter of a test's agent to value, as a config's key would.
func (a *AgentSpec) mustSet(key string, value any) {
	var v yaml.Node
	if err := v.Encode(value); err != nil {
		panic(err)
	}
	if err := a.set(key, &v); err != nil {
		panic(fmt.Sprintf("agent %s: %v", a.Name, err))
	}
}
