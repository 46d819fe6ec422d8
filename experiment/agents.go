package experiment

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/baseline"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/temple"
)

// Agent types.
const (
	TypeRMax      = "rmax"
	TypeQLearning = "q-learning"
	TypeOTempLe   = "o-temple"
	TypeFMTempLe  = "fm-temple"
	TypeFMRL      = "fmrl"
	TypeDelayedQ  = "delayed-q"
	TypeAbsRL     = "abs-rl"
	// MaxQInit on each of its base learners.
	TypeMaxQInitQ        = "maxqinit-q-learning"
	TypeMaxQInitDelayedQ = "maxqinit-delayed-q"
	TypeMaxQInitRMax     = "maxqinit-rmax"
)

// AgentSpec is one agent of an experiment: its type, the name it is reported under, and its
// parameters. Only the parameters of its type may be given.
type AgentSpec struct {
	Type   string      `yaml:"type"`
	Name   string      `yaml:"name"`
	Params AgentParams `yaml:",inline"`
}

// AgentParams are the parameters of every agent type, by their paper symbols; each type reads
// only its own (see agentTypes).
type AgentParams struct {
	M                int64            `yaml:"m"`                           // known threshold m
	RMax             float64          `yaml:"r_max"`                       // R_max of unknown pairs
	ActionRule       agent.ActionRule `yaml:"action_rule"`                 // optimistic | balanced-wandering
	PlanTolerance    float64          `yaml:"plan_tolerance"`              // ‖V − V*‖∞ of each plan
	Planning         agent.Planning   `yaml:"planning"`                    // full | incremental re-planning
	Ms               int64            `yaml:"m_s"`                         // small known threshold m_s
	Tau              float64          `yaml:"tau"`                         // template gap τ̂
	Consolidate      bool             `yaml:"consolidate"`                 // merge templates closer than τ̂ after each task
	Retry            bool             `yaml:"retry,omitempty"`             // defer new templates (not in the paper)
	EarlyMatch       int64            `yaml:"early_match,omitempty"`       // provisional match before m_s (not in the paper)
	Alpha            float64          `yaml:"alpha"`                       // Q-learning rate α
	Epsilon          float64          `yaml:"epsilon"`                     // ε-greedy exploration
	InitialQ         float64          `yaml:"initial_q"`                   // initial Q values
	T1               int              `yaml:"t1"`                          // phase-1 tasks T_1
	ModelGap         float64          `yaml:"model_gap"`                   // model gap Γ
	Eta              int              `yaml:"eta"`                         // model error tolerance η
	TemplateTransfer bool             `yaml:"template_transfer,omitempty"` // FM-TempLe: augment from the group's templates (not in the presets)
	Delta            float64          `yaml:"delta"`                       // FMRL: error probability δ of an elimination
	Xi               float64          `yaml:"xi"`                          // FMRL: informativeness ξ of tested pairs
	Epsilon1         float64          `yaml:"epsilon1"`                    // Delayed-Q: ε1 of an attempted update
	SampleTasks      int              `yaml:"sample_tasks"`                // MaxQInit: sampling tasks N
	Abstraction      string           `yaml:"abstraction"`                 // Abs-RL: q-star-epsilon | q-star-d | q-star
	AbsEpsilon       float64          `yaml:"abstraction_epsilon"`
	Learner          string           `yaml:"learner"` // Abs-RL: q-learning | delayed-q
}

// agentType describes one type: its default name, its parameter keys with defaults, and how to
// build it.
type agentType struct {
	name     string
	keys     []string
	defaults func(*AgentParams)
	build    func(AgentParams, RunContext) (agent.Agent, error)
}

func rmaxParams(p AgentParams) agent.RMaxParams {
	return agent.RMaxParams{M: p.M, RMax: p.RMax, Rule: p.ActionRule, PlanTolerance: p.PlanTolerance, Planning: p.Planning}
}

func templeParams(p AgentParams) temple.Params {
	return temple.Params{RMax: rmaxParams(p), Ms: p.Ms, Tau: p.Tau, Consolidate: p.Consolidate, Retry: p.Retry, EarlyMatch: p.EarlyMatch}
}

var (
	rmaxKeys   = []string{"m", "r_max", "action_rule", "plan_tolerance", "planning"}
	templeKeys = append([]string{"m_s", "tau", "consolidate", "retry", "early_match"}, rmaxKeys...)
)

func setTempleDefaults(p *AgentParams) {
	setRMaxDefaults(p)
	d := temple.DefaultParams()
	p.Ms, p.Tau, p.Consolidate = d.Ms, d.Tau, d.Consolidate
}

