package agenttypes

import (
	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
)

// CUCRL is C-UCRL's parameters (Asadi, Talebi, Bourel & Maillard 2019): UCRL2's and the slack ε
// of ApproxEquivalence.
type CUCRL struct {
	learners.CUCRLParams `yaml:",inline"`
}

func (p *CUCRL) New(Context) (agent.Agent, error) { return single(learners.NewCUCRL(p.CUCRLParams)) }
