package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/internal/suggest"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
)

// SweepParam is one swept parameter of a config's sweep: block: an agent parameter (set on every
// agent that has it, e.g. tau or m_s) or, prefixed with "tasks.", a parameter of the task family
// (e.g. tasks.slip), and its values in order. Several parameters sweep their grid (every
// combination).
type SweepParam struct {
	Param  string      `yaml:"parameter" doc:"an agent parameter (set on every agent that has it) or tasks.NAME, a parameter of the task family" range:"not empty"`
	Values []yaml.Node `yaml:"values" doc:"its values, in order" range:"at least one"`
}

// Values wraps plain values as the nodes of a sweep parameter.
func Values[T any](xs ...T) []yaml.Node {
	out := make([]yaml.Node, len(xs))
	for i, x := range xs {
		out[i].Encode(x)
	}
	return out
}

// taskParam is the family parameter a sweep parameter names, "" for an agent parameter.
func (p SweepParam) taskParam() string {
	name, ok := strings.CutPrefix(p.Param, "tasks.")
	if !ok {
		return ""
	}
	return name
}

// validateSweep checks the sweep: block of s.
func (s *Spec) validateSweep() error {
	seen := map[string]bool{}
	for k, p := range s.Sweep {
		where := fmt.Sprintf("sweep[%d]", k)
		switch {
		case p.Param == "":
			return fmt.Errorf("%s: parameter is empty", where)
		case seen[p.Param]:
			return fmt.Errorf("%s: parameter %q is swept twice", where, p.Param)
		case len(p.Values) == 0:
			return fmt.Errorf("%s: parameter %s has no values", where, p.Param)
		}
		seen[p.Param] = true
		dirs := map[string]string{} // the points' directory names of the values (pointDir)
		for i := range p.Values {
			text := valueText(&p.Values[i])
			dir := results.SafeName(p.Param) + "-" + results.SafeName(text)
			if other, ok := dirs[dir]; ok && other != text {
				return fmt.Errorf("%s: values %q and %q of %s make the same directory name %s (characters other than letters, "+
					"digits, '-', '_' and '.' become '_'); give values that differ in those", where, other, text, p.Param, dir)
			} else if ok {
				return fmt.Errorf("%s: value %q of %s is given twice", where, text, p.Param)
			}
			dirs[dir] = text
		}
		if name := p.taskParam(); name != "" {
			if keys := families.Keys(s.Tasks.Params); !slices.Contains(keys, name) {
				return fmt.Errorf("%s: family %s has no parameter %q (it has %s)%s", where, s.Tasks.Family, name,
					strings.Join(keys, ", "), suggest.DidYouMean(name, keys))
			}
			continue
		}
		if !slices.ContainsFunc(s.Agents, func(a AgentSpec) bool { return a.Has(p.Param) }) {
			return fmt.Errorf("%s: no agent has parameter %q (a task parameter is written tasks.NAME)", where, p.Param)
		}
	}
	return nil
}

// sweepPoints lists the points of the grid in order, the last parameter changing fastest.
func sweepPoints(params []SweepParam) [][]int {
	points := [][]int{{}}
	for _, p := range params {
		var next [][]int
		for _, pt := range points {
			for v := range p.Values {
				next = append(next, append(slices.Clone(pt), v))
			}
		}
		points = next
	}
	return points
}

// valueText is a sweep value as written in directory names and sweep.csv.
func valueText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	b, _ := yaml.Marshal(n)
	return strings.TrimSpace(string(b))
}

