package tune

import (
	"fmt"
	"math/rand/v2"
)

// Draws is how a search draws the settings after the config's own (setting 0).
type Draws string

const (
	// PerAgent draws each agent's settings from a scrambled Halton sequence over its space,
	// scrambled per agent name (halton): every agent's design is low-discrepancy, and the
	// designs of two agents are unrelated. It is the default ("" means it too).
	PerAgent Draws = "per-agent"
	// Shared draws every searched parameter from a Latin hypercube (McKay, Beckman & Conover
	// 1979) stratified per parameter, whose permutation and jitter are drawn per parameter name
	// (sharedDraws): agents that share a parameter — a learner and one built on it,
	// template-prior and the PSRL under it — try the same values of it at the same setting,
	// common random numbers, so that the difference of their tunings measures what one adds to
	// the other rather than the luck of two independent designs.
	Shared Draws = "shared"
)

// Check refuses a value that is neither.
func (d Draws) Check() error {
	switch d {
	case "", PerAgent, Shared:
		return nil
	}
	return fmt.Errorf("draws = %q, want %s (each agent its own quasi-random design, the default) or %s (a parameter's values shared by the agents that have it)",
		string(d), PerAgent, Shared)
}

// sharedDraws are the values in [0, 1) of the parameter named key at settings 1 to n, under
// Shared: setting i falls in stratum perm(i) of n equal strata, at a uniform point in it, the
// permutation and the points drawn from a stream seeded by the tuning's seed and the key alone.
// Each parameter's values are thus stratified (one per n-th of its range), parameters are
// independent of each other, and two agents with a parameter of the same name draw the same
// values of it — at the same quantiles of their ranges when a search: block narrows one.
func sharedDraws(seed uint64, key string, n int) []float64 {
	rng := rand.New(rand.NewPCG(derive(seed, "draws "+key), 0))
	perm := rng.Perm(n)
	u := make([]float64, n)
	for i, stratum := range perm {
		u[i] = (float64(stratum) + rng.Float64()) / float64(n)
	}
	return u
}
