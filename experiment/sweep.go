package experiment

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/temple-rl/temple/report"
)

// Sweep runs one experiment at several values of one agent parameter (the paper's Figure 3:
// τ̂ and Γ). Agents without the parameter do not depend on it: they run once, at the first value,
// and appear in the sweep as a flat line.
type Sweep struct {
	Base   Spec
	Param  string    // an agent parameter key, e.g. "tau" or "model_gap"
	Values []float64 // in increasing order
	// TrueValue, when set, computes the environment's true value of the parameter from the base
	// spec (for instance the template gap of the first run's tasks); it is drawn as a dashed line.
	TrueValue func(Spec) (float64, error)
}

// SweepPoint is the result of one agent at one value.
type SweepPoint struct {
	Value             float64 `json:"value"`
	Agent             string  `json:"agent"`
	MeanPerTaskReward float64 `json:"mean_per_task_reward"`
	CI95              float64 `json:"ci95"`
}

// setParam sets the swept parameter on every agent that has it and reports whether any had it.
func setParam(s *Spec, key string, v float64) (swept []bool, err error) {
	for k := range s.Agents {
		a := &s.Agents[k]
		has := slices.Contains(agentTypes[a.Type].keys, key)
		swept = append(swept, has)
		if !has {
			continue
		}
		switch key {
		case "tau":
			a.Params.Tau = v
		case "model_gap":
			a.Params.ModelGap = v
		default:
			return nil, fmt.Errorf("sweep: parameter %q cannot be swept (tau, model_gap)", key)
		}
	}
	if !slices.Contains(swept, true) {
		return nil, fmt.Errorf("sweep: no agent has parameter %q", key)
	}
	return swept, nil
}

// ExecuteSweep runs the sweep into dir: one results directory per value (PARAM-VALUE/), then
// sweep.csv and figures/sweep.{png,svg} with each agent's mean per-task reward and 95% CI.
func ExecuteSweep(ctx context.Context, sw Sweep, dir string, jobs int, progress Progress) ([]SweepPoint, error) {
	var truth *float64
	if sw.TrueValue != nil {
		v, err := sw.TrueValue(sw.Base)
		if err != nil {
			return nil, err
		}
		truth = &v
	}
	var points []SweepPoint
	once := map[string]SweepPoint{} // agents independent of the parameter
	for i, v := range sw.Values {
		s := sw.Base
		s.Agents = slices.Clone(sw.Base.Agents)
		swept, err := setParam(&s, sw.Param, v)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			// Agents that do not depend on the parameter ran at the first value.
			var keep []AgentSpec
			for k, a := range s.Agents {
				if swept[k] {
					keep = append(keep, a)
				}
			}
			s.Agents = keep
			if !slices.Contains(s.AgentNames(), s.Output.Baseline) {
				s.Output.Baseline = ""
			}
		}
		s.Name = fmt.Sprintf("%s %s=%g", sw.Base.Name, sw.Param, v)
		sum, err := Execute(ctx, s, filepath.Join(dir, sw.Param+"-"+strconv.FormatFloat(v, 'g', -1, 64)), jobs, progress)
		if err != nil {
			return nil, err
		}
		for k, a := range sum.Agents {
			p := SweepPoint{Value: v, Agent: a.Name, MeanPerTaskReward: a.MeanPerTaskReward, CI95: a.CI95}
			if i == 0 && !swept[k] {
				once[a.Name] = p
			}
			points = append(points, p)
		}
		if i > 0 {
			for _, a := range sw.Base.AgentNames() {
				if p, ok := once[a]; ok {
					p.Value = v
					points = append(points, p)
				}
			}
		}
	}
	return points, writeSweep(dir, sw, points, truth)
}

func writeSweep(dir string, sw Sweep, points []SweepPoint, truth *float64) error {
	if err := writeCSV(filepath.Join(dir, "sweep.csv"), "value,agent,mean_per_task_reward,ci95", func(w *bufio.Writer) {
		for _, p := range points {
			fmt.Fprintf(w, "%s,%s,%s,%s\n", num(p.Value), csvField(p.Agent), num(p.MeanPerTaskReward), num(p.CI95))
		}
	}); err != nil {
		return err
	}
	symbol := map[string]string{"tau": "τ̂", "model_gap": "Γ"}[sw.Param]
	fig := report.Figure{Title: fmt.Sprintf("%s: mean per-task reward against %s, %d runs, 95%% CI", sw.Base.Name, symbol, sw.Base.Runs),
		XLabel: map[string]string{"tau": "User-specified template gap τ̂", "model_gap": "User-specified model gap Γ"}[sw.Param],
		YLabel: "Mean per-task reward", Points: true, VLine: truth}
	for _, name := range sw.Base.AgentNames() {
		var ser report.Series
		ser.Label = name
		for _, p := range points {
			if p.Agent == name {
				ser.X = append(ser.X, p.Value)
				ser.Band.Mean = append(ser.Band.Mean, p.MeanPerTaskReward)
				ser.Band.Lo = append(ser.Band.Lo, p.MeanPerTaskReward-p.CI95)
				ser.Band.Hi = append(ser.Band.Hi, p.MeanPerTaskReward+p.CI95)
			}
		}
		fig.Series = append(fig.Series, ser)
	}
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	return fig.Save(filepath.Join(dir, "figures", "sweep"))
}
