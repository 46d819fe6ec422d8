// The scaling: block (Theorem 1's law): its points, its run, its per-run fits and scaling.csv.
// Longer than ~400 lines because the measure, the fits and their files belong to one experiment
// kind, as sweep.go's do to sweeps.

package experiment

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/report"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
)

// Scaling is a scaling: block. It measures the sample-complexity law behind the paper
// (Theorem 1): O-TempLe's non-ε-optimal steps are Õ(S·G·V³/(ε³(1−γ)³) + T·S·A·V/(τ̄²·ε(1−γ))) —
// a term in the G templates with the large threshold m and a term in every pair with only the
// small threshold m_s — against RMax's Õ(T·S²·A·V³/(ε³(1−γ)³)), m samples in every pair. It runs
// the experiment (an online-maze family) at two series of points:
//
//   - the size series: n×n mazes for every n of Sizes, with the family's landforms (G fixed);
//   - the template series: TemplatesSize×TemplatesSize mazes with each landform set of
//     LandformSets (G growing at a fixed size).
//
// At each point every task gets Budget·m·S·A steps (m the largest known threshold of the agents),
// so that RMax can finish exploring — and each measure says when it did not. It writes one
// cells directory per point, scaling.csv and figures/scaling.{png,svg}.
type Scaling struct {
	Sizes         []int       `yaml:"sizes"`          // n of the size series' n×n mazes
	TemplatesSize int         `yaml:"templates_size"` // n of the template series (0: none)
	LandformSets  [][]float64 `yaml:"landform_sets"`  // landforms of each point of the template series
	Budget        float64     `yaml:"budget"`         // steps per task, in units of m·S·A
}

// scalingPoint is one experiment of a scaling block.
type scalingPoint struct {
	series    string // "size" or "templates"
	size      int
	landforms []float64
}

// dir is the point's cells directory, below the scaling directory.
func (p scalingPoint) dir() string {
	if p.series == "size" {
		return fmt.Sprintf("size-%d", p.size)
	}
	var ls []string
	for _, l := range p.landforms {
		ls = append(ls, results.Num(l))
	}
	return fmt.Sprintf("landforms-%s", strings.Join(ls, "_"))
}

func (sc *Scaling) validate(s Spec) error {
	switch {
	case s.Tasks.Family != FamilyOnlineMaze:
		return fmt.Errorf("scaling: tasks.family = %q, want %s (the law is measured on mazes)", s.Tasks.Family, FamilyOnlineMaze)
	case len(s.Sweep) > 0:
		return errors.New("scaling: a spec has a sweep: or a scaling: block, not both")
	case len(sc.Sizes) == 0 && len(sc.LandformSets) == 0:
		return errors.New("scaling: sizes and landform_sets are both empty, want at least one point")
	case !(sc.Budget > 0) || math.IsInf(sc.Budget, 0):
		return fmt.Errorf("scaling.budget = %v, want a finite number > 0", sc.Budget)
	case len(sc.LandformSets) > 0 && sc.TemplatesSize < 2:
		return fmt.Errorf("scaling.templates_size = %d, want at least 2 with landform_sets", sc.TemplatesSize)
	}
	for _, n := range sc.Sizes {
		if n < 2 {
			return fmt.Errorf("scaling.sizes: %d, want every size at least 2", n)
		}
	}
	for k, set := range sc.LandformSets {
		if len(set) == 0 {
			return fmt.Errorf("scaling.landform_sets[%d] is empty", k)
		}
	}
	for _, a := range s.Agents {
		if !a.Has("m") {
			return fmt.Errorf("scaling: agent %s (%s) has no known threshold m; the law is about model-based learners", a.Name, a.Type)
		}
	}
	return nil
}

func (sc *Scaling) points(s Spec) []scalingPoint {
	var out []scalingPoint
	lf := s.Tasks.Params.(*onlineMazeTasks).Landforms
	for _, n := range sc.Sizes {
		out = append(out, scalingPoint{"size", n, lf})
	}
	for _, set := range sc.LandformSets {
		out = append(out, scalingPoint{"templates", sc.TemplatesSize, set})
	}
	return out
}

