package agenttypes

import (
	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/registry"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// TrueTemplates is the parameters of the reference learner told each pair's true template
// (temple.TrueTemplates): its strength and its base learner's.
type TrueTemplates struct {
	Base                  BaseSpec
	temple.HeadroomParams `yaml:",inline"`
}

// Keys are the reference's keys and its base's.
func (p *TrueTemplates) Keys() []string {
	return append(p.Base.keys(), yamlkeys.Of(reflectElem(&p.HeadroomParams))...)
}

// UnmarshalYAML reads the base (base: NAME and its keys) and the strength, failing on any other
// key with its line.
func (p *TrueTemplates) UnmarshalYAML(n *yaml.Node) error {
	if err := p.Base.decode(n); err != nil {
		return err
	}
	if err := registry.CheckKeys(n, "agent type "+TrueTemplatesType+" (base "+p.Base.Name+")", p.Keys()); err != nil {
		return err
	}
	return n.Decode(&p.HeadroomParams)
}

// MarshalYAML writes the base and its parameters, then the strength.
func (p *TrueTemplates) MarshalYAML() (any, error) { return encodeWithBase(p.Base, &p.HeadroomParams) }

func (p *TrueTemplates) Validate() error {
	if err := p.Base.Params.Validate(); err != nil {
		return err
	}
	return p.HeadroomParams.Validate()
}

func (p *TrueTemplates) New(Context) (agent.Agent, error) {
	base, err := p.Base.Params.NewBase()
	if err != nil {
		return nil, err
	}
	return temple.NewTrueTemplates(p.HeadroomParams, base)
}

// Display is "True-Templates" over RMax, "True-Templates-PSRL" over PSRL.
func (p *TrueTemplates) Display(typeDisplay string) string { return typeDisplay + p.Base.suffix() }

// builtFromModels: the reference reads each task's true model (NeedsModels), so it runs on stored
// models only, never driven step by step from outside.
func (*TrueTemplates) builtFromModels() {}

// memory is the base's and the reference's own copy of every pair's samples.
func (p *TrueTemplates) memory(typeBytes, S, A, _ int64) int64 {
	return templeMemory(p.Base, typeBytes, S, A)
}

// TemplatePrior is the parameters of posterior sampling with the template library as each pair's
// prior (temple.TemplatePrior): its base is PSRL, whose keys it has beside its own.
type TemplatePrior struct {
	PSRL               `yaml:",inline"`
	temple.PriorParams `yaml:",inline"`
}

// Validate checks PSRL's keys and template-prior's.
func (p *TemplatePrior) Validate() error {
	if err := p.PSRLParams.Validate(); err != nil {
		return err
	}
	return p.PriorParams.Validate()
}

// New builds the learner over a PSRL that draws when the learner says: the learner draws the
// pairs' components first, then the model, on the PSRL schedule of the config.
func (p *TemplatePrior) New(Context) (agent.Agent, error) {
	base, err := learners.NewPSRL(drawnBase(p.PSRLParams))
	if err != nil {
		return nil, err
	}
	return temple.NewTemplatePrior(p.PriorParams, psrlModel(p.PSRLParams), base)
}

// memory is PSRL's, a template learner's own tables, and the components' weights of every pair
// (about 20 templates).
func (p *TemplatePrior) memory(typeBytes, S, A, tasks int64) int64 {
	return p.PSRL.memory(typeBytes, S, A, tasks) + 21*8*S*A
}

// LatentPrior is the parameters of posterior sampling for a latent MDP over the task models seen
// so far (temple.LatentPrior): its base is PSRL, whose keys it has beside its own.
type LatentPrior struct {
	PSRL                `yaml:",inline"`
	temple.LatentParams `yaml:",inline"`
}

// Validate checks PSRL's keys and the learner's.
func (p *LatentPrior) Validate() error {
	if err := p.PSRLParams.Validate(); err != nil {
		return err
	}
	return p.LatentParams.Validate()
}

// New builds the learner over a PSRL that draws when the learner says, on the PSRL schedule of
// the config (as template-prior).
func (p *LatentPrior) New(Context) (agent.Agent, error) {
	base, err := learners.NewPSRL(drawnBase(p.PSRLParams))
	if err != nil {
		return nil, err
	}
	return temple.NewLatentPrior(p.LatentParams, psrlModel(p.PSRLParams), base)
}

// memory is PSRL's and, at most, one model a task: each pair's counts with up to 8 next states
// (a grid's move reaches a few; an estimate, not a bound, for tasks where a pair reaches many),
// and the weights' reward terms of every model and pair.
func (p *LatentPrior) memory(typeBytes, S, A, tasks int64) int64 {
	return p.PSRL.memory(typeBytes, S, A, tasks) + tasks*S*A*(48+16*min(S, 8)+16)
}

// HybridPrior is the parameters of posterior sampling under one prior over whole tasks and
// templates (temple.HybridPrior): its base is PSRL, whose keys it has beside its own.
type HybridPrior struct {
	PSRL                `yaml:",inline"`
	temple.HybridParams `yaml:",inline"`
}

// Validate checks PSRL's keys and the learner's.
func (p *HybridPrior) Validate() error {
	if err := p.PSRLParams.Validate(); err != nil {
		return err
	}
	return p.HybridParams.Validate()
}

// New builds the learner over a PSRL that draws when the learner says, on the PSRL schedule of
// the config (as template-prior).
func (p *HybridPrior) New(Context) (agent.Agent, error) {
	base, err := learners.NewPSRL(drawnBase(p.PSRLParams))
	if err != nil {
		return nil, err
	}
	return temple.NewHybridPrior(p.HybridParams, psrlModel(p.PSRLParams), base)
}

// memory is latent-psrl's and template-prior's: PSRL's, at most one model a task, and the
// components' weights and every model's term of every pair.
func (p *HybridPrior) memory(typeBytes, S, A, tasks int64) int64 {
	return p.PSRL.memory(typeBytes, S, A, tasks) + tasks*S*A*(48+16*min(S, 8)+8) + 21*8*S*A
}

// drawnBase is a PSRL whose models a template or latent-model learner draws: schedule episode,
// so that it draws at the calls of EndEpisode the learner makes.
func drawnBase(p learners.PSRLParams) learners.PSRLParams {
	p.Schedule = learners.PerEpisode
	return p
}

// psrlModel is what temple's learners over PSRL take of its keys: the reward model and the
// schedule they draw on.
func psrlModel(p learners.PSRLParams) temple.PSRLModel {
	schedule := map[learners.PSRLSchedule]temple.DrawSchedule{
		learners.PerEpisode: temple.DrawPerEpisode, learners.TSDE: temple.DrawTSDE, learners.Doubling: temple.DrawDoubling,
	}[p.Schedule]
	return temple.PSRLModel{RewardMean: p.RewardMean, RewardSD: p.RewardSD, RewardNoise: p.RewardNoise,
		Beta: p.RewardPosterior == learners.BetaReward, RewardMin: p.RewardMin.Value, RewardMax: p.RewardMax.Value,
		TaskRange: !p.RewardMin.Given, Schedule: schedule}
}
