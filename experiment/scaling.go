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

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/report"
	"github.com/temple-rl/temple/template"
)

// Scaling measures the law of the paper's Theorem 1: RMax's sample complexity grows with the
// number of state-action pairs, O-TempLe's with the number of templates G once each pair has its
// m_s own samples. Two series of online mazes, each point an experiment of its own:
//
//   - size: n×n mazes for n in Sizes with the same landforms (so G stays about the same while S
//     grows as n²);
//   - templates: TemplateSize×TemplateSize mazes with ever more landforms (G grows, S fixed).
//
// Every point runs RMax, O-TempLe and O-TempLe with retry and early_match (the beyond options),
// paper thresholds (m 500, m_s 50), incremental planning, Tasks tasks per run, episodes of 4n
// steps from a start drawn every episode, and a budget of Budget·m·S·A steps per task: with Budget
// ≥ 1 RMax can know every pair (it needs m samples of each), so the counts measure exploration
// that ends rather than a budget that runs out.
type Scaling struct {
	Name         string
	Seed         uint64
	Runs, Tasks  int
	Sizes        []int
	Landforms    []float64   // of the size series
	TemplateSize int         // maze side of the templates series
	LandformSets [][]float64 // of the templates series, one point each
	Budget       float64
}

// DefaultScaling is the study of `temple reproduce scaling`: sizes 4 to 64, the paper's
// landforms {0, 0.2, 0.4}; G growing through 1 to 6 landforms on 16×16 mazes; 5 runs of 2 tasks.
// (128×128 would cost 4 times the 64×64 point, itself three quarters of the study: 65 M steps
// per task and agent for RMax to know its 65 536 pairs.)
func DefaultScaling() Scaling {
	return Scaling{
		Name: "scaling", Seed: 1, Runs: 5, Tasks: 2,
		Sizes:        []int{4, 8, 16, 32, 64},
		Landforms:    []float64{0, 0.2, 0.4},
		TemplateSize: 16,
		LandformSets: [][]float64{{0}, {0, 0.2}, {0, 0.2, 0.4}, {0, 0.1, 0.2, 0.3}, {0, 0.1, 0.2, 0.3, 0.4},
			{0, 0.1, 0.2, 0.3, 0.4, 0.5}},
		Budget: 2,
	}
}

// ScalingPoint is one experiment of the study.
type ScalingPoint struct {
	Series    string // "size" or "templates"
	Size      int
	Landforms []float64
}

// Dir is the point's results directory under the study's.
func (p ScalingPoint) Dir() string {
	if p.Series == "size" {
		return fmt.Sprintf("size-%d", p.Size)
	}
	return fmt.Sprintf("templates-%d", len(p.Landforms))
}

// Points lists the experiments of the study, the size series first.
func (c Scaling) Points() []ScalingPoint {
	var out []ScalingPoint
	for _, n := range c.Sizes {
		out = append(out, ScalingPoint{"size", n, c.Landforms})
	}
	for _, l := range c.LandformSets {
		out = append(out, ScalingPoint{"templates", c.TemplateSize, l})
	}
	return out
}

// Validate names the first field out of range.
func (c Scaling) Validate() error {
	switch {
	case c.Runs < 2:
		return fmt.Errorf("scaling: runs = %d, want at least 2", c.Runs)
	case c.Tasks < 1:
		return fmt.Errorf("scaling: tasks = %d, want at least 1", c.Tasks)
	case !(c.Budget > 0) || math.IsInf(c.Budget, 0):
		return fmt.Errorf("scaling: budget = %v, want a positive multiple of m·S·A", c.Budget)
	case len(c.Sizes) < 2 && len(c.LandformSets) < 2:
		return errors.New("scaling: want at least two sizes or two landform sets to fit a slope")
	}
	return nil
}

// Spec is the experiment of one point.
func (c Scaling) Spec(p ScalingPoint) Spec {
	s := paper(c.Name+" "+p.Dir(), FamilyOnlineMaze, TypeRMax, TypeOTempLe)
	s.Agents = append(s.Agents, beyondOptions(defaultAgent(TypeOTempLe)))
	for k := range s.Agents {
		s.Agents[k].Params.Planning = agent.PlanIncremental
	}
	s.Seed, s.Runs, s.Start = c.Seed, c.Runs, StartPerEpisode
	n := p.Size
	maze := s.Tasks.Params.(*onlineMazeTasks)
	maze.Width, maze.Height, maze.Tasks, maze.Pool = n, n, c.Tasks, c.Tasks
	maze.Landforms = slices.Clone(p.Landforms)
	maze.Goals, maze.Lava = []env.Cell{{X: n, Y: n}}, nil
	m := float64(s.Agents[0].Params.M)
	s.Steps = 4 * n
	s.Episodes = int(math.Ceil(c.Budget * m * float64(4*n*n) / float64(s.Steps)))
	return s
}

