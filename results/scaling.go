package results

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/plots"
)

// A scaling study's directory (Theorem 1's law, experiment's scaling: block) holds one
// experiment directory per point, and at its top scaling.json (its ScalingSetup), scaling.csv (a
// ScalingRow a row), scaling_fit.csv (a ScalingFit a row) and figures/scaling.{png,svg}.

// ScalingSetup is the layout of a scaling study as scaling.json holds it.
type ScalingSetup struct {
	Name   string   `json:"name"`
	Runs   int      `json:"runs"`
	Agents []string `json:"agents"` // in spec order
	// Templates are the agents that learn templates (they have τ̂): the law fitted to them has a
	// term in G and a term in S·A, to the others one in S·A.
	Templates []string            `json:"templates"`
	Points    []ScalingPointSetup `json:"points"`
}

// ScalingPointSetup is one point of a scaling study: its directory and what its tasks are.
type ScalingPointSetup struct {
	Dir       string    `json:"dir"`
	Series    string    `json:"series"` // "size" or "templates"
	Size      int       `json:"size"`   // n of the n×n mazes
	Landforms []float64 `json:"landforms"`
	S         int       `json:"S"`
	SA        int       `json:"SA"`
	G         int       `json:"G"` // distinct true templates of the first run's tasks
}

// WriteScalingSetup writes sc as dir/scaling.json.
func WriteScalingSetup(dir Dir, sc ScalingSetup) error {
	if err := os.MkdirAll(dir.path, 0o755); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if err := writeJSON(dir.Path(scalingFile), sc); err != nil {
		return err
	}
	return record(dir, scalingFile)
}

// ScalingRow is one agent at one point of a scaling experiment: each measure's mean over runs of
// its mean over the tasks of the run, with the 95% CI across runs.
type ScalingRow struct {
	Series    string
	Size      int // n of the n×n mazes
	S, SA     int
	G         int // distinct true templates of the first run's tasks
	Landforms []float64
	Agent     string
	// ExploringSamples are the own samples the base learner kept (RMax: samples of pairs not yet
	// known), the cost that the law bounds: m per pair for RMax.
	ExploringSamples Estimate
	// ExploringLastTask are the exploring samples of the run's last task alone: a template
	// learner's first task has no library to match, so the mean over tasks mixes two regimes.
	ExploringLastTask Estimate
	// ExploringSteps are the steps taken in states with an action not yet known.
	ExploringSteps Estimate
	// EpsMistakes are the steps with Q*(s,a) < V*(s) − ε.
	EpsMistakes Estimate
	// SamplesUntilAllKnown are the own samples until every pair was known, over the tasks where
	// that happened; Unfinished counts the tasks (of all runs) where it did not.
	SamplesUntilAllKnown Estimate
	Unfinished           int
}

// ScalingFit is the law fitted to one agent's exploring samples, per run, then averaged with
// the 95% CI across runs: Slope of log(samples) against log(S·A) over the size series; PerPair
// (c in c·S·A) for a learner without templates, or PerTemplate and PerPair (α, β in α·G + β·S·A)
// for a template learner.
type ScalingFit struct {
	Agent       string
	Slope       Estimate
	PerPair     Estimate
	PerTemplate *Estimate
}

