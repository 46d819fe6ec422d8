// Writing a results directory: the summary, every CSV, summary.json, timings.json and the
// figures. Longer than ~400 lines because each file of the format has its writer here, beside the
// summary types they share (the format is documented in doc.go).

package results

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/report"
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
	m, ci := report.MeanCI(perRun)
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
	// add up to MeanRegret (TaskOracle).
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
}

// Summarize computes the summary of the cells (in (run, agent) order).
func Summarize(s Setup, cells []CellResult) Summary {
	sum := Summary{Name: s.Name, ToolVersion: Version, FormatVersion: FormatVersion, Seed: s.Seed, Runs: s.Runs, Spec: s.Spec}
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
		a.MeanPerTaskReward, a.CI95 = report.MeanCI(a.PerRun)
		if s.Oracle {
			a.Oracle = agentOracle(cells, name)
		}
		sum.Agents = append(sum.Agents, a)
	}
	if s.Oracle {
		sum.Optimal = &OptimalSummary{
			MeanPerTaskReward:        NewEstimate(optimalPerRun(s, cells, func(o *TaskOracle) float64 { return o.OptimalReward })),
			MeanDiscountedStartValue: NewEstimate(optimalPerRun(s, cells, func(o *TaskOracle) float64 { return o.OptimalDiscountedStart })),
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
		m, ci := report.MeanCI(diff)
		a.Advantage, a.AdvantageCI95 = &m, &ci
	}
	return sum
}

// Write writes the results directory: spec.yaml, per_task.csv, metrics.csv, with the oracle
// oracle.csv and regret.csv, summary.json, timings.json, the figures and report.html. Everything
// but timings.json (and the seconds report.html shows from it) is a function of the spec and seed.
func Write(dir string, s Setup, cells []CellResult) (Summary, error) {
	sum := Summarize(s, cells)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return sum, fmt.Errorf("results: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, "spec.yaml"), s.SpecYAML); err != nil {
		return sum, fmt.Errorf("results: %w", err)
	}
	if err := WriteCSV(filepath.Join(dir, "per_task.csv"), "run,agent,task,reward,steps,states,actions,start", func(w *bufio.Writer) {
		for _, c := range cells {
			for _, t := range c.Tasks {
				fmt.Fprintf(w, "%d,%s,%d,%s,%d,%d,%d,%d\n", c.Run, CSVField(c.Agent), t.Task, Num(t.Reward), t.Steps, t.States, t.Actions, t.Start)
			}
		}
	}); err != nil {
		return sum, err
	}
	if err := WriteCSV(filepath.Join(dir, "metrics.csv"), "run,agent,task,metric,value", func(w *bufio.Writer) {
		for _, c := range cells {
			for _, t := range c.Tasks {
				for _, m := range t.Metrics {
					fmt.Fprintf(w, "%d,%s,%d,%s,%s\n", c.Run, CSVField(c.Agent), t.Task, m.Name, Num(m.Value))
				}
			}
		}
	}); err != nil {
		return sum, err
	}
	if s.Oracle {
		if err := writeOracle(dir, s, cells); err != nil {
			return sum, err
		}
	}
	if err := writeJSON(filepath.Join(dir, "summary.json"), sum); err != nil {
		return sum, err
	}
	timings := map[string]any{}
	total := 0.0
	for _, c := range cells {
		if !c.Resumed {
			timings[CellName(c.Run, c.Agent)] = c.Seconds
			total += c.Seconds
		}
	}
	if err := writeJSON(filepath.Join(dir, "timings.json"), map[string]any{"cell_seconds": timings, "total_cell_seconds": total}); err != nil {
		return sum, err
	}
	if err := writeFigures(filepath.Join(dir, "figures"), s, cells); err != nil {
		return sum, err
	}
	return sum, WriteReport(dir)
}

