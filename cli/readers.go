package cli

// The commands that only read results directories, compare, report and merge, need package
// results (and report's statistics), not the runner.

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/stats"
)

func compareCmd() *cobra.Command {
	var baseline, marginFlag string
	var all bool
	var pairs []string
	cmd := &cobra.Command{
		Use:   "compare DIR [OTHER_DIR]",
		Short: "Paired statistical comparison of agents, run by run, with Holm's correction",
		Long: "compare tests whether one agent earns more than another, run by run on the same task sequences:\n" +
			"a two-sided paired t-test on the runs' mean per-task rewards, Cohen's d_z as the effect size, and\n" +
			"whether the two are level: the two one-sided tests (TOST) at an equivalence margin (--margin).\n" +
			"With one results directory it tests the comparisons temple run printed and report.html shows: the\n" +
			"ones the experiment named (output.verdicts), or else every pair of up to 4 agents, or else every\n" +
			"agent against the experiment's baseline (output.baseline; every pair when it has none); with\n" +
			"--baseline NAME every agent against NAME, with --all every pair, with --pair A:B only the\n" +
			"comparisons given, adjusted over those alone (name in advance the comparisons that decide a\n" +
			"question: output.verdicts records them in the spec); with two\n" +
			"directories that ran the same tasks, each agent against its namesake in the other. The p-values of\n" +
			"all the t-tests and TOSTs are adjusted together (Holm's step-down with Shaffer's bound: a\n" +
			"comparison's two null hypotheses cannot both be true). It prints a table, with each comparison's\n" +
			"minimum detectable effect (the difference the t-test detects with probability 0.8 at 0.05), and\n" +
			"the verdict of each comparison: A > B or A < B when the adjusted p of the t-test is below 0.05,\n" +
			"the level of the 95% CIs; \"level\" when instead the adjusted p of the TOST is; otherwise \"not\n" +
			"distinguishable\". It writes compare.csv, with the margins, into DIR.",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := openResultsDirs(args)
			if err != nil {
				return err
			}
			margin, err := stats.ParseMargin(marginFlag)
			if err != nil {
				return fmt.Errorf("--margin: %w", err)
			}
			var cs []stats.Comparison
			var agents map[string]results.AgentSummary
			switch {
			case len(pairs) > 0 && (all || baseline != ""):
				return fmt.Errorf("--pair names the comparisons itself: give it without --all and --baseline")
			case len(pairs) > 0 && len(args) == 2:
				return fmt.Errorf("--pair compares agents of one results directory; two directories compare each agent with its namesake")
			}
			if len(pairs) > 0 {
				var sum results.Summary
				if sum, err = results.ReadSummary(dirs[0]); err != nil {
					return err
				}
				cs, err = results.ComparePairs(sum, pairs)
				agents = results.AgentsByName(sum)
			} else if len(args) == 2 {
				if cs, err = results.CompareDirs(dirs[0], dirs[1]); err != nil {
					return err
				}
				agents, err = agentsOfDirs(dirs[0], dirs[1])
			} else {
				var sum results.Summary
				if sum, err = results.ReadSummary(dirs[0]); err != nil {
					return err
				}
				if len(sum.Agents) < 2 {
					return fmt.Errorf("%s holds the results of one agent (%s): a comparison needs two; nothing is written "+
						"(compare it with its namesake in another results directory of the same tasks: temple compare %s OTHER_DIR)",
						dirs[0], sum.Agents[0].Name, dirs[0])
				}
				switch {
				case all:
					cs, err = results.Compare(sum, "")
				case baseline != "":
					cs, err = results.Compare(sum, baseline)
				default:
					cs, err = verdictsOfRun(dirs[0], sum)
				}
				agents = results.AgentsByName(sum)
			}
			if err != nil {
				return err
			}
			bases, err := results.Judge(cs, agents, margin)
			if err != nil {
				return err
			}
			// compare.csv first: a directory it cannot be written to gets no verdict printed
			// before the error.
			if err := results.WriteComparisons(dirs[0], cs); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(w, "A\tB\truns\tA − B (95% CI)\tt\tp\tp (adj.)\td_z\tA wins\tmargin\tp TOST\tp TOST (adj.)\tMDE\t")
			for _, c := range cs {
				pTOST, pTOSTAdjusted := "–", "–"
				if c.Margin > 0 {
					pTOST, pTOSTAdjusted = fmt.Sprintf("%.3g", c.PTOST), fmt.Sprintf("%.3g", c.PTOSTAdjusted)
				}
				fmt.Fprintf(w, "%s\t%s\t%d\t%.2f ± %.2f\t%.3g\t%.3g\t%.3g\t%.2f\t%d/%d\t%.3g\t%s\t%s\t%.3g\t\n", c.A, c.B, c.N,
					c.MeanDiff, c.CI95, c.T, c.P, c.PAdjusted, c.EffectSize, c.Wins, c.N, c.Margin, pTOST, pTOSTAdjusted, c.MDE)
			}
			w.Flush()
			fmt.Fprintf(out, "\nMargins (--margin %s): %s.\n", marginFlag, marginBases(cs, bases))
			fmt.Fprintf(out, "\nVerdicts (paired difference significant at the %g level, or level by TOST at the margin at %g; "+
				"the p-values adjusted together, Holm with Shaffer's bound):\n", stats.Level, stats.Level)
			for _, c := range cs {
				fmt.Fprintf(out, "  %s\n", c.Verdict())
			}
			fmt.Fprintf(out, "\nWritten: %s\n", dirs[0].Path(results.CompareFile))
			return nil
		},
	}
	cmd.Flags().StringVar(&baseline, "baseline", "", "agent every other agent is compared with")
	cmd.Flags().BoolVar(&all, "all", false, "compare every pair of agents")
	cmd.Flags().StringArrayVar(&pairs, "pair", nil, "compare agent A with agent B, as A:B (repeat for several; Holm over these alone)")
	cmd.Flags().StringVar(&marginFlag, "margin", stats.DefaultMargin, "equivalence margin of the TOST: a percentage of the larger mean regret of the two agents "+
		"(of their mean per-task rewards without the oracle), or an absolute difference in mean per-task reward")
	return cmd
}

