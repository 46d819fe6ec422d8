package study

import (
	"context"
	"errors"
	"math"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
)

// ExecuteSweep runs every point of the spec's sweep into dir (one results directory per point),
// then writes sweep.csv and, for a sweep of one numeric parameter, figures/sweep.{png,svg} with
// each agent's mean per-task reward and 95% CI. Agents that depend on no swept parameter run at
// the first point only and appear at every point with that result. For tau and model_gap the
// figure marks the true template or model gap of the first run's tasks.
func ExecuteSweep(ctx context.Context, s experiment.Spec, dir string, jobs int, progress experiment.Progress) ([]results.SweepPoint, error) {
	if len(s.Sweep) == 0 {
		return nil, errors.New("experiment: the spec has no sweep: block")
	}
	s = s.ReadInputsOnce()
	if err := experiment.Check(s); err != nil {
		return nil, err
	}
	points, err := experiment.Points(s)
	if err != nil {
		return nil, err
	}
	d, release, err := experiment.Claim(dir, s, progress)
	if err != nil {
		return nil, err
	}
	defer release()
	sw, err := writeSweepSetup(s, points, d)
	if err != nil {
		return nil, err
	}
	var sums []results.Summary
	for _, pt := range points {
		_, _, sum, err := experiment.RunPoint(ctx, d, pt.Dir, pt.Spec, jobs, progress)
		if err != nil {
			return nil, err
		}
		sums = append(sums, sum)
	}
	rows := results.SweepPoints(sw, sums)
	return rows, results.WriteSweep(d, sw, rows)
}

// writeSweepSetup writes the layout of the sweep of s (sweep.json) into dir: the points'
// directories and values, the agents, and the true value of the swept parameter.
func writeSweepSetup(s experiment.Spec, points []experiment.Point, dir results.Dir) (results.SweepSetup, error) {
	sw := results.SweepSetup{Name: s.Name, Runs: s.Runs, Agents: s.AgentNames()}
	for _, p := range s.Sweep {
		sw.Params = append(sw.Params, p.Param)
	}
	for _, pt := range points {
		sw.Points = append(sw.Points, results.SweepPointSetup{Dir: pt.Dir, Values: pt.Values})
	}
	if len(s.Sweep) == 1 {
		var err error
		if sw.TrueValue, err = trueValue(s, s.Sweep[0].Param); err != nil {
			return sw, err
		}
	}
	return sw, results.WriteSweepSetup(dir, sw)
}

// trueValue is the environment's true value of a swept parameter where one exists — the
// template gap for tau, the model gap for model_gap — drawn as a dashed line; nil otherwise or
// when it is infinite (fewer than two distinct templates or models).
func trueValue(s experiment.Spec, param string) (*float64, error) {
	var v float64
	var err error
	switch param {
	case "tau":
		v, err = trueTemplateGap(s)
	case "model_gap":
		v, err = trueModelGap(s)
	default:
		return nil, nil
	}
	if err != nil || math.IsInf(v, 0) {
		return nil, err
	}
	return &v, nil
}

// trueModelGap is the model gap of the first run's tasks: the smallest distance between two
// distinct true models (mdp.ModelGap).
func trueModelGap(s experiment.Spec) (float64, error) {
	tasks, err := firstRunTasks(s)
	if err != nil {
		return 0, err
	}
	models := make([]*mdp.Model, len(tasks))
	for k, t := range tasks {
		if models[k], err = t.Table(); err != nil {
			return 0, err
		}
	}
	return mdp.ModelGap(models), nil
}

// trueTemplateGap is the template gap τ of the first run's task sequence: the smallest distance
// between two distinct true templates of all its tasks.
func trueTemplateGap(s experiment.Spec) (float64, error) {
	tasks, err := firstRunTasks(s)
	if err != nil {
		return 0, err
	}
	var all []template.Point
	for _, t := range tasks {
		all = append(all, template.OfModel(t.Dynamics()).Templates...)
	}
	return template.MinDistance(template.Distinct(all)), nil
}

// firstRunTasks builds the tasks of the first run of s.
func firstRunTasks(s experiment.Spec) ([]experiment.Task, error) {
	s.Runs, s.Sweep = 1, nil
	s.Agents, s.Output.Baseline = s.Agents[:1], ""
	p, err := experiment.Build(s)
	if err != nil {
		return nil, err
	}
	return p.Runs[0], nil
}
