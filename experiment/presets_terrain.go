package experiment

// The terrain grids (docs/experiments/terrain.md): templates as a prior for PSRL against the
// single-task learners tuned on the family, with the headroom of templates — a reference told
// every pair's true template — beside each base.

import (
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/learners"
)

// Terrain settings chosen at the design seed 101, 12 settings for each single-task learner
// (examples/terrain/tune-*.yaml); the preset reports seed 1, the judgement uses another seed.
const (
	terrainBeta       = 0.01 // MBIE-EB's β (no cap), best of 0.005 … 0.2 with and without a cap of 10
	terrainRMaxM      = 2    // RMax's m, best of 1 … 12
	terrainRewardSD   = 0.05 // PSRL's prior sd σ₀ on a mean reward, best of 0.05 … 1
	terrainRewardNois = 0.03 // PSRL's reward noise σ, best of 0.03 … 1
	// template-prior over that PSRL, the same budget: strength c 10 and new_share ν 0.1 with
	// partial placements, best of c 3 … 200, ν 0.1 and 0.3, partial or not.
	terrainStrength = 10
	terrainNewShare = 0.1
	// The true-templates reference over PSRL: strength 50, placed once a pair has seen its
	// template's support, the best of four variants at seed 1 (1000 or 50, partial or not).
	terrainTrueStrength = 50
)

// terrain runs the terrain family's defaults — 60 new 8×8 grids of floor, ice and mud, 100
// episodes of at most 50 steps — with MBIE-EB, RMax and PSRL as tuned on the family, the
// true-templates reference over each, and template-prior over the tuned PSRL, 20 runs.
func terrain() Spec {
	s := Default()
	s.Name = "terrain"
	s.Runs, s.Episodes, s.Steps = 20, 100, 50
	s.Tasks = mustFamily(families.Terrain)

	mbie := defaultAgent("mbie-eb")
	mbie.mustSet("beta", terrainBeta)
	mbie.mustSet("planning", learners.PlanFull) // as every preset's, and as it was tuned
	rmax := defaultAgent(TypeRMax)
	rmax.mustSet("m", terrainRMaxM)
	rmax.mustSet("planning", learners.PlanFull) // as every preset's
	psrl := defaultAgent("psrl")
	tunePSRL(&psrl)

	headroom := func(base string, name string) AgentSpec {
		a := defaultAgent("true-templates")
		a.mustSet("base", base)
		a.Name = name
		return a
	}
	trueMBIE := headroom("mbie-eb", "True-Templates-MBIE-EB")
	trueMBIE.mustSet("beta", terrainBeta)
	trueMBIE.mustSet("planning", learners.PlanFull)
	trueRMax := headroom(TypeRMax, "True-Templates-RMax")
	trueRMax.mustSet("m", terrainRMaxM)
	trueRMax.mustSet("strength", terrainRMaxM) // placed, a pair is known
	trueRMax.mustSet("planning", learners.PlanFull)
	truePSRL := headroom("psrl", "True-Templates-PSRL")
	tunePSRL(&truePSRL)
	truePSRL.mustSet("strength", terrainTrueStrength)

	prior := defaultAgent("template-prior")
	tunePSRL(&prior)
	prior.mustSet("strength", terrainStrength)
	prior.mustSet("new_share", terrainNewShare)
	prior.mustSet("partial", true)

	s.Agents = []AgentSpec{psrl, prior, truePSRL, mbie, trueMBIE, rmax, trueRMax}
	s.Output.Baseline = psrl.Name
	return s
}

// tunePSRL gives a PSRL-based agent the terrain family's tuned PSRL: the sparse prior, TSDE, the
// Normal reward posterior with the tuned reward model, and dense sampling (the PSRL it was tuned
// as, before issue 44 changed PSRL's defaults).
func tunePSRL(a *AgentSpec) {
	a.mustSet("prior_support", "observed")
	a.mustSet("schedule", "tsde")
	a.mustSet("reward_posterior", "normal")
	a.mustSet("sampling", "dense")
	a.mustSet("reward_sd", terrainRewardSD)
	a.mustSet("reward_noise", terrainRewardNois)
}
