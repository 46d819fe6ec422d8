// The scaling: block (Theorem 1's law): its points and their specs, and its run; the measures,
// the fits and their files are package results' (results.Scaling).

package experiment

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
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

// Point is one experiment a spec runs: one per point of a sweep or a scaling block, else the
// spec itself.
type Point struct {
	Spec      Spec
	Dir       string    // its cells directory below the spec's ("" for the spec itself)
	Values    []string  // a sweep point's values, as written in sweep.csv, in the sweep's order
	Series    string    // a scaling point's series: "size" or "templates"
	Size      int       // a scaling point's maze size n
	Landforms []float64 // a scaling point's landforms
}

// Points are the experiments s runs, in order.
func Points(s Spec) ([]Point, error) {
	var out []Point
	switch {
	case len(s.Sweep) > 0:
		for _, pt := range sweepPoints(s.Sweep) {
			ps, err := s.at(pt)
			if err != nil {
				return nil, err
			}
			var values []string
			for k, p := range s.Sweep {
				values = append(values, valueText(&p.Values[pt[k]]))
			}
			out = append(out, Point{Spec: ps, Dir: pointDir(s, pt), Values: values})
		}
	case s.Scaling != nil:
		m, err := largestM(s)
		if err != nil {
			return nil, err
		}
		for _, pt := range s.Scaling.points(s) {
			ps, err := s.Scaling.at(s, pt, m)
			if err != nil {
				return nil, err
			}
			out = append(out, Point{Spec: ps, Dir: pt.dir(), Series: pt.series, Size: pt.size, Landforms: pt.landforms})
		}
	default:
		out = []Point{{Spec: s}}
	}
	return out, nil
}

// largestM is the largest known threshold m of the agents.
func largestM(s Spec) (int64, error) {
	var m int64
	for _, a := range s.Agents {
		v, ok := agenttypes.Param(a.Params, "m")
		n, isInt := v.(int64)
		if !ok || !isInt {
			return 0, fmt.Errorf("agent %s (%s) has no known threshold m", a.Name, a.Type)
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
