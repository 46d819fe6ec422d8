package study

import (
	"context"
	"errors"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
)

// ExecuteScaling runs every point of the spec's scaling block into dir, then writes scaling.csv
// (one row per agent and point), scaling_fit.csv and figures/scaling.{png,svg}.
func ExecuteScaling(ctx context.Context, s experiment.Spec, dir string, jobs int, progress experiment.Progress) ([]results.ScalingRow, []results.ScalingFit, error) {
	if s.Scaling == nil {
		return nil, nil, errors.New("experiment: the spec has no scaling: block")
	}
	s = s.ReadInputsOnce()
	if err := experiment.Check(s); err != nil {
		return nil, nil, err
	}
	points, err := experiment.Points(s)
	if err != nil {
		return nil, nil, err
	}
	d, release, err := experiment.Claim(dir, s, progress)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	var pts []results.ScalingPointSetup
	var cells [][]results.CellResult
	for _, pt := range points {
		plan, c, _, err := experiment.RunPoint(ctx, d, pt.Dir, pt.Spec, jobs, progress)
		if err != nil {
			return nil, nil, err
		}
		pts, cells = append(pts, scalingPointSetup(pt, plan)), append(cells, c)
	}
	sc, err := writeScalingSetup(s, d, pts)
	if err != nil {
		return nil, nil, err
	}
	rows, fits := results.Scaling(sc, cells)
	return rows, fits, results.WriteScaling(d, sc, rows, fits)
}

// scalingPointSetup is the point as scaling.json holds it: its directory, its series and its
// tasks' sizes and true templates (those of the plan's first run).
func scalingPointSetup(p experiment.Point, plan *experiment.Plan) results.ScalingPointSetup {
	var truth template.Truth
	for _, t := range plan.Runs[0] {
		truth.Include(template.OfModel(t.Dynamics()).Templates...)
	}
	S, A := plan.Runs[0][0].Dynamics().Size()
	return results.ScalingPointSetup{Dir: p.Dir, Series: p.Series, Size: p.Size, Landforms: p.Landforms,
		S: S, SA: S * A, G: len(truth.Templates)}
}

// writeScalingSetup writes the layout of the scaling study of s (scaling.json) into dir.
func writeScalingSetup(s experiment.Spec, dir results.Dir, pts []results.ScalingPointSetup) (results.ScalingSetup, error) {
	sc := results.ScalingSetup{Name: s.Name, Runs: s.Runs, Agents: s.AgentNames(), Points: pts}
	for _, a := range s.Agents {
		if a.Has("tau") {
			sc.Templates = append(sc.Templates, a.Name)
		}
	}
	return sc, results.WriteScalingSetup(dir, sc)
}