// at returns the spec of one point of the sweep: the parameters set to their values, the agents
// that depend on none of the parameters kept only at the first point (they would run the same
// experiment again), and a name that says the point.
func (s Spec) at(point []int) (Spec, error) {
	out := s
	out.Sweep = nil
	out.Agents = slices.Clone(s.Agents)
	tasks, err := cloneTasks(s.Tasks)
	if err != nil {
		return Spec{}, err
	}
	out.Tasks = tasks
	swept := make([]bool, len(out.Agents))
	var label []string
	for k, p := range s.Sweep {
		v := &p.Values[point[k]]
		label = append(label, p.Param+"="+strings.NewReplacer("/", "_", `\`, "_").Replace(valueText(v))) // a name is no path (names.go)
		if name := p.taskParam(); name != "" {
			if err := setKey(out.Tasks.Params, name, v); err != nil {
				return Spec{}, fmt.Errorf("sweep: tasks.%s = %s: %w", name, valueText(v), err)
			}
			clear(swept) // every agent depends on the tasks
			for i := range swept {
				swept[i] = true
			}
			continue
		}
		for i := range out.Agents {
			if out.Agents[i].Has(p.Param) {
				if err := out.Agents[i].set(p.Param, v); err != nil {
					return Spec{}, fmt.Errorf("sweep: %s = %s: %w", p.Param, valueText(v), err)
				}
				swept[i] = true
			}
		}
	}
	if slices.ContainsFunc(point, func(i int) bool { return i > 0 }) {
		var keep []AgentSpec
		for i, a := range out.Agents {
			if swept[i] {
				keep = append(keep, a)
			}
		}
		out.Agents = keep
		if !slices.Contains(out.AgentNames(), out.Output.Baseline) {
			out.Output.Baseline = ""
		}
	}
	out.Name = s.Name + " " + strings.Join(label, " ")
	return out, out.Validate()
}

// setKey decodes {key: v} onto the struct behind ptr, leaving its other fields.
func setKey(ptr any, key string, v *yaml.Node) error {
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: key}, v}}
	if err := doc.Decode(ptr); err != nil {
		return err
	}
	return yamlkeys.Integers(doc, ptr) // count: 1.5 decodes as 1
}

// cloneTasks is a deep copy of t, so that a sweep point can change it.
func cloneTasks(t families.Spec) (families.Spec, error) {
	var n yaml.Node
	if err := n.Encode(t); err != nil {
		return families.Spec{}, err
	}
	var out families.Spec
	err := n.Decode(&out)
	return out, err
}

// pointDir is the results directory of a point: PARAM-VALUE, joined by "__" for a grid.
func pointDir(s Spec, point []int) string {
	var parts []string
	for k, p := range s.Sweep {
		parts = append(parts, results.SafeName(p.Param)+"-"+results.SafeName(valueText(&p.Values[point[k]])))
	}
	return strings.Join(parts, "__")
}

// SweepPoint is the result of one agent at one point of the sweep (a row of sweep.csv).
type SweepPoint = results.SweepPoint

// ExecuteSweep runs every point of the spec's sweep into dir (one results directory per point),
// then writes sweep.csv and, for a sweep of one numeric parameter, figures/sweep.{png,svg} with
// each agent's mean per-task reward and 95% CI. Agents that depend on no swept parameter run at
// the first point only and appear at every point with that result. For tau and model_gap the
// figure marks the true template or model gap of the first run's tasks.
func ExecuteSweep(ctx context.Context, s Spec, dir string, jobs int, progress Progress) ([]SweepPoint, error) {
	if len(s.Sweep) == 0 {
		return nil, errors.New("experiment: the spec has no sweep: block")
	}
	s = s.ReadInputsOnce()
	if err := Check(s); err != nil {
		return nil, err
	}
	d, release, err := claim(dir, s, progress)
	if err != nil {
		return nil, err
	}
	defer release()
	return executeSweep(ctx, s, d, jobs, progress)
}

// executeSweep is ExecuteSweep in a directory already claimed; each point claims its own.
func executeSweep(ctx context.Context, s Spec, dir results.Dir, jobs int, progress Progress) ([]SweepPoint, error) {
	sw, err := writeSweepSetup(s, dir)
	if err != nil {
		return nil, err
	}
	var sums []Summary
	for k, point := range sweepPoints(s.Sweep) {
		ps, err := s.at(point)
		if err != nil {
			return nil, err
		}
		_, _, sum, err := runPoint(ctx, dir, sw.Points[k].Dir, ps, jobs, progress)
		if err != nil {
			return nil, err
		}
		sums = append(sums, sum)
	}
	points := results.SweepPoints(sw, sums)
	return points, results.WriteSweep(dir, sw, points)
}

// writeSweepSetup writes the layout of the sweep of s (sweep.json) into dir: the points'
// directories and values, the agents, and the true value of the swept parameter.
func writeSweepSetup(s Spec, dir results.Dir) (results.SweepSetup, error) {
	sw := results.SweepSetup{Name: s.Name, Runs: s.Runs, Agents: s.AgentNames()}
	for _, p := range s.Sweep {
		sw.Params = append(sw.Params, p.Param)
	}
	for _, point := range sweepPoints(s.Sweep) {
		pt := results.SweepPointSetup{Dir: pointDir(s, point)}
		for k, p := range s.Sweep {
			pt.Values = append(pt.Values, valueText(&p.Values[point[k]]))
		}
		sw.Points = append(sw.Points, pt)
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
func trueValue(s Spec, param string) (*float64, error) {
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
func trueModelGap(s Spec) (float64, error) {
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
func trueTemplateGap(s Spec) (float64, error) {
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
func firstRunTasks(s Spec) ([]Task, error) {
	s.Runs, s.Sweep = 1, nil
	s.Agents, s.Output.Baseline = s.Agents[:1], ""
	p, err := Build(s)
	if err != nil {
		return nil, err
	}
	return p.Runs[0], nil
}
