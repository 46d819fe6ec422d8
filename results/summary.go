package results

import (
	"encoding/json"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/oracle"
	"github.com/temple-rl/temple/stats"
)

// Version is the tool version recorded with every result.
const Version = "0.1.0"

// Summary is summary.json: what was run and each agent's mean per-task reward.
type Summary struct {
	Name        string `json:"name"`
	ToolVersion string `json:"tool_version"`
	// FormatVersion is the results format's version (FormatVersion); a reader refuses a newer one.
	FormatVersion int             `json:"format_version"`
	Seed          uint64          `json:"seed"`
	Runs          int             `json:"runs"`
	Spec          json.RawMessage `json:"spec"` // the resolved spec in the config's names (SpecJSON)
	Agents        []AgentSummary  `json:"agents"`
	// Optimal is the optimal policy's expected per-task reward (with oracle.enabled).
	Optimal *OptimalSummary `json:"optimal,omitempty"`
	// Note says what the numbers are when some tasks were simulators (NoteSimulated).
	Note string `json:"note,omitempty"`
	// Tuning says how temple tune tuned the agents, for a tuned config (Tuning).
	Tuning *Tuning `json:"tuning,omitempty"`
	// OtherVersions are the temple versions, other than ToolVersion, whose cells these results
	// hold (resumed or merged with --allow-other-version).
	OtherVersions []string `json:"other_versions,omitempty"`
}

// NoteSimulated is the summary's note on experiments with simulator tasks.
const NoteSimulated = "some tasks are simulators (discretized continuous control): they have no true model, so the " +
	"oracle is off for them and no optimum or share of optimal is reported; the rewards are measured, and each such " +
	"task's record says \"simulated\": true"

// Estimate is a mean over runs of one number per run, with the half-width of its 95% CI
// (Student's t; 0 with one run).
type Estimate struct {
	Mean   float64   `json:"mean"`
	CI95   float64   `json:"ci95"`
	PerRun []float64 `json:"per_run"`
}

// NewEstimate is the Estimate of the numbers of the runs.
func NewEstimate(perRun []float64) Estimate {
	m, ci := stats.MeanCI(perRun)
	return Estimate{Mean: m, CI95: ci, PerRun: perRun}
}

// OptimalSummary is what the optimal policy of each task's true model earns: per run, the mean
// over tasks of the expected per-task reward (Σ over episodes of V_T(s_0)) and of the mean
// γ-discounted V*(s_0).
type OptimalSummary struct {
	MeanPerTaskReward        Estimate `json:"mean_per_task_reward"`
	MeanDiscountedStartValue Estimate `json:"mean_discounted_start_value"`
	// Epsilon is oracle.epsilon: ε of ε-mistakes as a fraction of each task's V_max.
	Epsilon float64 `json:"epsilon_fraction_of_v_max"`
}

// AgentOracle is an agent measured against the optimum, each number a mean over runs with its
// 95% CI.
type AgentOracle struct {
	// ShareOfOptimal is, per run, the agent's total reward over the tasks divided by the optimal
	// total; absent when some run's optimal total is not positive.
	ShareOfOptimal *Estimate `json:"share_of_optimal,omitempty"`
	// MeanRegret is, per run, the mean over tasks of optimal − obtained per-task reward.
	MeanRegret Estimate `json:"mean_regret"`
	// MeanEpsMistakes is, per run, the mean over tasks of the ε-mistakes.
	MeanEpsMistakes Estimate `json:"mean_eps_mistakes"`
	// MeanPolicyMistakes is, per run, the mean over tasks of Kakade's ε-mistakes (with
	// oracle.policy_mistakes, for agents that give their policy).
	MeanPolicyMistakes *Estimate `json:"mean_policy_mistakes,omitempty"`
	// RegretByPhase is MeanRegret decomposed by the agent's phase (agent.Phase names); the parts
	// add up to MeanRegret (oracle.Record).
	RegretByPhase map[string]Estimate `json:"regret_by_phase"`
}

