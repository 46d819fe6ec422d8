package agents

import "github.com/temple-rl/temple/agent"

// CUCRL is C-UCRL's parameters (Asadi, Talebi, Bourel & Maillard 2019): UCRL2's and the slack ε
// of ApproxEquivalence.
type CUCRL struct {
	agent.CUCRLParams `yaml:",inline"`
}

func (p *CUCRL) New(Context) (agent.Agent, error) { return single(agent.NewCUCRL(p.CUCRLParams)) }
