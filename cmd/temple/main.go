// Command temple runs TempLe experiments: the built-in default, a YAML config, or a preset that
// reproduces an experiment of the paper; and inspects the ground-truth templates of tasks.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/temple-rl/temple/experiment"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := root().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "temple:", err)
		os.Exit(1)
	}
}

func root() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "temple",
		Short: "Multi-task reinforcement learning with transition templates (TempLe, AAAI-21)",
		Long: "temple runs TempLe experiments on families of tabular tasks: O-TempLe, FM-TempLe and the\n" +
			"baselines of the paper, with seeded, parallel, resumable runs, CSV/JSON results and figures.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       experiment.Version,
	}
	cmd.AddCommand(runCmd(), reproduceCmd(), inspectCmd(), deepCmd())
	return cmd
}

// overrides are the flags that change a spec.
type overrides struct {
	out        string
	seed       uint64
	runs, jobs int
	tasks      string
}

func (o *overrides) register(cmd *cobra.Command, withTasks bool) {
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "results directory (default results/NAME)")
	f.Uint64Var(&o.seed, "seed", 0, "experiment seed (default: the spec's)")
	f.IntVar(&o.runs, "runs", 0, "number of runs, i.e. task sequences (default: the spec's)")
	f.IntVar(&o.jobs, "jobs", 0, "parallel workers (default: one per core)")
	if withTasks {
		f.StringVar(&o.tasks, "tasks", "", "run on the task sequences of this JSON file (ours or a published one)")
	}
}

func (o *overrides) apply(cmd *cobra.Command, s *experiment.Spec) error {
	f := cmd.Flags()
	if f.Changed("seed") {
		s.Seed = o.seed
	}
	if f.Changed("runs") {
		s.Runs = o.runs
	}
	if o.tasks != "" {
		s.Tasks.Family, s.Tasks.File, s.Tasks.Count = experiment.FamilyFile, o.tasks, 0
	}
	if f.Changed("jobs") && o.jobs < 1 {
		return fmt.Errorf("--jobs = %d, want at least 1", o.jobs)
	}
	if o.out == "" {
		o.out = filepath.Join("results", s.Name)
	}
	return s.Validate()
}

func runCmd() *cobra.Command {
	var o overrides
	cmd := &cobra.Command{
		Use:   "run [CONFIG.yaml]",
		Short: "Run an experiment from a config file, or the built-in default experiment",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s := experiment.Default()
			if len(args) == 1 {
				var err error
				if s, err = experiment.Load(args[0]); err != nil {
					return err
				}
			}
			if err := o.apply(cmd, &s); err != nil {
				return err
			}
			return execute(cmd, s, o)
		},
	}
	o.register(cmd, false)
	return cmd
}

func reproduceCmd() *cobra.Command {
	var o overrides
	var list bool
	cmd := &cobra.Command{
		Use:   "reproduce NAME",
		Short: "Reproduce an experiment of the paper (see --list)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if list || len(args) == 0 {
				for _, p := range experiment.Presets() {
					fmt.Fprintf(cmd.OutOrStdout(), "%-24s %s\n", p.Name, p.Description)
				}
				if !list {
					return fmt.Errorf("name a preset to reproduce")
				}
				return nil
			}
			p, err := experiment.LookupPreset(args[0])
			if err != nil {
				return err
			}
			if p.Sweep != nil {
				sw := p.Sweep()
				if err := o.apply(cmd, &sw.Base); err != nil {
					return err
				}
				return executeSweep(cmd, sw, o)
			}
			s := p.Spec()
			if err := o.apply(cmd, &s); err != nil {
				return err
			}
			return execute(cmd, s, o)
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the presets")
	o.register(cmd, true)
	return cmd
}

func execute(cmd *cobra.Command, s experiment.Spec, o overrides) error {
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "temple %s: experiment %s, seed %d, %d runs x %d agents\n", experiment.Version, s.Name, s.Seed, s.Runs, len(s.Agents))
	prog := newProgress(out, s)
	sum, err := experiment.Execute(cmd.Context(), s, o.out, o.jobs, prog)
	prog.done()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nMean per-task reward (95%% CI across %d runs):\n", s.Runs)
	for _, a := range sum.Agents {
		fmt.Fprintf(out, "  %-16s %10.2f ± %-8.2f", a.Name, a.MeanPerTaskReward, a.CI95)
		if a.Advantage != nil && a.Name != s.Output.Baseline {
			fmt.Fprintf(out, "  paired advantage over %s %+.2f ± %.2f", s.Output.Baseline, *a.Advantage, *a.AdvantageCI95)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "\nResults: %s (per_task.csv, metrics.csv, summary.json)\nFigures: %s\n", o.out, filepath.Join(o.out, "figures"))
	return nil
}

func executeSweep(cmd *cobra.Command, sw experiment.Sweep, o overrides) error {
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "temple %s: sweep %s over %s = %v, seed %d, %d runs\n", experiment.Version, sw.Base.Name, sw.Param, sw.Values, sw.Base.Seed, sw.Base.Runs)
	prog := newProgress(out, sw.Base)
	points, err := experiment.ExecuteSweep(cmd.Context(), sw, o.out, o.jobs, prog)
	prog.done()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nMean per-task reward (95%% CI across %d runs):\n", sw.Base.Runs)
	for _, p := range points {
		fmt.Fprintf(out, "  %s = %-6g %-16s %10.2f ± %.2f\n", sw.Param, p.Value, p.Agent, p.MeanPerTaskReward, p.CI95)
	}
	fmt.Fprintf(out, "\nResults: %s (sweep.csv, one directory per value)\nFigure: %s\n", o.out, filepath.Join(o.out, "figures", "sweep.png"))
	return nil
}