// Scaling measures every agent at every point from the points' cells (cells[k] those of
// sc.Points[k], in (run, agent) order) and fits the law per run.
func Scaling(sc ScalingSetup, cells [][]CellResult) ([]ScalingRow, []ScalingFit) {
	var rows []ScalingRow
	perRun := map[string][]scalingRun{} // per agent, per point: the per-run exploring samples
	for k, pt := range sc.Points {
		for _, name := range sc.Agents {
			row := ScalingRow{Series: pt.Series, Size: pt.Size, S: pt.S, SA: pt.SA, G: pt.G, Landforms: pt.Landforms, Agent: name}
			var explore, last, steps, mistakes, until []float64
			for _, c := range cells[k] {
				if c.Agent != name {
					continue
				}
				var e, st, mi, un, finished float64
				for _, t := range c.Tasks {
					e += taskMetric(t, "samples_recorded")
					if t.Oracle != nil {
						st += float64(t.Oracle.StepsByPhase[agent.Exploring])
						mi += float64(t.Oracle.Mistakes)
					}
					if u := taskMetric(t, "samples_until_all_known"); u >= 0 {
						un += u
						finished++
					} else {
						row.Unfinished++
					}
				}
				n := float64(len(c.Tasks))
				explore, steps, mistakes = append(explore, e/n), append(steps, st/n), append(mistakes, mi/n)
				last = append(last, taskMetric(c.Tasks[len(c.Tasks)-1], "samples_recorded"))
				if finished > 0 {
					until = append(until, un/finished)
				}
			}
			row.ExploringSamples, row.ExploringSteps, row.EpsMistakes = NewEstimate(explore), NewEstimate(steps), NewEstimate(mistakes)
			row.ExploringLastTask = NewEstimate(last)
			row.SamplesUntilAllKnown = NewEstimate(until)
			rows = append(rows, row)
			perRun[name] = append(perRun[name], scalingRun{row.Series, float64(row.SA), float64(row.G), explore})
		}
	}
	var fits []ScalingFit
	for _, name := range sc.Agents {
		fits = append(fits, fitScaling(name, perRun[name], slices.Contains(sc.Templates, name)))
	}
	return rows, fits
}

// taskMetric is the value of a per-task metric, NaN when the agent does not report it.
func taskMetric(t TaskRecord, name string) float64 {
	for _, m := range t.Metrics {
		if m.Name == name {
			return m.Value
		}
	}
	return math.NaN()
}

// scalingRun is one agent's per-run exploring samples at one point.
type scalingRun struct {
	series string
	sa, g  float64
	perRun []float64
}

// fitScaling fits the law per run and averages the fits over runs.
func fitScaling(name string, pts []scalingRun, templates bool) ScalingFit {
	fit := ScalingFit{Agent: name}
	runs := 0
	for _, p := range pts {
		runs = max(runs, len(p.perRun))
	}
	var slopes, perPair, perTemplate []float64
	for r := 0; r < runs; r++ {
		var lx, ly, sa, g, y []float64
		for _, p := range pts {
			if r >= len(p.perRun) || !(p.perRun[r] > 0) {
				continue
			}
			if p.series == "size" {
				lx, ly = append(lx, math.Log(p.sa)), append(ly, math.Log(p.perRun[r]))
			}
			sa, g, y = append(sa, p.sa), append(g, p.g), append(y, p.perRun[r])
		}
		if len(lx) >= 2 {
			_, slope := stat.LinearRegression(lx, ly, nil, false)
			slopes = append(slopes, slope)
		}
		if templates {
			if a, b, ok := fitTwo(g, sa, y); ok {
				perTemplate, perPair = append(perTemplate, a), append(perPair, b)
			}
		} else if len(sa) > 0 {
			_, c := stat.LinearRegression(sa, y, nil, true) // through the origin: y = c·S·A
			perPair = append(perPair, c)
		}
	}
	fit.Slope, fit.PerPair = NewEstimate(slopes), NewEstimate(perPair)
	if templates {
		e := NewEstimate(perTemplate)
		fit.PerTemplate = &e
	}
	return fit
}

// fitTwo is (a, b) minimising Σ (y − a·u − b·v)², by the normal equations; ok is false when
// they are singular (u and v proportional over the points).
func fitTwo(u, v, y []float64) (a, b float64, ok bool) {
	var suu, svv, suv, suy, svy float64
	for i := range y {
		suu += u[i] * u[i]
		svv += v[i] * v[i]
		suv += u[i] * v[i]
		suy += u[i] * y[i]
		svy += v[i] * y[i]
	}
	det := suu*svv - suv*suv
	if math.Abs(det) <= 1e-12*suu*svv {
		return 0, 0, false
	}
	return (suy*svv - svy*suv) / det, (svy*suu - suy*suv) / det, true
}