// ScalingRow is one agent at one point: means over runs and tasks.
type ScalingRow struct {
	Point  ScalingPoint
	States int // S = n²
	G      int // distinct true templates of the first run's tasks
	Agent  string
	// ExploringSamples is the mean over tasks of samples_recorded: the own samples an agent took
	// of pairs it did not know yet (RMax: all of them are m per pair once every pair is known).
	ExploringSamples float64
	// ExploringLastTask is the mean over runs of samples_recorded on the last task, where a
	// template learner starts with the library of the earlier ones.
	ExploringLastTask float64
	EpsMistakes       float64 // mean over tasks of the oracle's ε-mistakes
	// SamplesUntilAllKnown is the mean of samples_until_all_known over the tasks where every pair
	// became known; AllKnown is the share of tasks where that happened.
	SamplesUntilAllKnown, AllKnown float64
}

// ScalingSlope is the least-squares slope of log y against log x over a series' points.
type ScalingSlope struct {
	Series, Agent, Measure string
	Slope                  float64
	Points                 int
}

// ExecuteScaling runs every point into dir/POINT (a full results directory each) and writes
// scaling.csv (one row per point and agent), scaling_slopes.csv (the fitted log-log slopes) and
// figures/scaling_{size,templates}.{png,svg}.
func ExecuteScaling(ctx context.Context, c Scaling, dir string, jobs int, progress Progress) ([]ScalingRow, []ScalingSlope, error) {
	if err := c.Validate(); err != nil {
		return nil, nil, err
	}
	var rows []ScalingRow
	for _, pt := range c.Points() {
		s := c.Spec(pt)
		p, err := prepare(s, filepath.Join(dir, pt.Dir()))
		if err != nil {
			return nil, nil, err
		}
		results, err := Run(ctx, p, filepath.Join(dir, pt.Dir()), jobs, progress)
		if err != nil {
			return nil, nil, err
		}
		if _, err := Write(filepath.Join(dir, pt.Dir()), s, results); err != nil {
			return nil, nil, err
		}
		var truths []template.Point
		for _, t := range p.Runs[0] {
			truths = append(truths, template.OfModel(t.Model).Templates...)
		}
		g := len(template.Distinct(truths))
		for _, name := range s.AgentNames() {
			rows = append(rows, scalingRow(pt, pt.Size*pt.Size, g, name, results))
		}
	}
	slopes := scalingSlopes(rows)
	if err := writeScaling(dir, rows, slopes); err != nil {
		return nil, nil, err
	}
	return rows, slopes, nil
}

func scalingRow(pt ScalingPoint, states, g int, name string, results []CellResult) ScalingRow {
	row := ScalingRow{Point: pt, States: states, G: g, Agent: name}
	var tasks, known, runs float64
	for _, c := range results {
		if c.Agent != name {
			continue
		}
		runs++
		for k, t := range c.Tasks {
			tasks++
			if t.Oracle != nil {
				row.EpsMistakes += float64(t.Oracle.Mistakes)
			}
			for _, m := range t.Metrics {
				switch m.Name {
				case "samples_recorded":
					row.ExploringSamples += m.Value
					if k == len(c.Tasks)-1 {
						row.ExploringLastTask += m.Value
					}
				case "samples_until_all_known":
					if m.Value >= 0 {
						row.SamplesUntilAllKnown += m.Value
						known++
					}
				}
			}
		}
	}
	row.ExploringSamples /= tasks
	row.ExploringLastTask /= runs
	row.EpsMistakes /= tasks
	row.AllKnown = known / tasks
	if known > 0 {
		row.SamplesUntilAllKnown /= known
	} else {
		row.SamplesUntilAllKnown = math.NaN()
	}
	return row
}

// scalingMeasures are the measures fitted, by their column names.
var scalingMeasures = []struct {
	name string
	get  func(ScalingRow) float64
}{
	{"exploring_samples", func(r ScalingRow) float64 { return r.ExploringSamples }},
	{"exploring_samples_last_task", func(r ScalingRow) float64 { return r.ExploringLastTask }},
	{"eps_mistakes", func(r ScalingRow) float64 { return r.EpsMistakes }},
	{"samples_until_all_known", func(r ScalingRow) float64 { return r.SamplesUntilAllKnown }},
}

