package results

import (
	"fmt"
	"os"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/oracle"
	"github.com/temple-rl/temple/plots"
	"github.com/temple-rl/temple/stats"
)

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

// regretByPhase is the figure of an agent's regret per task and its parts by phase, when the
// agent reports phases (some of its regret is classified).
func regretByPhase(s Setup, cells []CellResult, name, title, smooth string) (plots.Figure, bool, error) {
	f := plots.Figure{Title: "Regret per task by phase, " + name + ": " + title, XLabel: "Task", YLabel: "Regret per task, by the learner's phase" + smooth, ZeroLine: true}
	series := func(label string, part func(*oracle.Record) float64) error {
		band, err := stats.BandAcross(byAgent(cells, name, func(c CellResult) []float64 { return oracleSeries(c, part) }))
		if err != nil {
			return fmt.Errorf("results: agent %s: %w", name, err)
		}
		f.Series = append(f.Series, plots.Series{Label: label, X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)})
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
	if err := series("total", (*oracle.Record).Total); err != nil {
		return f, false, err
	}
	for ph := agent.Phase(0); ph < agent.Phases; ph++ {
		if ph == agent.Unclassified && !unclassified {
			continue
		}
		if err := series(ph.String(), func(o *oracle.Record) float64 { return o.Regret[ph] }); err != nil {
			return f, false, err
		}
	}
	return f, true, nil
}

