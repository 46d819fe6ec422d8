package agenttypes

import (
	"fmt"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// LatentPSRL is the parameters of posterior sampling over the models of past tasks
// (temple.LatentPSRL): its base is PSRL, whose keys it has beside its own.
type LatentPSRL struct {
	PSRL                `yaml:",inline"`
	temple.LatentParams `yaml:",inline"`
}

// Validate checks PSRL's keys and latent-psrl's, and the Beta reward posterior its components'
// reward likelihoods share.
func (p *LatentPSRL) Validate() error {
	if err := p.PSRLParams.Validate(); err != nil {
		return err
	}
	if p.RewardPosterior != learners.BetaReward {
		return fmt.Errorf("latent-psrl: reward_posterior = %q, want %q (the components' reward likelihoods are Beta on rewards scaled by reward_min and reward_max)", p.RewardPosterior, learners.BetaReward)
	}
	return p.LatentParams.Validate()
}

// New builds the learner over a PSRL that draws when the learner says (schedule episode): the
// learner draws the component first, on PSRL's schedule counted on the task's own samples.
func (p *LatentPSRL) New(Context) (agent.Agent, error) {
	bp := p.PSRLParams
	bp.Schedule = learners.PerEpisode
	base, err := learners.NewPSRL(bp)
	if err != nil {
		return nil, err
	}
	schedule := map[learners.PSRLSchedule]temple.LatentSchedule{learners.PerEpisode: temple.LatentPerEpisode,
		learners.TSDE: temple.LatentTSDE, learners.Doubling: temple.LatentDoubling}[p.Schedule]
	r := temple.LatentPrior{Alpha: p.Prior, RewardMin: p.RewardMin, RewardMax: p.RewardMax, Schedule: schedule}
	return temple.NewLatentPSRL(p.LatentParams, r, base)
}

// memory is PSRL's and the library: one copy of the counts per model learned (at most one a
// task), and the own samples of the task.
func (p *LatentPSRL) memory(typeBytes, S, A, tasks int64) int64 {
	return p.PSRL.memory(typeBytes, S, A, tasks) + (tasks+1)*typeBytes*S*A
}
