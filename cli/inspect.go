package cli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/mazepicture"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/plots"
	"github.com/temple-rl/temple/presets"
	tl "github.com/temple-rl/temple/temple"

	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
)

func inspectCmd() *cobra.Command {
	var run, samples, minCount int
	var tau float64
	var preset, tasks, drawDir, resultsDir, agentName string
	cmd := &cobra.Command{
		Use:   "inspect [CONFIG.yaml]",
		Short: "Print the ground-truth transition templates of an experiment's tasks",
		Long: "inspect builds the task sequence of one run of an experiment (the default experiment, a\n" +
			"config file or a preset) and prints, for every task, its number of distinct true templates G\n" +
			"against its state-action pairs (S·A, less those of terminal states), its template gap τ and its\n" +
			"ranking gap ν; then the same over the whole sequence, with every distinct template.\n\n" +
			"With --draw DIR it draws each maze task's landforms and true template map. With --results\n" +
			"RESULTS_DIR it inspects the tasks of that results directory and, when the experiment ran with\n" +
			"output.templates, also draws what an agent (--agent, default the first with templates)\n" +
			"learned: the template of every pair, marking those farther than τ̂ from the truth, and its\n" +
			"library.\n\n" +
			"A task given as a simulator (a discretized continuous environment) has no true model: its\n" +
			"templates are estimated from --samples random-policy steps, over the pairs with at least\n" +
			"--min-count samples, and grouped within --tau; the output says so, with the error bound.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s := experiment.Default()
			var dir results.Dir // of --results
			var err error
			switch {
			case resultsDir != "":
				if dir, err = results.Open(resultsDir); err != nil {
					return err
				}
				// Every file temple wrote there as it wrote it (tasks.json, the templates/ files)
				if err = results.Verify(dir); err == nil {
					if s, err = recordedSpec(dir); err == nil {
						s.Tasks, s.Sweep = families.FromFile(dir.Path(results.TasksFile)), nil
					}
				}
			case len(args) == 1:
				s, err = experiment.Load(args[0])
			case preset != "":
				var p presets.Preset
				if p, err = presets.Lookup(preset); err == nil {
					s = p.Spec()
				}
			}
			if err != nil {
				return err
			}
			if tasks != "" {
				s.Tasks = families.FromFile(tasks)
			}
			if run < 0 {
				return fmt.Errorf("--run = %d, want at least 0", run)
			}
			// Draw only the runs up to the one inspected: a run's sequence depends on its index and
			// the seed alone, and a large maze's runs each hold a pool of tasks.
			s.Runs = run + 1
			p, err := experiment.BuildTasks(s)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "experiment %s, run %d: %d tasks\n\n", s.Name, run, len(p.Runs[run]))
			w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(w, "task\tname\tpairs\tG\ttemplate gap τ\tranking gap ν\t")
			var all []template.Point
			simulated := 0
			for k, t := range p.Runs[run] {
				if t.Sim != nil {
					sim, err := t.Sim.Simulator()
					var est template.Estimated
					if err == nil {
						est, err = template.Estimate(sim, samples, minCount, tau, uint64(k))
					}
					if err != nil {
						return fmt.Errorf("task %d (%s): %w", k, t.Def.Name(), err)
					}
					shared := 0 // groups within τ̂ of a group of an earlier task
					for _, g := range est.Leaders {
						if slices.ContainsFunc(all, func(h template.Point) bool { return template.Distance(g, h) <= tau }) {
							shared++
						}
					}
					fmt.Fprintf(w, "%d\t%s\t%d of %d\t%d (%d shared)\t%s\tL1 ≤ %.3g\t\n", k, t.Def.Name(), est.Pairs, est.S*est.A,
						len(est.Leaders), shared, gap(template.MinDistance(est.Leaders)), est.Bound)
					all = append(all, est.Leaders...)
					simulated++
					continue
				}
				tr := template.OfModel(t.Dynamics())
				fmt.Fprintf(w, "%d\t%s\t%d\t%d\t%s\t%s\t\n", k, t.Def.Name(), tr.Pairs, len(tr.Templates), gap(tr.Gap), gap(tr.RankingGap))
				all = append(all, tr.Templates...)
			}
			w.Flush()
			if simulated > 0 {
				// Simulator tasks have no true model: their templates are estimated, and grouped at τ̂.
				fmt.Fprintf(out, "\n%d simulator tasks: templates estimated from %d uniformly random steps each (resets seeded by the task's index),\n"+
					"over the pairs with at least %d samples (pairs: counted of S·A), grouped by leader clustering at τ̂ = %g; G counts the groups,\n"+
					"shared those within τ̂ of a group of an earlier task. The cells of a discretized environment are not Markov: this is\n"+
					"the random policy's cell-to-cell kernel. Per pair ‖p̂ − p‖₁ ≤ √(2(k ln 2 + ln 20)/n) with probability 0.95 (k outcomes,\n"+
					"n samples); the ν column holds its largest value over the task's pairs.\n", simulated, samples, minCount, tau)
				if simulated == len(p.Runs[run]) {
					leaders := template.Leaders(all, tau)
					fmt.Fprintf(out, "\nwhole sequence: %d groups at τ̂ = %g of the tasks' %d estimated templates\n", len(leaders), tau, len(all))
					return nil
				}
			}
			distinct := template.Distinct(all)
			fmt.Fprintf(out, "\nwhole sequence: %d distinct templates, template gap τ = %s\n", len(distinct), gap(template.MinDistance(distinct)))
			for i, g := range distinct {
				fmt.Fprintf(out, "  g%-3d p = %v  r = %.4g\n", i+1, rounded(g.P), g.R)
			}
			if drawDir == "" {
				return nil
			}
			if err := os.MkdirAll(drawDir, 0o755); err != nil {
				return err
			}
			drawn := 0
			for k, t := range p.Runs[run] {
				mz, ok := t.Def.(env.Maze)
				if !ok {
					continue
				}
				pictures := map[string]plots.Grid{"landforms": mazepicture.Landforms(mz), "templates": mazepicture.Templates(mz, t.Dynamics())}
				for name, g := range pictures {
					if err := g.Save(filepath.Join(drawDir, fmt.Sprintf("task-%03d-%s", k, name))); err != nil {
						return err
					}
				}
				drawn++
				if resultsDir != "" {
					if err := drawLearned(drawDir, dir, agentName, s, run, k, mz, t.Dynamics()); err != nil {
						return err
					}
				}
			}
			fmt.Fprintf(out, "\nDrew the landforms and true template maps of %d maze tasks into %s (task-NNN-{landforms,templates}.{png,svg})\n", drawn, drawDir)
			return nil
		},
	}
	cmd.Flags().IntVar(&run, "run", 0, "which run's task sequence to inspect")
	cmd.Flags().IntVar(&samples, "samples", 200000, "simulator tasks: random-policy steps the templates are estimated from")
	cmd.Flags().IntVar(&minCount, "min-count", 30, "simulator tasks: samples a pair needs for an estimated template")
	cmd.Flags().Float64Var(&tau, "tau", 0.15, "simulator tasks: distance within which estimated templates are one (τ̂)")
	cmd.Flags().StringVar(&preset, "preset", "", "inspect a preset's tasks instead of a config")
	cmd.Flags().StringVar(&tasks, "tasks", "", "inspect the task sequences of this JSON file")
	cmd.Flags().StringVar(&drawDir, "draw", "", "also draw each maze task's landforms and true template map into this directory")
	cmd.Flags().StringVar(&resultsDir, "results", "", "inspect the tasks of this results directory (and with --draw, what its agent learned)")
	cmd.Flags().StringVar(&agentName, "agent", "", "with --results: the agent whose templates to draw (default: the first that has them)")
	return cmd
}

