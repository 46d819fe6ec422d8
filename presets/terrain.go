package presets

// The terrain grids (docs/experiments/terrain.md): templates as a prior for PSRL against the
// single-task learners tuned on the family, with the headroom of templates — a reference told
// every pair's true template — beside each base.

import (
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
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
func terrain() experiment.Spec {
	s := experiment.Default()
	s.Name = "terrain"
	s.Runs, s.Episodes, s.Steps = 20, 100, 50
	s.Tasks = mustFamily(families.Terrain)

	// MBIE-EB, RMax and PSRL as tuned, planning as every preset's (and as they were tuned).
	mbie := func() experiment.AgentSpec {
		a := paperAgent(mbieEB)
		mbieOf(a.Params).Beta = terrainBeta
		return a
	}
	rm := func() experiment.AgentSpec {
		a := paperAgent(rmax)
		rmaxOf(a.Params).M = terrainRMaxM
		return a
	}
	ps := func() experiment.AgentSpec {
		a := agent(psrl)
		tunePSRL(psrlOf(a.Params))
		return a
	}
	// headroom is the true-templates reference over base, with strength c (0: its default; over
	// RMax its m: placed, a pair is known).
	headroom := func(base experiment.AgentSpec, name string, c int64) experiment.AgentSpec {
		a := agent(trueTemplates)
		p := a.Params.(*temple.TrueTemplatesSpec)
		p.Base = agenttypes.BaseSpec{Name: base.Type, Params: base.Params.(agenttypes.BaseParams)}
		if c > 0 {
			p.Strength = c
		}
		a.Name = name
		return a
	}
	prior := agent(templatePrior)
	pp := prior.Params.(*temple.TemplatePriorSpec)
	tunePSRL(&pp.PSRLParams)
	pp.Strength, pp.NewShare, pp.Partial = terrainStrength, terrainNewShare, true

	s.Agents = []experiment.AgentSpec{ps(), prior, headroom(ps(), "True-Templates-PSRL", terrainTrueStrength),
		mbie(), headroom(mbie(), "True-Templates-MBIE-EB", 0),
		rm(), headroom(rm(), "True-Templates-RMax", terrainRMaxM)}
	s.Output.Baseline = s.Agents[0].Name
	return s
}

// tunePSRL gives PSRL, or a learner over it, the terrain family's tuned PSRL: the sparse prior,
// TSDE, the Normal reward posterior with the tuned reward model, and dense sampling (the PSRL it
// was tuned as, before issue 44 changed PSRL's defaults).
func tunePSRL(p *learners.PSRLParams) {
	p.PriorSupport, p.Schedule, p.RewardPosterior = learners.ObservedStates, learners.TSDE, learners.NormalReward
	p.Sampling, p.RewardSD, p.RewardNoise = learners.Dense, terrainRewardSD, terrainRewardNois
}
