package agenttypes

import (
	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
)

// CUCRL is C-UCRL's parameters (Asadi, Talebi, Bourel & Maillard 2019): UCRL2's and those of
// ApproxEquivalence, as a base learner and as the single-task agent c-ucrl.
type CUCRL struct {
	learners.CUCRLParams `yaml:",inline"`
}

func (p *CUCRL) NewBase() (agent.Base, error)     { return learners.NewCUCRL(p.CUCRLParams) }
func (p *CUCRL) New(Context) (agent.Agent, error) { return single(p.NewBase()) }