// experiments are the specs s runs — one per point of a sweep or a scaling block, else s
// itself — and their cells directories below s's.
func (s Spec) experiments() ([]Spec, []string, error) {
	var specs []Spec
	var dirs []string
	switch {
	case len(s.Sweep) > 0:
		for _, pt := range sweepPoints(s.Sweep) {
			ps, err := s.at(pt)
			if err != nil {
				return nil, nil, err
			}
			specs, dirs = append(specs, ps), append(dirs, pointDir(s, pt))
		}
	case s.Scaling != nil:
		m, err := largestM(s)
		if err != nil {
			return nil, nil, err
		}
		for _, pt := range s.Scaling.points(s) {
			ps, err := s.Scaling.at(s, pt, m)
			if err != nil {
				return nil, nil, err
			}
			specs, dirs = append(specs, ps), append(dirs, pt.dir())
		}
	default:
		specs, dirs = []Spec{s}, []string{""}
	}
	return specs, dirs, nil
}

// largestM is the largest known threshold m of the agents.
func largestM(s Spec) (int64, error) {
	var m int64
	for _, a := range s.Agents {
		var n int64
		if err := a.param("m", &n); err != nil {
			return 0, err
		}
		m = max(m, n)
	}
	return m, nil
}

// at is the spec of one point: the point's maze size and landforms, and the step budget.
func (sc *Scaling) at(s Spec, p scalingPoint, m int64) (Spec, error) {
	out := s
	out.Scaling = nil
	tasks, err := cloneTasks(s.Tasks)
	if err != nil {
		return Spec{}, err
	}
	maze := tasks.Params.(*onlineMazeTasks)
	maze.Width, maze.Height, maze.Landforms = p.size, p.size, slices.Clone(p.landforms)
	out.Tasks = tasks
	pairs := float64(p.size * p.size * maze.Actions)
	out.Episodes = int(math.Ceil(sc.Budget * float64(m) * pairs / float64(s.Steps)))
	out.Name = s.Name + " " + p.dir()
	return out, out.Validate()
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

// ExecuteScaling runs every point of the spec's scaling block into dir, then writes scaling.csv
// (one row per agent and point), scaling_fit.csv and figures/scaling.{png,svg}.
func ExecuteScaling(ctx context.Context, s Spec, dir string, jobs int, progress Progress) ([]ScalingRow, []ScalingFit, error) {
	if s.Scaling == nil {
		return nil, nil, errors.New("experiment: the spec has no scaling: block")
	}
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	release, err := claim(dir, s, progress)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	return executeScaling(ctx, s, dir, jobs, progress)
}

// executeScaling is ExecuteScaling in a directory already claimed; each point claims its own.
func executeScaling(ctx context.Context, s Spec, dir string, jobs int, progress Progress) ([]ScalingRow, []ScalingFit, error) {
	m, err := largestM(s)
	if err != nil {
		return nil, nil, err
	}
	var rows []ScalingRow
	perRun := map[string][]scalingRun{} // per agent, per point: the per-run exploring samples
	for _, pt := range s.Scaling.points(s) {
		ps, err := s.Scaling.at(s, pt, m)
		if err != nil {
			return nil, nil, err
		}
		plan, cells, err := runPoint(ctx, ps, filepath.Join(dir, pt.dir()), jobs, progress)
		if err != nil {
			return nil, nil, err
		}
		var truth template.Truth
		for _, t := range plan.Runs[0] {
			truth.Include(template.OfModel(t.Model).Templates...)
		}
		S, A := plan.Runs[0][0].Model.S, plan.Runs[0][0].Model.A
		for _, name := range ps.AgentNames() {
			row := ScalingRow{Series: pt.series, Size: pt.size, S: S, SA: S * A, G: len(truth.Templates), Landforms: pt.landforms, Agent: name}
			var explore, last, steps, mistakes, until []float64
			for _, c := range cells {
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
			row.ExploringSamples, row.ExploringSteps, row.EpsMistakes = results.NewEstimate(explore), results.NewEstimate(steps), results.NewEstimate(mistakes)
			row.ExploringLastTask = results.NewEstimate(last)
			row.SamplesUntilAllKnown = results.NewEstimate(until)
			rows = append(rows, row)
			perRun[name] = append(perRun[name], scalingRun{row.Series, float64(row.SA), float64(row.G), explore})
		}
	}
	var fits []ScalingFit
	for _, name := range s.AgentNames() {
		fits = append(fits, fitScaling(name, perRun[name], templateLearner(s, name)))
	}
	if err := writeScaling(dir, s, rows, fits); err != nil {
		return nil, nil, err
	}
	return rows, fits, nil
}

// runPoint runs the experiment of one point into its own directory, which it claims, and
// returns its plan (for the tasks' true templates) and the cells' results.
func runPoint(ctx context.Context, s Spec, dir string, jobs int, progress Progress) (*Plan, []CellResult, error) {
	release, err := claim(dir, s, progress)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	plan, err := prepare(s, dir)
	if err != nil {
		return nil, nil, err
	}
	cells, err := Run(ctx, plan, dir, jobs, progress)
	if err != nil {
		return nil, nil, err
	}
	_, err = Write(dir, s, cells)
	return plan, cells, err
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

// templateLearner reports whether agent name learns templates (has τ̂).
func templateLearner(s Spec, name string) bool {
	for _, a := range s.Agents {
		if a.Name == name {
			return a.Has("tau")
		}
	}
	return false
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
	fit.Slope, fit.PerPair = results.NewEstimate(slopes), results.NewEstimate(perPair)
	if templates {
		e := results.NewEstimate(perTemplate)
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

func writeScaling(dir string, s Spec, rows []ScalingRow, fits []ScalingFit) error {
	header := "series,size,landforms,agent,S,SA,G,exploring_samples,exploring_samples_ci95,exploring_samples_last_task," +
		"exploring_samples_last_task_ci95,exploring_steps,exploring_steps_ci95," +
		"eps_mistakes,eps_mistakes_ci95,samples_until_all_known,samples_until_all_known_ci95,unfinished_tasks"
	if err := results.WriteCSV(filepath.Join(dir, "scaling.csv"), header, func(w *bufio.Writer) {
		for _, r := range rows {
			var lf []string
			for _, l := range r.Landforms {
				lf = append(lf, results.Num(l))
			}
			fmt.Fprintf(w, "%s,%d,%s,%s,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d\n", r.Series, r.Size, results.CSVField(strings.Join(lf, " ")),
				results.CSVField(r.Agent), r.S, r.SA, r.G, results.Num(r.ExploringSamples.Mean), results.Num(r.ExploringSamples.CI95),
				results.Num(r.ExploringLastTask.Mean), results.Num(r.ExploringLastTask.CI95),
				results.Num(r.ExploringSteps.Mean), results.Num(r.ExploringSteps.CI95), results.Num(r.EpsMistakes.Mean), results.Num(r.EpsMistakes.CI95),
				results.Num(r.SamplesUntilAllKnown.Mean), results.Num(r.SamplesUntilAllKnown.CI95), r.Unfinished)
		}
	}); err != nil {
		return err
	}
	if err := results.WriteCSV(filepath.Join(dir, "scaling_fit.csv"), "agent,slope,slope_ci95,per_pair,per_pair_ci95,per_template,per_template_ci95", func(w *bufio.Writer) {
		for _, f := range fits {
			pt, ptCI := "", ""
			if f.PerTemplate != nil {
				pt, ptCI = results.Num(f.PerTemplate.Mean), results.Num(f.PerTemplate.CI95)
			}
			fmt.Fprintf(w, "%s,%s,%s,%s,%s,%s,%s\n", results.CSVField(f.Agent), results.Num(f.Slope.Mean), results.Num(f.Slope.CI95),
				results.Num(f.PerPair.Mean), results.Num(f.PerPair.CI95), pt, ptCI)
		}
	}); err != nil {
		return err
	}
	fig := report.Figure{Title: fmt.Sprintf("%s: exploring samples per task against S·A, %d runs, 95%% CI", s.Name, s.Runs),
		XLabel: "log₁₀ S·A (state-action pairs)", YLabel: "log₁₀ exploring samples per task", Points: true}
	for k, name := range s.AgentNames() {
		ser := report.Series{Label: fmt.Sprintf("%s (slope %.2f ± %.2f)", name, fits[k].Slope.Mean, fits[k].Slope.CI95)}
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
	if len(fig.Series) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	return fig.Save(filepath.Join(dir, "figures", "scaling"))
}