// WriteScaling writes scaling.csv, scaling_fit.csv and figures/scaling.{png,svg}.
func WriteScaling(dir Dir, sc ScalingSetup, rows []ScalingRow, fits []ScalingFit) error {
	header := "series,size,landforms,agent,S,SA,G,exploring_samples,exploring_samples_ci95,exploring_samples_last_task," +
		"exploring_samples_last_task_ci95,exploring_steps,exploring_steps_ci95," +
		"eps_mistakes,eps_mistakes_ci95,samples_until_all_known,samples_until_all_known_ci95,unfinished_tasks"
	if err := WriteCSV(dir.Path(ScalingFile), header, func(w *bufio.Writer) {
		for _, r := range rows {
			var lf []string
			for _, l := range r.Landforms {
				lf = append(lf, Num(l))
			}
			fmt.Fprintf(w, "%s,%d,%s,%s,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d\n", r.Series, r.Size, CSVField(strings.Join(lf, " ")),
				CSVField(r.Agent), r.S, r.SA, r.G, Num(r.ExploringSamples.Mean), Num(r.ExploringSamples.CI95),
				Num(r.ExploringLastTask.Mean), Num(r.ExploringLastTask.CI95),
				Num(r.ExploringSteps.Mean), Num(r.ExploringSteps.CI95), Num(r.EpsMistakes.Mean), Num(r.EpsMistakes.CI95),
				Num(r.SamplesUntilAllKnown.Mean), Num(r.SamplesUntilAllKnown.CI95), r.Unfinished)
		}
	}); err != nil {
		return err
	}
	if err := WriteCSV(dir.Path(ScalingFitFile), "agent,slope,slope_ci95,per_pair,per_pair_ci95,per_template,per_template_ci95", func(w *bufio.Writer) {
		for _, f := range fits {
			pt, ptCI := "", ""
			if f.PerTemplate != nil {
				pt, ptCI = Num(f.PerTemplate.Mean), Num(f.PerTemplate.CI95)
			}
			fmt.Fprintf(w, "%s,%s,%s,%s,%s,%s,%s\n", CSVField(f.Agent), Num(f.Slope.Mean), Num(f.Slope.CI95),
				Num(f.PerPair.Mean), Num(f.PerPair.CI95), pt, ptCI)
		}
	}); err != nil {
		return err
	}
	fig := plots.Figure{Title: fmt.Sprintf("%s: exploring samples per task against S·A, %d runs, 95%% CI", sc.Name, sc.Runs),
		XLabel: "log₁₀ S·A (state-action pairs)", YLabel: "log₁₀ exploring samples per task", Points: true}
	for k, name := range sc.Agents {
		ser := plots.Series{Label: fmt.Sprintf("%s (slope %.2f ± %.2f)", name, fits[k].Slope.Mean, fits[k].Slope.CI95)}
		for _, r := range rows {
			if r.Agent != name || r.Series != "size" || !(r.ExploringSamples.Mean > 0) {
				continue
			}
			lo := math.Max(r.ExploringSamples.Mean-r.ExploringSamples.CI95, r.ExploringSamples.Mean/10)
			ser.X = append(ser.X, math.Log10(float64(r.SA)))
			ser.Band.Mean = append(ser.Band.Mean, math.Log10(r.ExploringSamples.Mean))
			ser.Band.Lo = append(ser.Band.Lo, math.Log10(lo))
			ser.Band.Hi = append(ser.Band.Hi, math.Log10(r.ExploringSamples.Mean+r.ExploringSamples.CI95))
		}
		if len(ser.X) > 0 {
			fig.Series = append(fig.Series, ser)
		}
	}
	if len(fig.Series) > 0 {
		if err := os.MkdirAll(dir.Path(FiguresDir), 0o755); err != nil {
			return fmt.Errorf("results: %w", err)
		}
		if err := fig.Save(dir.Path(FiguresDir + "/scaling")); err != nil {
			return err
		}
	}
	written := []string{ScalingFile, ScalingFitFile}
	if len(fig.Series) > 0 {
		written = append(written, figureFiles("scaling")...)
	}
	return record(dir, written...)
}