func setRMaxDefaults(p *AgentParams) {
	d := agent.DefaultRMax()
	p.M, p.RMax, p.ActionRule, p.PlanTolerance, p.Planning = d.M, d.RMax, d.Rule, d.PlanTolerance, d.Planning
}

var agentTypes = map[string]agentType{
	TypeRMax: {
		name: "RMax", keys: rmaxKeys, defaults: setRMaxDefaults,
		build: func(p AgentParams, _ RunContext) (agent.Agent, error) { return agent.NewRMax(rmaxParams(p)) },
	},
	TypeQLearning: {
		name: "Q-learning", keys: qlearningKeys,
		defaults: setQLearningDefaults,
		build: func(p AgentParams, _ RunContext) (agent.Agent, error) {
			return agent.NewQLearning(qlearningParams(p))
		},
	},
	TypeOTempLe: {
		name: "O-TempLe", keys: templeKeys, defaults: setTempleDefaults,
		build: func(p AgentParams, _ RunContext) (agent.Agent, error) { return temple.NewOTempLe(templeParams(p)) },
	},
	TypeFMTempLe: {
		name: "FM-TempLe", keys: append([]string{"t1", "model_gap", "eta", "template_transfer"}, templeKeys...),
		defaults: func(p *AgentParams) {
			setTempleDefaults(p)
			d := temple.DefaultFMParams()
			p.Tau, p.T1, p.ModelGap, p.Eta = d.Tau, d.T1, d.ModelGap, d.Eta
		},
		build: func(p AgentParams, _ RunContext) (agent.Agent, error) {
			return temple.NewFMTempLe(temple.FMParams{Params: templeParams(p), T1: p.T1, ModelGap: p.ModelGap, Eta: p.Eta, TemplateTransfer: p.TemplateTransfer})
		},
	},
}

var (
	qlearningKeys = []string{"alpha", "epsilon", "initial_q"}
	delayedQKeys  = []string{"m", "epsilon1", "r_max"}
)

func setQLearningDefaults(p *AgentParams) {
	d := agent.DefaultQLearning()
	p.Alpha, p.Epsilon, p.InitialQ = d.Alpha, d.Epsilon, d.InitialQ
}

func setDelayedQDefaults(p *AgentParams) {
	d := baseline.DefaultDelayedQ()
	p.M, p.Epsilon1, p.RMax = int64(d.M), d.Epsilon1, d.RMax
}

func qlearningParams(p AgentParams) agent.QLearningParams {
	return agent.QLearningParams{Alpha: p.Alpha, Epsilon: p.Epsilon, InitialQ: p.InitialQ}
}

func delayedQParams(p AgentParams) baseline.DelayedQParams {
	return baseline.DelayedQParams{M: int(p.M), Epsilon1: p.Epsilon1, RMax: p.RMax}
}

func models(ctx RunContext) []*mdp.Model {
	out := make([]*mdp.Model, len(ctx.Tasks))
	for k, t := range ctx.Tasks {
		out[k] = t.Model
	}
	return out
}

// maxQInitType is MaxQInit on one base learner (decision 25).
func maxQInitType(name, base string, keys []string, defaults func(*AgentParams)) agentType {
	return agentType{
		name: name, keys: append([]string{"sample_tasks"}, keys...),
		defaults: func(p *AgentParams) {
			defaults(p)
			p.SampleTasks = baseline.DefaultMaxQInit(base).Tasks
		},
		build: func(p AgentParams, ctx RunContext) (agent.Agent, error) {
			mp := baseline.DefaultMaxQInit(base)
			mp.Tasks, mp.QLearning, mp.DelayedQ, mp.RMax = p.SampleTasks, qlearningParams(p), delayedQParams(p), rmaxParams(p)
			return baseline.NewMaxQInit(mp, models(ctx), ctx.Gamma)
		},
	}
}