func gap(x float64) string {
	if math.IsInf(x, 1) {
		return "none"
	}
	return fmt.Sprintf("%.4g", x)
}

func rounded(p []float64) []float64 {
	out := make([]float64, len(p))
	for i, x := range p {
		out[i] = math.Round(x*1e6) / 1e6
	}
	return out
}

// recordedSpec is the spec.yaml of a results directory, its paths as the run recorded them (the
// run's working directory's, not the results directory's): inspect takes the tasks from
// tasks.json, so the run's task files need not be where they were.
func recordedSpec(dir results.Dir) (experiment.Spec, error) {
	path := dir.Path(results.SpecFile)
	b, err := experiment.ReadConfig(path)
	if err != nil {
		return experiment.Spec{}, err
	}
	s, err := experiment.Parse(b)
	if err != nil {
		return experiment.Spec{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// drawLearned draws the templates the agent learned on task k of run, from the results directory.
func drawLearned(drawDir string, dir results.Dir, agentName string, s experiment.Spec, run, k int, mz env.Maze, d mdp.Dynamics) error {
	var tau float64
	for _, a := range s.Agents {
		if agentName != "" && a.Name != agentName {
			continue
		}
		snaps, err := results.ReadSnapshots(dir, run, a.Name)
		if err != nil {
			var damaged *results.DamagedError
			if agentName != "" || errors.As(err, &damaged) {
				return err
			}
			continue // an agent without templates
		}
		switch p := a.Params.(type) {
		case *tl.OTempLeSpec:
			tau = p.Tau
		case *tl.FMTempLeSpec:
			tau = p.Tau
		}
		for _, snap := range snaps {
			if snap.Task != k {
				continue
			}
			pairs, library, ok := mazepicture.Learned(mz, d, snap.Snapshot, tau)
			if !ok {
				return nil
			}
			base := filepath.Join(drawDir, fmt.Sprintf("task-%03d-%s", k, a.Name))
			if err := pairs.Save(base + "-learned"); err != nil {
				return err
			}
			return library.Save(base + "-library")
		}
		return nil
	}
	if agentName != "" {
		return fmt.Errorf("--agent %q is not an agent of %s", agentName, dir)
	}
	return nil
}