// Num is a number as the CSV files hold it: the shortest decimal that reads back exactly.
func Num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// CSVField quotes a CSV field when it holds a comma, a quote or a newline (RFC 4180).
func CSVField(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// WriteCSV writes the CSV file path, atomically: its header line, then the rows.
func WriteCSV(path, header string, rows func(*bufio.Writer)) error {
	err := atomicfile.WriteWith(path, func(w *bufio.Writer) error {
		w.WriteString(header + "\n")
		rows(w)
		return nil
	})
	if err != nil {
		return fmt.Errorf("results: writing %s: %w", path, err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("results: encoding %s: %w", path, err)
	}
	if err := atomicfile.Write(path, append(b, '\n')); err != nil {
		return fmt.Errorf("results: writing %s: %w", path, err)
	}
	return nil
}

// byAgent returns, for the named agent, one row per run of f(cell).
func byAgent(cells []CellResult, name string, f func(CellResult) []float64) [][]float64 {
	var rows [][]float64
	for _, c := range cells {
		if c.Agent == name {
			rows = append(rows, f(c))
		}
	}
	return rows
}

func taskRewards(c CellResult) []float64 {
	out := make([]float64, len(c.Tasks))
	for k, t := range c.Tasks {
		out[k] = t.Reward
	}
	return out
}

// oracleSeries is f of every task's oracle record of the cell.
// regretByPhase is the figure of an agent's regret per task and its parts by phase, when the
// agent reports phases (some of its regret is classified).
func regretByPhase(s Setup, cells []CellResult, name, title, smooth string) (report.Figure, bool, error) {
	f := report.Figure{Title: title + ": " + name, XLabel: "Task", YLabel: "Regret per task, by the learner's phase" + smooth, ZeroLine: true}
	series := func(label string, part func(*TaskOracle) float64) error {
		band, err := report.BandAcross(byAgent(cells, name, func(c CellResult) []float64 { return oracleSeries(c, part) }))
		if err != nil {
			return fmt.Errorf("results: agent %s: %w", name, err)
		}
		f.Series = append(f.Series, report.Series{Label: label, X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)})
		return nil
	}
	classified, unclassified := false, false
	for _, c := range cells {
		if c.Agent != name {
			continue
		}
		for _, t := range c.Tasks {
			classified = classified || t.Oracle.Total() != t.Oracle.Regret[agent.Unclassified]
			unclassified = unclassified || t.Oracle.Regret[agent.Unclassified] != 0
		}
	}
	if !classified {
		return f, false, nil
	}
	if err := series("total", (*TaskOracle).Total); err != nil {
		return f, false, err
	}
	for ph := agent.Phase(0); ph < agent.Phases; ph++ {
		if ph == agent.Unclassified && !unclassified {
			continue
		}
		if err := series(ph.String(), func(o *TaskOracle) float64 { return o.Regret[ph] }); err != nil {
			return f, false, err
		}
	}
	return f, true, nil
}

func oracleSeries(c CellResult, f func(*TaskOracle) float64) []float64 {
	out := make([]float64, len(c.Tasks))
	for k, t := range c.Tasks {
		out[k] = f(t.Oracle)
	}
	return out
}

func cumulative(c CellResult) []float64 {
	out := make([]float64, len(c.EpisodeSums))
	acc := 0.0
	for e, x := range c.EpisodeSums {
		acc += x
		out[e] = acc / float64(len(c.Tasks))
	}
	return out
}

// maxCurvePoints is how many points a cumulative curve keeps at most: it is smooth, and a point per
// episode would make the SVG of a 20 000-episode run megabytes long.
const maxCurvePoints = 1000

// thinned keeps every k-th point of s (and its last) so that it has at most n points.
func thinned(s report.Series, n int) report.Series {
	k := (len(s.X) + n - 1) / n
	if k <= 1 {
		return s
	}
	out := report.Series{Label: s.Label}
	keep := func(i int) {
		out.X = append(out.X, s.X[i])
		out.Band.Mean = append(out.Band.Mean, s.Band.Mean[i])
		if s.Band.Lo != nil {
			out.Band.Lo, out.Band.Hi = append(out.Band.Lo, s.Band.Lo[i]), append(out.Band.Hi, s.Band.Hi[i])
		}
	}
	for i := 0; i < len(s.X); i += k {
		keep(i)
	}
	if (len(s.X)-1)%k != 0 {
		keep(len(s.X) - 1)
	}
	return out
}

// episodeBlocks is how many points the per-episode figure has at most: episodes are averaged in
// blocks so that a long run still reads as a curve.
const episodeBlocks = 200

// blockSize is the number of episodes per point of the per-episode figure.
func blockSize(episodes int) int { return (episodes + episodeBlocks - 1) / episodeBlocks }

// episodeMeans returns the mean return per episode (over the cell's tasks), averaged over blocks
// of block consecutive episodes.
func episodeMeans(block int) func(CellResult) []float64 {
	return func(c CellResult) []float64 {
		var out []float64
		for from := 0; from < len(c.EpisodeSums); from += block {
			to := min(from+block, len(c.EpisodeSums))
			sum := 0.0
			for _, x := range c.EpisodeSums[from:to] {
				sum += x
			}
			out = append(out, sum/float64(to-from)/float64(len(c.Tasks)))
		}
		return out
	}
}

func seq(n int, from float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = from + float64(i)
	}
	return x
}