func init() {
	agentTypes[TypeFMRL] = agentType{
		name: "FMRL", keys: append([]string{"m_s", "t1", "model_gap", "delta", "xi"}, rmaxKeys...),
		defaults: func(p *AgentParams) {
			setRMaxDefaults(p)
			d := baseline.DefaultFMRL()
			p.Ms, p.T1, p.ModelGap, p.Delta, p.Xi = d.Ms, d.T1, d.ModelGap, d.Delta, d.Xi
		},
		build: func(p AgentParams, _ RunContext) (agent.Agent, error) {
			return baseline.NewFMRL(baseline.FMRLParams{RMax: rmaxParams(p), Ms: p.Ms, T1: p.T1, ModelGap: p.ModelGap, Delta: p.Delta, Xi: p.Xi})
		},
	}
	agentTypes[TypeDelayedQ] = agentType{
		name: "Delayed-Q", keys: delayedQKeys, defaults: setDelayedQDefaults,
		build: func(p AgentParams, _ RunContext) (agent.Agent, error) { return baseline.NewDelayedQ(delayedQParams(p)) },
	}
	agentTypes[TypeAbsRL] = agentType{
		name: "Abs-RL", keys: append([]string{"abstraction", "abstraction_epsilon", "learner", "alpha", "epsilon", "initial_q"}, "m", "epsilon1", "r_max"),
		defaults: func(p *AgentParams) {
			setQLearningDefaults(p)
			setDelayedQDefaults(p)
			d := baseline.DefaultAbsRL(baseline.QStarEpsilon)
			p.Abstraction, p.AbsEpsilon, p.Learner = string(d.Kind), d.Epsilon, d.Learner
		},
		build: func(p AgentParams, ctx RunContext) (agent.Agent, error) {
			return baseline.NewAbsRL(baseline.AbsRLParams{Kind: baseline.AbstractionKind(p.Abstraction), Epsilon: p.AbsEpsilon,
				Learner: p.Learner, QLearning: qlearningParams(p), DelayedQ: delayedQParams(p)}, models(ctx), ctx.Gamma)
		},
	}
	agentTypes[TypeMaxQInitQ] = maxQInitType("Q-MaxQInit", baseline.BaseQLearning, []string{"alpha", "epsilon"}, setQLearningDefaults)
	agentTypes[TypeMaxQInitDelayedQ] = maxQInitType("DelayedQ-MaxQInit", baseline.BaseDelayedQ, []string{"m", "epsilon1"}, setDelayedQDefaults)
	agentTypes[TypeMaxQInitRMax] = maxQInitType("RMax-MaxQInit", baseline.BaseRMax, rmaxKeys, setRMaxDefaults)
}

// AgentTypes lists the agent types in name order.
func AgentTypes() []string {
	var out []string
	for k := range agentTypes {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// defaultAgent is an agent of the given type with its default name and parameters.
func defaultAgent(typ string) AgentSpec {
	t := agentTypes[typ]
	a := AgentSpec{Type: typ, Name: t.name}
	t.defaults(&a.Params)
	return a
}

// UnmarshalYAML reads an agent onto its type's defaults and rejects parameters of other types,
// naming the line.
func (a *AgentSpec) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: an agent is a mapping with at least type: NAME", node.Line)
	}
	var head struct {
		Type string `yaml:"type"`
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		if node.Content[i].Value == "type" {
			head.Type = node.Content[i+1].Value
		}
	}
	t, ok := agentTypes[head.Type]
	if !ok {
		return fmt.Errorf("line %d: agent type %q, want one of %s", node.Line, head.Type, strings.Join(AgentTypes(), ", "))
	}
	*a = defaultAgent(head.Type)
	for i := 0; i+1 < len(node.Content); i += 2 {
		key := node.Content[i]
		if key.Value != "type" && key.Value != "name" && !slices.Contains(t.keys, key.Value) {
			return fmt.Errorf("line %d: agent type %s has no parameter %q (it has %s)", key.Line, head.Type,
				key.Value, strings.Join(append([]string{"name"}, t.keys...), ", "))
		}
	}
	type plain AgentSpec // without this method, so Decode does not recurse
	if err := node.Decode((*plain)(a)); err != nil {
		return err
	}
	return nil
}

// MarshalYAML writes the type, the name and the parameters of the agent's type only, so that a
// written spec (spec.yaml) reads back.
func (a AgentSpec) MarshalYAML() (any, error) {
	var params yaml.Node
	if err := params.Encode(a.Params); err != nil {
		return nil, err
	}
	out := &yaml.Node{Kind: yaml.MappingNode}
	for _, kv := range [][2]string{{"type", a.Type}, {"name", a.Name}} {
		out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: kv[0]}, &yaml.Node{Kind: yaml.ScalarNode, Value: kv[1]})
	}
	keys := agentTypes[a.Type].keys
	for i := 0; i+1 < len(params.Content); i += 2 {
		if slices.Contains(keys, params.Content[i].Value) {
			out.Content = append(out.Content, params.Content[i], params.Content[i+1])
		}
	}
	return out, nil
}

// factory returns the agent factory of a.
func (a AgentSpec) factory() AgentFactory {
	t := agentTypes[a.Type]
	return AgentFactory{Name: a.Name, New: func(ctx RunContext) (agent.Agent, error) { return t.build(a.Params, ctx) }}
}
