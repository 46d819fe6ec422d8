package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/temple-rl/temple/benchmark"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/tune"
)

func benchmarkCmd() *cobra.Command {
	var tier, out, file, calibrate string
	var seed uint64
	var jobs int
	var estimateOnly bool
	var adds, only []string
	cmd := &cobra.Command{
		Use:   "benchmark",
		Short: "Tune every learner with the same budget on every family, judge it at a fresh seed, rank it beside the family's measures",
		Long: "benchmark runs the families of benchmarks/TIER.yaml (or --spec): on each, every learner that applies is\n" +
			"tuned by temple tune with the same budget on the family's design seed and judged once at its judging\n" +
			"seed (both derive from --seed and the family's name); it writes DIR/benchmark.json, DIR/benchmark.md and\n" +
			"DIR/report.html: each family's measures and headroom, its learners ranked by regret with their verdicts\n" +
			"against the family's best single-task learner. Interrupted, it resumes; --family runs one family (a\n" +
			"Slurm array task each), and a later run without it gathers them (docs/guides/benchmark.md).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				if tier != "small" && tier != "full" {
					return fmt.Errorf("--tier %q: want small or full", tier)
				}
				file = filepath.Join("benchmarks", tier+".yaml")
				if _, err := os.Stat(file); err != nil {
					return fmt.Errorf("--tier %s reads %s, which is not here: run temple benchmark from the repository's root, or give --spec FILE", tier, file)
				}
			}
			if cmd.Flags().Changed("jobs") && jobs < 1 {
				return fmt.Errorf("--jobs = %d, want at least 1", jobs)
			}
			s, err := benchmark.Load(file)
			if err != nil {
				return err
			}
			for _, path := range adds {
				a, err := benchmark.LoadAddition(path)
				if err != nil {
					return err
				}
				if err := s.Add(a, path); err != nil {
					return err
				}
			}
			if out == "" {
				out = filepath.Join(runsDir, "bench-"+s.Name)
			}
			w := cmd.OutOrStdout()
			work, err := benchmark.Work(s, only)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "temple %s: benchmark %s, seed %d: %d families, %d learners and %d references, %d settings each; at most %.3g agent-steps\n",
				results.Version, s.Name, seed, len(s.Families), len(s.Learners), len(s.References), s.Tuning.Settings, float64(work))
			if tier == "full" || calibrate != "" || estimateOnly {
				reference := ""
				if file == filepath.Join("benchmarks", tier+".yaml") {
					reference = filepath.Join("benchmarks", tier+".timing.json")
				}
				printEstimate(cmd, calibrate, reference, work)
			}
			if estimateOnly {
				return nil
			}
			began := time.Now()
			prog := func(doing string) tune.Progress {
				return &tune.Lines{W: cmd.ErrOrStderr(), Interval: 5 * time.Second, Doing: doing}
			}
			fams, err := benchmark.Run(cmd.Context(), s, benchmark.Options{Seed: seed, Dir: out, Jobs: jobs, Families: only, Progress: prog,
				Note: func(text string) { fmt.Fprintln(cmd.ErrOrStderr(), "benchmark:", text) }})
			if err != nil {
				return err
			}
			if len(only) > 0 {
				fmt.Fprintf(w, "\nRan %v into %s/families; run without --family to gather every family into %s.\n", only, out, benchmark.JSONFile)
				return nil
			}
			r := benchmark.Result{Benchmark: s.Name, Seed: seed, Margin: s.Margin, Budget: s.Tuning, Families: fams}
			if err := benchmark.Write(out, r); err != nil {
				return err
			}
			spent, err := benchmark.MeasuredSeconds(out, s) // every invocation's time on the families
			if err != nil {
				return err
			}
			if err := benchmark.WriteTiming(out, benchmark.Timing{Seconds: spent, Steps: work, Jobs: experiment.Workers(jobs)}); err != nil {
				return err
			}
			fmt.Fprintf(w, "\nWrote %s, %s and %s in %s (%s).\n", benchmark.JSONFile, benchmark.MarkdownFile, benchmark.HTMLFile, out,
				time.Since(began).Round(time.Second))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&tier, "tier", "small", "small (every family and learner at small sizes) or full: the file benchmarks/TIER.yaml")
	f.StringVar(&file, "spec", "", "a benchmark file instead of benchmarks/TIER.yaml")
	f.Uint64Var(&seed, "seed", 1, "the benchmark's seed: every family's design and judging seeds derive from it and the family's name")
	f.StringVar(&out, "out", "", "output directory (default "+runsDir+"/bench-NAME)")
	f.StringArrayVar(&adds, "add", nil, "a YAML file with agents: (and search:) whose learners join every family; repeat for several")
	f.IntVar(&jobs, "jobs", 0, "parallel workers (default: one per core); the results do not depend on it")
	f.StringArrayVar(&only, "family", nil, "run only this family (repeat for several); a later run without it gathers them")
	f.BoolVar(&estimateOnly, "estimate", false, "print the agent-steps and the time estimate, and run nothing")
	f.StringVar(&calibrate, "calibrate", "", "a finished benchmark's directory whose timing.json the time estimate scales (default with --tier full: "+runsDir+"/bench-small)")
	return cmd
}

// printEstimate prints the time the benchmark should take: the measured seconds per agent-step of
// a finished benchmark (its timing.json) times this one's agent-steps. Without one on this machine
// it prints the tier's reference time, if the tier has one (benchmarks/TIER.timing.json: the run
// of docs/benchmark.md), scaled to this benchmark's agent-steps.
func printEstimate(cmd *cobra.Command, calibrate, reference string, work int64) {
	if calibrate == "" {
		calibrate = filepath.Join(runsDir, "bench-small")
	}
	w := cmd.OutOrStdout()
	t, err := benchmark.ReadTiming(calibrate)
	if err != nil {
		ref, rerr := benchmark.ReadTimingFile(reference)
		if reference == "" || rerr != nil {
			fmt.Fprintf(w, "Time estimate: none (%v); run the small tier first, or give --calibrate a finished benchmark's directory.\n", err)
			return
		}
		est := time.Duration(ref.Seconds / float64(ref.Steps) * float64(work) * float64(time.Second))
		fmt.Fprintf(w, "Time estimate: none measured on this machine (%v). The reference run of this tier (%s, docs/benchmark.md) took %s "+
			"for %.3g agent-steps with --jobs %d on a 2-core machine: about %s for these; run the small tier first, or give --calibrate a "+
			"finished benchmark's directory, for this machine's estimate.\n",
			err, reference, time.Duration(ref.Seconds*float64(time.Second)).Round(time.Second), float64(ref.Steps), ref.Jobs, est.Round(time.Second))
		return
	}
	est := time.Duration(t.Seconds / float64(t.Steps) * float64(work) * float64(time.Second))
	fmt.Fprintf(w, "Time estimate: %s at most (%.3g agent-steps at the %.3g s per million agent-steps %s measured: %.0f s for %.3g; "+
		"at the same --jobs, on the same machine).\n", est.Round(time.Second), float64(work), t.Seconds/float64(t.Steps)*1e6, calibrate, t.Seconds, float64(t.Steps))
}