// writeFigures draws per-task reward, advantage over the baseline (when a run has more than one
// task), cumulative reward and reward per episode, each as the mean over runs with its 95%
// confidence band.
func writeFigures(dir string, s Setup, cells []CellResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	smooth := ""
	if s.Smoothing > 0 {
		smooth = fmt.Sprintf(" (EMA %g)", s.Smoothing)
	}
	title := fmt.Sprintf("%s, mean of %d runs, 95%% CI", s.Name, s.Runs)
	perTask := report.Figure{Title: title, XLabel: "Task", YLabel: "Per-task reward" + smooth}
	cum := report.Figure{Title: title, XLabel: "Episode", YLabel: "Cumulative reward per task"}
	block := blockSize(s.Episodes)
	perEpisode := report.Figure{Title: title, XLabel: "Episode", YLabel: "Reward per episode"}
	if block > 1 {
		perEpisode.YLabel += fmt.Sprintf(" (mean of blocks of %d episodes)", block)
	}
	adv := report.Figure{Title: title, XLabel: "Task", YLabel: "Advantage over " + s.Baseline + smooth, ZeroLine: true}
	mistakes := report.Figure{Title: title, XLabel: "Task", YLabel: fmt.Sprintf("ε-mistakes per task, ε = %g·V_max%s", s.Epsilon, smooth)}
	var base [][]float64
	if s.Baseline != "" {
		base = byAgent(cells, s.Baseline, taskRewards)
	}
	if s.Oracle {
		var rows [][]float64
		for _, c := range firstAgentCells(s, cells) {
			rows = append(rows, oracleSeries(c, func(o *TaskOracle) float64 { return o.OptimalReward }))
		}
		band, err := report.BandAcross(rows)
		if err != nil {
			return fmt.Errorf("results: optimal reward: %w", err)
		}
		perTask.Reference = &report.Series{Label: "optimal", X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)}
	}
	for _, name := range s.Agents {
		rows := byAgent(cells, name, taskRewards)
		band, err := report.BandAcross(rows)
		if err != nil {
			return fmt.Errorf("results: agent %s: %w", name, err)
		}
		perTask.Series = append(perTask.Series, report.Series{Label: name, X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)})
		if band, err = report.BandAcross(byAgent(cells, name, cumulative)); err != nil {
			return fmt.Errorf("results: agent %s: %w", name, err)
		}
		cum.Series = append(cum.Series, thinned(report.Series{Label: name, X: seq(len(band.Mean), 1), Band: band}, maxCurvePoints))
		if band, err = report.BandAcross(byAgent(cells, name, episodeMeans(block))); err != nil {
			return fmt.Errorf("results: agent %s: %w", name, err)
		}
		x := make([]float64, len(band.Mean))
		for k := range x {
			x[k] = float64(k*block) + float64(min(block, s.Episodes-k*block)+1)/2 // block centre
		}
		perEpisode.Series = append(perEpisode.Series, report.Series{Label: name, X: x, Band: band})
		if s.Oracle {
			if band, err = report.BandAcross(byAgent(cells, name, func(c CellResult) []float64 {
				return oracleSeries(c, func(o *TaskOracle) float64 { return float64(o.Mistakes) })
			})); err != nil {
				return fmt.Errorf("results: agent %s: %w", name, err)
			}
			mistakes.Series = append(mistakes.Series, report.Series{Label: name, X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)})
		}
		if base != nil {
			diff := make([][]float64, len(rows))
			for r := range rows {
				diff[r] = make([]float64, len(rows[r]))
				for k := range rows[r] {
					diff[r][k] = rows[r][k] - base[r][k]
				}
			}
			if band, err = report.BandAcross(diff); err != nil {
				return fmt.Errorf("results: agent %s: %w", name, err)
			}
			adv.Series = append(adv.Series, report.Series{Label: name, X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)})
		}
	}
	figs := map[string]report.Figure{"cumulative_reward": cum, "episode_reward": perEpisode}
	if len(cells) > 0 && len(cells[0].Tasks) > 1 {
		figs["per_task_reward"] = perTask
		if base != nil {
			figs["advantage_over_"+SafeName(s.Baseline)] = adv
		}
		if s.Oracle {
			figs["eps_mistakes"] = mistakes
			for _, name := range s.Agents {
				f, ok, err := regretByPhase(s, cells, name, title, smooth)
				if err != nil {
					return err
				}
				if ok {
					figs["regret_by_phase_"+SafeName(name)] = f
				}
			}
		}
	}
	for name, f := range figs {
		if err := f.Save(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
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
func optimalPerRun(s Setup, cells []CellResult, f func(*TaskOracle) float64) []float64 {
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

// writeOracle writes oracle.csv (the optimum of every task of every run) and regret.csv (every
// agent against it, with the regret decomposition).
func writeOracle(dir string, s Setup, cells []CellResult) error {
	if err := WriteCSV(filepath.Join(dir, "oracle.csv"), "run,task,start,optimal_reward,optimal_discounted_start_value", func(w *bufio.Writer) {
		for _, c := range firstAgentCells(s, cells) {
			for _, t := range c.Tasks {
				fmt.Fprintf(w, "%d,%d,%d,%s,%s\n", c.Run, t.Task, t.Start, Num(t.Oracle.OptimalReward), Num(t.Oracle.OptimalDiscountedStart))
			}
		}
	}); err != nil {
		return err
	}
	header := "run,agent,task,reward,optimal_reward,regret,share_of_optimal,eps_mistakes"
	for ph := range agent.Phases {
		header += ",regret_" + ph.String()
	}
	policy := s.PolicyMistakes // a last column, empty for agents that give no policy
	if policy {
		header += ",policy_mistakes"
	}
	return WriteCSV(filepath.Join(dir, "regret.csv"), header, func(w *bufio.Writer) {
		for _, c := range cells {
			for _, t := range c.Tasks {
				o := t.Oracle
				share := ""
				if o.OptimalReward > 0 {
					share = Num(t.Reward / o.OptimalReward)
				}
				fmt.Fprintf(w, "%d,%s,%d,%s,%s,%s,%s,%d", c.Run, CSVField(c.Agent), t.Task, Num(t.Reward), Num(o.OptimalReward),
					Num(o.OptimalReward-t.Reward), share, o.Mistakes)
				for _, g := range o.Regret {
					fmt.Fprintf(w, ",%s", Num(g))
				}
				if policy {
					w.WriteByte(',')
					if o.PolicyMistakes != nil {
						fmt.Fprintf(w, "%d", *o.PolicyMistakes)
					}
				}
				w.WriteByte('\n')
			}
		}
	})
}
