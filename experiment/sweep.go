package experiment

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/internal/suggest"
	"github.com/temple-rl/temple/internal/yamlkeys"
	"github.com/temple-rl/temple/results"
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