// AgentSummary is one agent's result across runs.
type AgentSummary struct {
	Name string `json:"name"`
	// MeanPerTaskReward is the mean over runs of the run's mean per-task reward; CI95 is the
	// half-width of its 95% confidence interval across runs (Student's t; 0 with one run).
	MeanPerTaskReward float64   `json:"mean_per_task_reward"`
	CI95              float64   `json:"ci95"`
	PerRun            []float64 `json:"per_run"`
	// Advantage is the mean over runs of (this agent − the baseline agent) in mean per-task
	// reward, with the 95% CI of that paired difference; absent without a baseline.
	Advantage     *float64 `json:"advantage_over_baseline,omitempty"`
	AdvantageCI95 *float64 `json:"advantage_ci95,omitempty"`
	// Oracle measures the agent against the optimum (with oracle.enabled).
	Oracle *AgentOracle `json:"oracle,omitempty"`
}

// Setup is what the writer of a results directory needs to know of the experiment, as plain data:
// package experiment fills it from its resolved spec (results does not import experiment). The
// runner stores it as setup.json before any cell, so that Merge can write the results of shards
// without the runner.
type Setup struct {
	// FormatVersion is the results format's version (FormatVersion), set by WriteSetup.
	FormatVersion int    `json:"format_version"`
	Name          string `json:"name"`
	Seed          uint64 `json:"seed"`
	Runs          int    `json:"runs"`
	Episodes      int    `json:"episodes"` // episodes per task
	// Agents are the agents' names in spec order; the cells of Agents[0] carry the oracle's
	// optimum of every run (all agents of a run share its tasks and start states).
	Agents []string `json:"agents"`
	// Baseline is output.baseline: the agent the others' advantage is measured against ("": none).
	Baseline string `json:"baseline"`
	// Smoothing is output.smoothing, the EMA of the per-task figures (0: none).
	Smoothing float64 `json:"smoothing"`
	// Oracle, Epsilon and PolicyMistakes are oracle.enabled, oracle.epsilon and
	// oracle.policy_mistakes.
	Oracle         bool    `json:"oracle"`
	Epsilon        float64 `json:"epsilon"`
	PolicyMistakes bool    `json:"policy_mistakes"`
	// Spec is the resolved spec as JSON in the config's names (SpecJSON), written as
	// summary.json's "spec"; SpecYAML is the same spec as spec.yaml holds it (setup.json does not
	// repeat it).
	Spec     json.RawMessage `json:"spec"`
	SpecYAML []byte          `json:"-"`
	// Tuning is the spec's tuning: record (a config temple tune wrote), nil otherwise.
	Tuning *Tuning `json:"tuning,omitempty"`
	// OtherVersions are the temple versions, other than this one, whose cells the directory
	// holds (its record's, ClaimOptions.OtherVersions), set by WriteSetup.
	OtherVersions []string `json:"other_versions,omitempty"`
}