// oracleSeries is f of every task's oracle record of the cell.
func oracleSeries(c CellResult, f func(*oracle.Record) float64) []float64 {
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
func thinned(s plots.Series, n int) plots.Series {
	k := (len(s.X) + n - 1) / n
	if k <= 1 {
		return s
	}
	out := plots.Series{Label: s.Label}
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
func writeFigures(dir Dir, s Setup, cells []CellResult) ([]string, error) {
	if err := os.MkdirAll(dir.Path(FiguresDir), 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	smooth := ""
	if s.Smoothing > 0 {
		smooth = fmt.Sprintf(" (EMA %g)", s.Smoothing)
	}
	title := fmt.Sprintf("%s, mean of %d runs, 95%% CI", s.Name, s.Runs)
	f := newAgentFigures(s, title, smooth)
	var base [][]float64
	if s.Baseline != "" {
		base = byAgent(cells, s.Baseline, taskRewards)
	}
	if s.Oracle {
		ref, err := optimalReference(s, cells)
		if err != nil {
			return nil, err
		}
		f.perTask.Reference = ref
	}
	for _, name := range s.Agents {
		if err := f.add(cells, name, base); err != nil {
			return nil, fmt.Errorf("results: agent %s: %w", name, err)
		}
	}
	figs := map[string]plots.Figure{"cumulative_reward": f.cum, "episode_reward": f.perEpisode}
	if len(cells) > 0 && len(cells[0].Tasks) > 1 {
		figs["per_task_reward"] = f.perTask
		if base != nil {
			figs["advantage_over_"+SafeName(s.Baseline)] = f.adv
		}
		if s.Oracle {
			figs["eps_mistakes"] = f.mistakes
			for _, name := range s.Agents {
				fig, ok, err := regretByPhase(s, cells, name, title, smooth)
				if err != nil {
					return nil, err
				}
				if ok {
					figs["regret_by_phase_"+SafeName(name)] = fig
				}
			}
		}
	}
	var written []string
	for name, fig := range figs {
		if err := fig.Save(dir.Path(FiguresDir + "/" + name)); err != nil {
			return nil, err
		}
		written = append(written, figureFiles(name)...)
	}
	return written, nil
}

// figureFiles are the files of the figure name that plots.Figure.Save writes into figures/: its
// PNG and its SVG, as record takes them.
func figureFiles(name string) []string {
	return []string{FiguresDir + "/" + name + ".png", FiguresDir + "/" + name + ".svg"}
}

// optimalReference is the optimal policy's per-task reward, the reference line of the per-task
// figure (with the oracle).
func optimalReference(s Setup, cells []CellResult) (*plots.Series, error) {
	var rows [][]float64
	for _, c := range firstAgentCells(s, cells) {
		rows = append(rows, oracleSeries(c, func(o *oracle.Record) float64 { return o.OptimalReward }))
	}
	band, err := stats.BandAcross(rows)
	if err != nil {
		return nil, fmt.Errorf("results: optimal reward: %w", err)
	}
	return &plots.Series{Label: "optimal", X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)}, nil
}

// agentFigures are the figures with a series per agent: per-task reward, cumulative reward,
// reward per episode, advantage over the baseline and ε-mistakes.
type agentFigures struct {
	s                                       Setup
	block                                   int // episodes per point of perEpisode
	perTask, cum, perEpisode, adv, mistakes plots.Figure
}

// Each figure's title says what it shows, then title (the experiment, runs and band).
func newAgentFigures(s Setup, title, smooth string) *agentFigures {
	f := &agentFigures{s: s, block: blockSize(s.Episodes)}
	f.perTask = plots.Figure{Title: "Per-task reward: " + title, XLabel: "Task", YLabel: "Per-task reward" + smooth}
	f.cum = plots.Figure{Title: "Cumulative reward within a task: " + title, XLabel: "Episode", YLabel: "Cumulative reward per task"}
	f.perEpisode = plots.Figure{Title: "Reward per episode: " + title, XLabel: "Episode", YLabel: "Reward per episode"}
	if f.block > 1 {
		f.perEpisode.YLabel += fmt.Sprintf(" (mean of blocks of %d episodes)", f.block)
	}
	f.adv = plots.Figure{Title: "Advantage over " + s.Baseline + ": " + title, XLabel: "Task", YLabel: "Advantage over " + s.Baseline + smooth, ZeroLine: true}
	f.mistakes = plots.Figure{Title: "ε-mistakes per task: " + title, XLabel: "Task", YLabel: fmt.Sprintf("ε-mistakes per task, ε = %g·V_max%s", s.Epsilon, smooth)}
	return f
}

// add adds the series of agent name; base is the baseline's per-task rewards of every run (nil:
// no baseline).
func (f *agentFigures) add(cells []CellResult, name string, base [][]float64) error {
	s, block := f.s, f.block
	rows := byAgent(cells, name, taskRewards)
	band, err := stats.BandAcross(rows)
	if err != nil {
		return err
	}
	f.perTask.Series = append(f.perTask.Series, plots.Series{Label: name, X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)})
	if band, err = stats.BandAcross(byAgent(cells, name, cumulative)); err != nil {
		return err
	}
	f.cum.Series = append(f.cum.Series, thinned(plots.Series{Label: name, X: seq(len(band.Mean), 1), Band: band}, maxCurvePoints))
	if band, err = stats.BandAcross(byAgent(cells, name, episodeMeans(block))); err != nil {
		return err
	}
	x := make([]float64, len(band.Mean))
	for k := range x {
		x[k] = float64(k*block) + float64(min(block, s.Episodes-k*block)+1)/2 // block centre
	}
	f.perEpisode.Series = append(f.perEpisode.Series, plots.Series{Label: name, X: x, Band: band})
	if s.Oracle {
		if band, err = stats.BandAcross(byAgent(cells, name, func(c CellResult) []float64 {
			return oracleSeries(c, func(o *oracle.Record) float64 { return float64(o.Mistakes) })
		})); err != nil {
			return err
		}
		f.mistakes.Series = append(f.mistakes.Series, plots.Series{Label: name, X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)})
	}
	if base != nil {
		diff := make([][]float64, len(rows))
		for r := range rows {
			diff[r] = make([]float64, len(rows[r]))
			for k := range rows[r] {
				diff[r][k] = rows[r][k] - base[r][k]
			}
		}
		if band, err = stats.BandAcross(diff); err != nil {
			return err
		}
		f.adv.Series = append(f.adv.Series, plots.Series{Label: name, X: seq(len(band.Mean), 1), Band: band.Smoothed(s.Smoothing)})
	}
	return nil
}
