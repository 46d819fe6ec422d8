// The scaling: block (Theorem 1's law): its points and their specs, and its run; the measures,
// the fits and their files are package results' (results.Scaling).

package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/temple-rl/temple/families"
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
	Sizes         []int       `yaml:"sizes" doc:"n of the size series' n×n mazes" range:">= 2 each"`
	TemplatesSize int         `yaml:"templates_size" doc:"n of the template series' mazes (0: no template series)" range:">= 2 with landform_sets"`
	LandformSets  [][]float64 `yaml:"landform_sets" doc:"the landforms of each point of the template series"`
	Budget        float64     `yaml:"budget" doc:"steps per task, in units of m·S·A" range:"> 0"`
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
	case s.Tasks.Family != families.OnlineMaze:
		return fmt.Errorf("scaling: tasks.family = %q, want %s (the law is measured on mazes)", s.Tasks.Family, families.OnlineMaze)
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
	lf := s.Tasks.Params.(*families.OnlineMazeParams).Landforms
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
	maze := tasks.Params.(*families.OnlineMazeParams)
	maze.Width, maze.Height, maze.Landforms = p.size, p.size, slices.Clone(p.landforms)
	out.Tasks = tasks
	pairs := float64(p.size * p.size * maze.Actions)
	out.Episodes = int(math.Ceil(sc.Budget * float64(m) * pairs / float64(s.Steps)))
	out.Name = s.Name + " " + p.dir()
	return out, out.Validate()
}

// ScalingRow and ScalingFit are a row of scaling.csv and of scaling_fit.csv (package results).
type (
	ScalingRow = results.ScalingRow
	ScalingFit = results.ScalingFit
)

// ExecuteScaling runs every point of the spec's scaling block into dir, then writes scaling.csv
// (one row per agent and point), scaling_fit.csv and figures/scaling.{png,svg}.
func ExecuteScaling(ctx context.Context, s Spec, dir string, jobs int, progress Progress) ([]ScalingRow, []ScalingFit, error) {
	if s.Scaling == nil {
		return nil, nil, errors.New("experiment: the spec has no scaling: block")
	}
	s = s.ReadInputsOnce()
	if err := Check(s); err != nil {
		return nil, nil, err
	}
	d, release, err := claim(dir, s, progress)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	return executeScaling(ctx, s, d, jobs, progress)
}

// executeScaling is ExecuteScaling in a directory already claimed; each point claims its own.
func executeScaling(ctx context.Context, s Spec, dir results.Dir, jobs int, progress Progress) ([]ScalingRow, []ScalingFit, error) {
	m, err := largestM(s)
	if err != nil {
		return nil, nil, err
	}
	var pts []results.ScalingPointSetup
	var cells [][]CellResult
	for _, pt := range s.Scaling.points(s) {
		ps, err := s.Scaling.at(s, pt, m)
		if err != nil {
			return nil, nil, err
		}
		plan, c, _, err := runPoint(ctx, dir, pt.dir(), ps, jobs, progress)
		if err != nil {
			return nil, nil, err
		}
		setup, err := pt.setup(plan)
		if err != nil {
			return nil, nil, err
		}
		pts, cells = append(pts, setup), append(cells, c)
	}
	sc, err := writeScalingSetup(s, dir, pts)
	if err != nil {
		return nil, nil, err
	}
	rows, fits := results.Scaling(sc, cells)
	return rows, fits, results.WriteScaling(dir, sc, rows, fits)
}

// setup is the point as scaling.json holds it: its directory, its series and its tasks' sizes
// and true templates (those of the plan's first run).
func (p scalingPoint) setup(plan *Plan) (results.ScalingPointSetup, error) {
	var truth template.Truth
	for _, t := range plan.Runs[0] {
		truth.Include(template.OfModel(t.Dynamics()).Templates...)
	}
	S, A := plan.Runs[0][0].Dynamics().Size()
	return results.ScalingPointSetup{Dir: p.dir(), Series: p.series, Size: p.size, Landforms: p.landforms,
		S: S, SA: S * A, G: len(truth.Templates)}, nil
}

// writeScalingSetup writes the layout of the scaling study of s (scaling.json) into dir.
func writeScalingSetup(s Spec, dir results.Dir, pts []results.ScalingPointSetup) (results.ScalingSetup, error) {
	sc := results.ScalingSetup{Name: s.Name, Runs: s.Runs, Agents: s.AgentNames(), Points: pts}
	for _, a := range s.Agents {
		if a.Has("tau") {
			sc.Templates = append(sc.Templates, a.Name)
		}
	}
	return sc, results.WriteScalingSetup(dir, sc)
}