// Summarize computes the summary of the cells (in (run, agent) order).
func Summarize(s Setup, cells []CellResult) Summary {
	sum := Summary{Name: s.Name, ToolVersion: Version, FormatVersion: FormatVersion, Seed: s.Seed, Runs: s.Runs, Spec: s.Spec, Tuning: s.Tuning,
		OtherVersions: s.OtherVersions}
	for _, c := range cells {
		if slices.ContainsFunc(c.Tasks, func(t TaskRecord) bool { return t.Simulated }) {
			sum.Note = NoteSimulated
			break
		}
	}
	for _, name := range s.Agents {
		a := AgentSummary{Name: name}
		for _, c := range cells {
			if c.Agent != name {
				continue
			}
			total := 0.0
			for _, t := range c.Tasks {
				total += t.Reward
			}
			a.PerRun = append(a.PerRun, total/float64(len(c.Tasks)))
		}
		a.MeanPerTaskReward, a.CI95 = stats.MeanCI(a.PerRun)
		if s.Oracle {
			a.Oracle = agentOracle(cells, name)
		}
		sum.Agents = append(sum.Agents, a)
	}
	if s.Oracle {
		sum.Optimal = &OptimalSummary{
			MeanPerTaskReward:        NewEstimate(optimalPerRun(s, cells, func(o *oracle.Record) float64 { return o.OptimalReward })),
			MeanDiscountedStartValue: NewEstimate(optimalPerRun(s, cells, func(o *oracle.Record) float64 { return o.OptimalDiscountedStart })),
			Epsilon:                  s.Epsilon,
		}
	}
	var base []float64
	for _, a := range sum.Agents {
		if a.Name == s.Baseline {
			base = a.PerRun
		}
	}
	for k := range sum.Agents {
		a := &sum.Agents[k]
		if base == nil || len(base) != len(a.PerRun) {
			continue
		}
		diff := make([]float64, len(base))
		for r := range diff {
			diff[r] = a.PerRun[r] - base[r]
		}
		m, ci := stats.MeanCI(diff)
		a.Advantage, a.AdvantageCI95 = &m, &ci
	}
	return sum
}

// firstAgentCells returns, in run order, the cells of the spec's first agent: the oracle's
// optimal values depend on the run's tasks and start states only, which all agents share.
func firstAgentCells(s Setup, cells []CellResult) []CellResult {
	var out []CellResult
	for _, c := range cells {
		if c.Agent == s.Agents[0] {
			out = append(out, c)
		}
	}
	return out
}

// optimalPerRun is, per run, the mean over tasks of f of the task's oracle.
func optimalPerRun(s Setup, cells []CellResult, f func(*oracle.Record) float64) []float64 {
	var out []float64
	for _, c := range firstAgentCells(s, cells) {
		out = append(out, meanOver(c.Tasks, func(t TaskRecord) float64 { return f(t.Oracle) }))
	}
	return out
}

func meanOver(tasks []TaskRecord, f func(TaskRecord) float64) float64 {
	x := 0.0
	for _, t := range tasks {
		x += f(t)
	}
	return x / float64(len(tasks))
}

// agentOracle summarises the named agent against the optimum across runs.
func agentOracle(cells []CellResult, name string) *AgentOracle {
	var share, regret, mistakes, policy []float64
	parts := map[string][]float64{}
	shareOK := true
	for _, c := range cells {
		if c.Agent != name {
			continue
		}
		got, best := 0.0, 0.0
		for _, t := range c.Tasks {
			got += t.Reward
			best += t.Oracle.OptimalReward
		}
		shareOK = shareOK && best > 0
		share = append(share, got/best)
		regret = append(regret, meanOver(c.Tasks, func(t TaskRecord) float64 { return t.Oracle.OptimalReward - t.Reward }))
		mistakes = append(mistakes, meanOver(c.Tasks, func(t TaskRecord) float64 { return float64(t.Oracle.Mistakes) }))
		if len(c.Tasks) > 0 && c.Tasks[0].Oracle.PolicyMistakes != nil {
			policy = append(policy, meanOver(c.Tasks, func(t TaskRecord) float64 { return float64(*t.Oracle.PolicyMistakes) }))
		}
		for ph := range agent.Phases {
			parts[ph.String()] = append(parts[ph.String()], meanOver(c.Tasks, func(t TaskRecord) float64 { return t.Oracle.Regret[ph] }))
		}
	}
	a := &AgentOracle{MeanRegret: NewEstimate(regret), MeanEpsMistakes: NewEstimate(mistakes), RegretByPhase: map[string]Estimate{}}
	if shareOK {
		e := NewEstimate(share)
		a.ShareOfOptimal = &e
	}
	if len(policy) > 0 {
		e := NewEstimate(policy)
		a.MeanPolicyMistakes = &e
	}
	for k, v := range parts {
		a.RegretByPhase[k] = NewEstimate(v)
	}
	return a
}
