package agenttypes

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// inerter is implemented by parameters some of whose keys their other settings leave unused
// (PSRL's reward_sd under reward_posterior beta). A learner over a base that does not implement
// it has its base's.
type inerter interface {
	Inert() []string
}

// Inert lists the keys of p that p's other settings leave unused: a search does not vary them
// (SearchSpace), and temple tune refuses a range for one.
func Inert(p Params) []string {
	if i, ok := p.(inerter); ok {
		return i.Inert()
	}
	if o, ok := p.(overBase); ok {
		if i, ok := o.Over().Params.(inerter); ok {
			return i.Inert()
		}
	}
	return nil
}

// withoutInert is space less the dimensions of p's inert keys, keeping a key that one of the
// space's own choices makes live: PSRL's space searches reward_posterior [beta, normal,
// normal-shared-noise], so reward_sd, inert under its default beta, is searched too (a setting
// that draws beta leaves it unused).
func withoutInert(typ string, space []Dim, p Params) []Dim {
	return slices.DeleteFunc(space, func(d Dim) bool { return !Live(typ, p, d.Key, space) })
}

// Live reports whether key of p, of type typ, is used: not inert under p's settings (Inert), or
// made live by one of the choices of the searched dimensions dims (a search of reward_posterior
// [beta, normal, normal-shared-noise] uses reward_sd).
func Live(typ string, p Params, key string, dims []Dim) bool {
	if !slices.Contains(Inert(p), key) {
		return true
	}
	for _, d := range dims {
		for _, c := range d.Choices {
			q, err := Set(typ, p, d.Key, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: c})
			if err == nil && !slices.Contains(Inert(q), key) {
				return true
			}
		}
	}
	return false
}
