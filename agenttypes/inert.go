package agenttypes

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// inerter is implemented by parameters some of whose keys their other settings leave unused
// (PSRL's reward_sd under reward_posterior beta), and by a template learner, whose base's are.
type inerter interface {
	inert() []string
}

// Inert lists the keys of p that p's other settings leave unused: a search does not vary them
// (SearchSpace), and temple tune refuses a range for one.
func Inert(p Params) []string {
	if i, ok := p.(inerter); ok {
		return i.inert()
	}
	return nil
}

// inertOf is Inert of a base learner's parameters.
func inertOf(p BaseParams) []string {
	if i, ok := p.(inerter); ok {
		return i.inert()
	}
	return nil
}

// withoutInert is space less the dimensions of p's inert keys, keeping a key that one of the
// space's own choices makes live: PSRL's space searches reward_posterior [beta, normal], so
// reward_sd, inert under its default beta, is searched too (a setting that draws beta leaves it
// unused).
func withoutInert(typ string, space []Dim, p Params) []Dim {
	inert := Inert(p)
	live := func(key string) bool {
		for _, d := range space {
			for _, c := range d.Choices {
				q, err := Set(typ, p, d.Key, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: c})
				if err == nil && !slices.Contains(Inert(q), key) {
					return true
				}
			}
		}
		return false
	}
	return slices.DeleteFunc(space, func(d Dim) bool { return slices.Contains(inert, d.Key) && !live(d.Key) })
}

// PSRL's reward posterior leaves the other's keys unused; template-prior and latent-psrl, which
// hold PSRL's keys, have its inert keys (the method is promoted).
func (p *PSRL) inert() []string { return p.PSRLParams.Inert() }

// A template learner's inert keys are its base's.
func (p *OTempLe) inert() []string       { return inertOf(p.Base.Params) }
func (p *FMTempLe) inert() []string      { return inertOf(p.Base.Params) }
func (p *TrueTemplates) inert() []string { return inertOf(p.Base.Params) }

// hybrid-prior's part turned off leaves its keys unused: without the template library its m_s,
// tau, strength, new_share and partial; without whole-task models the concentration α.
func (p *HybridPrior) inert() []string {
	keys := p.PSRLParams.Inert()
	if !p.Templates {
		keys = append(keys, "m_s", "tau", "strength", "new_share", "partial")
	}
	if !p.WholeTasks {
		keys = append(keys, "concentration")
	}
	return keys
}