// scalingX is the x of a row in its series: S for sizes, G for templates.
func scalingX(r ScalingRow) float64 {
	if r.Point.Series == "size" {
		return float64(r.States)
	}
	return float64(r.G)
}

// scalingSlopes fits every measure of every agent in every series, on its positive points.
func scalingSlopes(rows []ScalingRow) []ScalingSlope {
	var out []ScalingSlope
	for _, series := range []string{"size", "templates"} {
		var agents []string
		for _, r := range rows {
			if r.Point.Series == series && !slices.Contains(agents, r.Agent) {
				agents = append(agents, r.Agent)
			}
		}
		for _, a := range agents {
			for _, m := range scalingMeasures {
				var xs, ys []float64
				for _, r := range rows {
					if y := m.get(r); r.Point.Series == series && r.Agent == a && y > 0 && scalingX(r) > 0 {
						xs, ys = append(xs, math.Log(scalingX(r))), append(ys, math.Log(y))
					}
				}
				if slope, ok := leastSquaresSlope(xs, ys); ok {
					out = append(out, ScalingSlope{Series: series, Agent: a, Measure: m.name, Slope: slope, Points: len(xs)})
				}
			}
		}
	}
	return out
}

// leastSquaresSlope is the slope b of the least-squares line y = a + b·x; false with fewer than
// two distinct x.
func leastSquaresSlope(xs, ys []float64) (float64, bool) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	d := n*sxx - sx*sx
	if len(xs) < 2 || d <= 1e-12*n*sxx {
		return 0, false
	}
	return (n*sxy - sx*sy) / d, true
}

func writeScaling(dir string, rows []ScalingRow, slopes []ScalingSlope) error {
	err := writeCSV(filepath.Join(dir, "scaling.csv"),
		"series,size,landforms,states,templates,agent,exploring_samples,exploring_samples_last_task,eps_mistakes,samples_until_all_known,all_known_share",
		func(w *bufio.Writer) {
			for _, r := range rows {
				var l []string
				for _, x := range r.Point.Landforms {
					l = append(l, num(x))
				}
				until := ""
				if !math.IsNaN(r.SamplesUntilAllKnown) {
					until = num(r.SamplesUntilAllKnown)
				}
				fmt.Fprintf(w, "%s,%d,%s,%d,%d,%s,%s,%s,%s,%s,%s\n", r.Point.Series, r.Point.Size, csvField(strings.Join(l, " ")),
					r.States, r.G, csvField(r.Agent), num(r.ExploringSamples), num(r.ExploringLastTask), num(r.EpsMistakes), until,
					num(r.AllKnown))
			}
		})
	if err != nil {
		return err
	}
	err = writeCSV(filepath.Join(dir, "scaling_slopes.csv"), "series,agent,measure,slope,points", func(w *bufio.Writer) {
		for _, s := range slopes {
			fmt.Fprintf(w, "%s,%s,%s,%s,%d\n", s.Series, csvField(s.Agent), s.Measure, num(s.Slope), s.Points)
		}
	})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	for _, series := range []string{"size", "templates"} {
		xLabel := "log10 S (states; n×n mazes, same landforms)"
		if series == "templates" {
			xLabel = "log10 G (distinct true templates; mazes of one size)"
		}
		fig := report.Figure{Title: "Exploring samples per task against " + map[string]string{"size": "S", "templates": "G"}[series],
			XLabel: xLabel, YLabel: "log10 exploring samples per task", Points: true}
		for _, s := range slopes {
			if s.Series != series || s.Measure != "exploring_samples" {
				continue
			}
			ser := report.Series{Label: fmt.Sprintf("%s (slope %.2f)", s.Agent, s.Slope)}
			for _, r := range rows {
				if r.Point.Series == series && r.Agent == s.Agent && r.ExploringSamples > 0 {
					y := math.Log10(r.ExploringSamples)
					ser.X = append(ser.X, math.Log10(scalingX(r)))
					ser.Band.Mean, ser.Band.Lo, ser.Band.Hi = append(ser.Band.Mean, y), append(ser.Band.Lo, y), append(ser.Band.Hi, y)
				}
			}
			fig.Series = append(fig.Series, ser)
		}
		if len(fig.Series) == 0 {
			continue
		}
		if err := fig.Save(filepath.Join(dir, "figures", "scaling_"+series)); err != nil {
			return err
		}
	}
	return nil
}