// verdictsOfRun are the comparisons temple run tested of the results directory dir, with summary
// sum, and report.html shows (results.Verdicts of its spec's output.verdicts and baseline).
func verdictsOfRun(dir results.Dir, sum results.Summary) ([]stats.Comparison, error) {
	spec, _, err := results.ReadSpecHeader(dir)
	if err != nil {
		return nil, err
	}
	cs, _, err := results.Verdicts(sum, spec.Output.Baseline, spec.Output.Verdicts)
	return cs, err
}

// agentsOfDirs are the agents of the two results directories by the names CompareDirs gives them.
func agentsOfDirs(a, b results.Dir) (map[string]results.AgentSummary, error) {
	sa, err := results.ReadSummary(a)
	if err != nil {
		return nil, err
	}
	sb, err := results.ReadSummary(b)
	if err != nil {
		return nil, err
	}
	return results.AgentsOfDirs(a, sa, b, sb), nil
}

// marginBases says what the comparisons' margins were taken from: one basis when they share it,
// else each comparison's.
func marginBases(cs []stats.Comparison, bases []string) string {
	shared, none := true, ""
	for i, b := range bases {
		shared = shared && b == bases[0]
		if cs[i].Margin == 0 {
			none = " (0: no equivalence test)"
		}
	}
	if shared && len(bases) > 0 {
		return bases[0] + " of each pair" + none
	}
	var parts []string
	for i, c := range cs {
		parts = append(parts, fmt.Sprintf("%s − %s: %s", c.A, c.B, bases[i]))
	}
	return strings.Join(parts, "; ") + none
}

func reportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "report DIR",
		Short: "Rebuild report.html of a results directory",
		Long: "report rebuilds the self-contained report.html of a results directory from its files: the\n" +
			"summary with 95% CIs, every paired verdict temple run prints, every figure, each agent's\n" +
			"diagnostics, the timings and the resolved spec.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := results.Open(args[0])
			if err != nil {
				return err
			}
			if err := results.RewriteReport(dir); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Written: %s\n", dir.Path(results.ReportFile))
			return nil
		},
	}
}

func mergeCmd() *cobra.Command {
	var o results.MergeOptions
	cmd := &cobra.Command{
		Use:   "merge OUT SHARD_DIR...",
		Short: "Join the results directories of the shards of one experiment",
		Long: "merge checks that the shard directories ran the same spec, gathers their cells, checks that\n" +
			"none is missing and writes the results into OUT: the same bytes as an unsharded run (of an\n" +
			"experiment, a sweep or a scaling study).",
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := openResultsDirs(args[1:]); err != nil {
				return err
			}
			if err := results.MergeWith(args[0], args[1:], o); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Merged %d shards into %s\n", len(args)-1, args[0])
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.OtherVersions, "allow-other-version", false, "merge shards written by other temple versions, the merged results recording them")
	return cmd
}

// openResultsDirs opens the results directories at paths to read (results.Open), in turn: the
// first that is not one is refused, saying what it is.
func openResultsDirs(paths []string) ([]results.Dir, error) {
	dirs := make([]results.Dir, len(paths))
	for k, path := range paths {
		var err error
		if dirs[k], err = results.Open(path); err != nil {
			return nil, err
		}
	}
	return dirs, nil
}
