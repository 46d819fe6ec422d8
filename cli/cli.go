// Package cli is the temple command: it runs TempLe experiments (the built-in default, a YAML
// config, or a preset that reproduces an experiment of the paper), tunes and compares agents, and
// inspects the ground-truth templates of tasks. cmd/temple's main is Main; a program of another
// module that registers learners of its own (agenttypes.Register) runs the same command by
// calling Main from its own main (examples/own-learner-go).
//
// It is the top layer: it may import any package of the module, and only cmd/temple imports it. Running
// (run, reproduce, merge, inspect) goes through experiment; the commands that only read a results
// directory (compare, report, in readers.go) use results alone.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/env/published"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/internal/regular"
	"github.com/temple-rl/temple/internal/suggest"
	"github.com/temple-rl/temple/memory"
	"github.com/temple-rl/temple/presets"
	"github.com/temple-rl/temple/stats"
	"github.com/temple-rl/temple/study"

	"github.com/temple-rl/temple/results"
)

// Main runs the temple command on the process's arguments and exits with its status: 0, or 1
// after printing the error.
func Main() {
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
		Version:       results.Version,
		// Every command's flags are checked here, before the command prints anything.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return checkFlags(cmd) },
	}
	cmd.SetFlagErrorFunc(flagError)
	cmd.AddCommand(runCmd(), reproduceCmd(), inspectCmd(), compareCmd(), mergeCmd(), reportCmd(), deepCmd(), describeCmd(), tuneCmd(), benchmarkCmd())
	return cmd
}

// runsDir is the directory under which an experiment's results go unless --out names another:
// runs/NAME, outside the repository's packages (results/ is one) and ignored by git. The
// directory's name is no part of any result.
const runsDir = "runs"

// overrides are the flags that change a spec or where and how much of it runs.
type overrides struct {
	out        string
	seed       uint64
	runs, jobs int
	tasks      string
	shard      string
	force      bool
	// otherVersion resumes the results of another temple version (--allow-other-version).
	otherVersion bool
	yes          bool // start a run estimated at more than an hour (work.go)
}

func (o *overrides) register(cmd *cobra.Command, withTasks bool) {
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "results directory (default "+runsDir+"/NAME)")
	f.Uint64Var(&o.seed, "seed", 0, "experiment seed (default: the spec's)")
	f.IntVar(&o.runs, "runs", 0, "number of runs, i.e. task sequences (default: the spec's)")
	f.IntVar(&o.jobs, "jobs", 0, "parallel workers (default: one per core)")
	f.BoolVar(&o.yes, "yes", false, "start a run estimated at more than an hour without asking (in batch mode, standard input not a terminal, it starts anyway)")
	f.BoolVar(&o.force, "force", false, "replace the results the --out directory holds (the files its record lists, of this or another experiment) instead of resuming or refusing; run into a directory of files temple did not write")
	f.BoolVar(&o.otherVersion, "allow-other-version", false, "resume results written by another temple version or an older results format, the results recording both versions")
	f.StringVar(&o.shard, "shard", "", "run only share i of n of the cells, as i/n (default: from a Slurm array job or a Kubernetes Indexed Job); join the shards with temple merge")
	if withTasks {
		f.StringVar(&o.tasks, "tasks", "", "run on the task sequences of this JSON file (a results directory's tasks.json), or on the published ones shipped with temple: "+
			strings.Join(publishedNames(), ", "))
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
		s.Tasks = families.FromFile(o.tasks)
	}
	if o.out == "" {
		o.out = filepath.Join(runsDir, s.Name)
	}
	return s.Validate()
}

func runCmd() *cobra.Command {
	var o overrides
	var printSpec, allowSeeds bool
	cmd := &cobra.Command{
		Use:   "run [CONFIG.yaml | -]",
		Short: "Run an experiment from a config file, or the built-in default experiment",
		Long: "run runs the experiment of a YAML config (docs/reference/configuration.md), or without\n" +
			"one the default experiment: " + presets.DemoDescription + ".\n" +
			"A config's relative paths are read from its directory; \"-\" reads the config from standard\n" +
			"input, its paths from the working directory.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s := presets.Demo()
			if len(args) == 1 {
				var err error
				if s, err = loadConfig(cmd, args[0]); err != nil {
					return err
				}
			}
			allowDesignSeeds(&s, allowSeeds)
			if err := o.apply(cmd, &s); err != nil {
				return err
			}
			if printSpec {
				return writeSpec(cmd, s)
			}
			if len(args) == 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "The default experiment: %s.\n", presets.DemoDescription)
			}
			return execute(cmd, s, o)
		},
	}
	o.register(cmd, false)
	cmd.Flags().BoolVar(&printSpec, "print", false, "print the resolved spec (the config with every default and flag applied) as YAML instead of running it")
	cmd.Flags().BoolVar(&allowSeeds, "allow-design-seeds", false, "run a tuned config (temple tune) on a seed used to tune it; its results are then no verdict")
	return cmd
}

func reproduceCmd() *cobra.Command {
	var o overrides
	var list, printSpec bool
	cmd := &cobra.Command{
		Use:   "reproduce NAME",
		Short: "Reproduce an experiment of the paper (see --list)",
		Long: "reproduce runs a preset: an experiment of the paper at its settings (temple reproduce --list).\n" +
			"Its tasks are drawn from the seed; --tasks runs it on given task sequences instead, among them\n" +
			"the published ones, which ship with temple:\n\n" +
			"  --tasks published:online-maze-4x4        Figure 2 \"Online MTRL\" (online-maze, beyond, tau-sweep)\n" +
			"  --tasks published:finite-model-grid-4x4  Figure 2 \"Finite-Model MTRL\" (finite-model, gamma-sweep)\n" +
			"  --tasks published:varying-size-20        Figure 2 \"Varying-sized MTRL\" (varying-size; also -80)\n\n" +
			"Each holds 30 runs' task sequences; --runs up to 30 reads the first ones.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if list || len(args) == 0 {
				for _, p := range presets.All() {
					fmt.Fprintf(cmd.OutOrStdout(), "%-24s %s\n", p.Name, p.Description)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%-24s %s\n", "deep", "Appendix F.6: dynamics models of continuous tasks "+
					"(absolute, relative, relative + augment), as temple deep; --runs is its number of seeds")
				if !list {
					return fmt.Errorf("name a preset to reproduce")
				}
				return nil
			}
			if args[0] == "deep" {
				if printSpec {
					return fmt.Errorf("reproduce deep --print: the deep study has no experiment spec; temple deep --help lists its settings")
				}
				return reproduceDeep(cmd, o)
			}
			p, err := lookupPreset(args[0])
			if err != nil {
				return err
			}
			s := p.Spec()
			if err := o.apply(cmd, &s); err != nil {
				return err
			}
			if printSpec {
				return writeSpec(cmd, s)
			}
			return execute(cmd, s, o)
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the presets")
	cmd.Flags().BoolVar(&printSpec, "print", false, "print the preset's full spec as YAML, a config to start one's own from (temple run CONFIG.yaml), instead of running it")
	o.register(cmd, true)
	return cmd
}

// loadConfig reads the config at path, or from standard input when path is "-" (its relative
// paths are then the working directory's).
func loadConfig(cmd *cobra.Command, path string) (experiment.Spec, error) {
	if path != "-" {
		return experiment.Load(path)
	}
	b, err := regular.ReadAll(cmd.InOrStdin(), "standard input", experiment.MaxConfigBytes)
	if err != nil {
		return experiment.Spec{}, fmt.Errorf("config (standard input): %w", err)
	}
	return experiment.LoadStdin(b)
}

// writeSpec prints the resolved spec s as YAML, a config that reads back as s.
func writeSpec(cmd *cobra.Command, s experiment.Spec) error {
	b, err := yaml.Marshal(s)
	if err != nil {
		return err
	}
	_, err = cmd.OutOrStdout().Write(b)
	return err
}

// lookupPreset is the preset of that name; an unknown name fails with every preset's name (deep
// too) and the closest one.
func lookupPreset(name string) (presets.Preset, error) {
	p, err := presets.Lookup(name)
	if err == nil {
		return p, nil
	}
	var names []string
	for _, p := range presets.All() {
		names = append(names, p.Name)
	}
	names = append(names, "deep")
	return p, fmt.Errorf("no preset %q (the presets are %s; temple reproduce --list says what each runs)%s",
		name, strings.Join(names, ", "), suggest.DidYouMean(name, names))
}

func execute(cmd *cobra.Command, s experiment.Spec, o overrides) error {
	sh, sharded, err := shardOf(o)
	if err != nil {
		return err
	}
	if err := confirmWork(cmd, s, o); err != nil {
		return err
	}
	limitHeap(s)
	// The check and the run read the task files once: the same bytes.
	s = s.ReadInputsOnce()
	if err := experiment.Check(s); err != nil { // before --force clears anything or a header prints
		return err
	}
	dir := results.At(o.out)
	if o.force {
		if err := results.Discard(dir, func(text string) { fmt.Fprintln(cmd.ErrOrStderr(), "temple: --force:", text) }); err != nil {
			return err
		}
	}
	s = s.WithDir(experiment.DirOptions{Force: o.force, OtherVersions: o.otherVersion})
	if sharded {
		return executeShard(cmd, s, o, sh)
	}
	if len(s.Sweep) > 0 {
		return executeSweep(cmd, s, o)
	}
	if s.Scaling != nil {
		return executeScaling(cmd, s, o)
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "temple %s: experiment %s, seed %d, %d runs x %d agents\n", results.Version, s.Name, s.Seed, s.Runs, len(s.Agents))
	printTuning(out, s)
	prog := newProgress(cmd.ErrOrStderr(), s)
	cells, sum, err := experiment.ExecuteCells(cmd.Context(), s, o.out, o.jobs, prog)
	prog.done()
	if err != nil {
		return interrupted(cmd, err, dir)
	}
	diag := diagnosticsOf(results.MetricsOf(cells))
	fmt.Fprintf(out, "\nMean per-task reward (95%% CI across %d runs):\n", s.Runs)
	width := 16 // the agents' names form one column
	for _, a := range sum.Agents {
		width = max(width, utf8.RuneCountInString(a.Name))
	}
	for _, a := range sum.Agents {
		fmt.Fprintf(out, "  %-*s %10.2f ± %-8.2f", width, a.Name, a.MeanPerTaskReward, a.CI95)
		if a.Advantage != nil && a.Name != s.Output.Baseline {
			fmt.Fprintf(out, "  paired advantage over %s %+.2f ± %.2f", s.Output.Baseline, hundredths(*a.Advantage), *a.AdvantageCI95)
		}
		fmt.Fprintln(out)
	}
	printFlags(out, s, sum, diag)
	if err := printVerdicts(out, s, sum); err != nil {
		return err
	}
	files := []string{results.PerTaskFile, results.MetricsFile, results.SummaryFile}
	if opt := sum.Optimal; opt != nil {
		files = append(files, results.OracleFile, results.RegretFile)
		fmt.Fprintf(out, "\nAgainst the optimal policy of each task's true model (%.2f ± %.2f per task):\n",
			opt.MeanPerTaskReward.Mean, opt.MeanPerTaskReward.CI95)
		for _, a := range sum.Agents {
			fmt.Fprintf(out, "  %-*s", width, a.Name)
			if sh := a.Oracle.ShareOfOptimal; sh != nil {
				fmt.Fprintf(out, " share of optimal %.3f ± %.3f", sh.Mean, sh.CI95)
			}
			fmt.Fprintf(out, "  regret %.2f ± %.2f  ε-mistakes %.1f ± %.1f", hundredths(a.Oracle.MeanRegret.Mean),
				a.Oracle.MeanRegret.CI95, a.Oracle.MeanEpsMistakes.Mean, a.Oracle.MeanEpsMistakes.CI95)
			if pm := a.Oracle.MeanPolicyMistakes; pm != nil {
				fmt.Fprintf(out, "  policy ε-mistakes %.1f ± %.1f", pm.Mean, pm.CI95)
			}
			fmt.Fprintf(out, " per task (ε = %g·V_max)\n", opt.Epsilon)
		}
	}
	printLearned(out, diag, width)
	printLegend(out, s, sum)
	printReused(out, dir, cells)
	fmt.Fprintf(out, "\nResults: %s (%s)\nFigures: %s\nReport:  %s\n", dir, strings.Join(files, ", "),
		dir.Path(results.FiguresDir), dir.Path(results.ReportFile))
	return nil
}

// printVerdicts says for the agents of the summary whether their paired differences in mean
// per-task reward are significant (stats.Comparison.Verdict): the comparisons of
// results.Verdicts (the spec's output.verdicts when it names any), which report.html shows too,
// with Holm's correction over those tested.
func printVerdicts(out io.Writer, s experiment.Spec, sum results.Summary) error {
	if len(sum.Agents) < 2 {
		return nil
	}
	if s.Runs < 2 {
		fmt.Fprintln(out, "\nOne run: no paired test, so no verdict on the differences (give --runs 2 or more).")
		return nil
	}
	cs, tested, err := results.Verdicts(sum, s.Output.Baseline, s.Output.Verdicts)
	if err != nil {
		return err
	}
	over := "Holm-adjusted p"
	if tested == results.TestedNamed {
		over = "Holm-adjusted over the comparisons of output.verdicts alone"
	}
	fmt.Fprintf(out, "\nPaired differences (two-sided paired t-test over the %d runs, %s, significant below %g):\n",
		s.Runs, over, stats.Level)
	width := 0
	for _, c := range cs {
		width = max(width, utf8.RuneCountInString(c.Verdict()))
	}
	for _, c := range cs {
		fmt.Fprintf(out, "  %-*s  %+.2f ± %.2f  p = %.2g\n", width, c.Verdict(), c.MeanDiff, c.CI95, c.PAdjusted)
	}
	return nil
}

// shardOf is the shard of --shard, or of the cluster's environment when the flag is not given.
func shardOf(o overrides) (cluster.Shard, bool, error) {
	if o.shard != "" {
		sh, err := cluster.ParseShard(o.shard)
		return sh, err == nil, err
	}
	return cluster.ShardFromEnv(os.Getenv)
}

// heapShare is the share of an experiment's memory limit that limitHeap gives the Go heap: the
// rest is for the runtime's own memory and the heap's fragmentation.
const heapShare = 0.9

// limitHeap sets the Go runtime's soft memory limit to heapShare of the experiment's memory limit
// (max_memory, or the machine's memory). The runner's estimate is of live memory, and the garbage
// collector lets the heap grow to twice its live data before it collects (GOGC=100): a run that
// fits by its estimate could exhaust the machine all the same (a 2000×2000 experiment with
// oracle.policy_mistakes, estimated at 14 GB, was killed at 24 GB). Near the limit the collector
// works harder instead. A GOMEMLIMIT in the environment takes precedence.
func limitHeap(s experiment.Spec) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	if limit := memory.Limit(s.MaxMemory); limit > 0 {
		debug.SetMemoryLimit(int64(float64(limit) * heapShare))
	}
}

func executeShard(cmd *cobra.Command, s experiment.Spec, o overrides, sh cluster.Shard) error {
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "temple %s: experiment %s, seed %d, shard %v\n", results.Version, s.Name, s.Seed, sh)
	prog := newProgress(cmd.ErrOrStderr(), s)
	cells, err := study.ExecuteShard(cmd.Context(), s, o.out, o.jobs, prog, sh)
	prog.done()
	if err != nil {
		return interrupted(cmd, err, results.At(o.out))
	}
	fmt.Fprintf(out, "\nShard %v: %d cells in %s. When every shard has finished: temple merge OUT SHARD_DIR...\n", sh, cells, o.out)
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// interrupted turns a cancelled run into a message that says what was kept and how to resume, and
// a refused directory into one that names the flags to change; other errors pass through.
func interrupted(cmd *cobra.Command, err error, dir results.Dir) error {
	var occupied *experiment.OccupiedError
	if errors.As(err, &occupied) {
		return fmt.Errorf("%w\n(give --out a fresh directory, or --force to replace them)", err)
	}
	if !errors.Is(err, context.Canceled) {
		return err
	}
	cells, _ := filepath.Glob(dir.Path(results.CellsDir + "/*.json"))
	sweepCells, _ := filepath.Glob(dir.Path("*/" + results.CellsDir + "/*.json"))
	again := append([]string{cmd.CommandPath()}, cmd.Flags().Args()...)
	cmd.Flags().Visit(func(f *pflag.Flag) { again = append(again, "--"+f.Name, f.Value.String()) })
	if !cmd.Flags().Changed("out") {
		again = append(again, "--out", dir.String())
	}
	return fmt.Errorf("interrupted: %d finished cells are saved under %s; run the same command again (%s) to resume from them",
		len(cells)+len(sweepCells), dir, strings.Join(again, " "))
}

func executeScaling(cmd *cobra.Command, s experiment.Spec, o overrides) error {
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "temple %s: scaling %s, %d sizes and %d landform sets, seed %d, %d runs\n", results.Version, s.Name,
		len(s.Scaling.Sizes), len(s.Scaling.LandformSets), s.Seed, s.Runs)
	prog := newProgress(cmd.ErrOrStderr(), s)
	rows, fits, err := study.ExecuteScaling(cmd.Context(), s, o.out, o.jobs, prog)
	prog.done()
	if err != nil {
		return interrupted(cmd, err, results.At(o.out))
	}
	fmt.Fprintf(out, "\nExploring samples per task (mean over tasks, 95%% CI across %d runs):\n", s.Runs)
	fmt.Fprintf(out, "  %-9s %6s %6s %4s  %-22s %16s %16s %14s %10s\n", "series", "n", "S·A", "G", "agent", "samples",
		"last task", "ε-mistakes", "unfinished")
	for _, r := range rows {
		fmt.Fprintf(out, "  %-9s %6d %6d %4d  %-22s %16s %16s %14s %10d\n", r.Series, r.Size, r.SA, r.G, r.Agent,
			fmt.Sprintf("%.0f ± %.0f", r.ExploringSamples.Mean, r.ExploringSamples.CI95),
			fmt.Sprintf("%.0f ± %.0f", r.ExploringLastTask.Mean, r.ExploringLastTask.CI95),
			fmt.Sprintf("%.0f ± %.0f", r.EpsMistakes.Mean, r.EpsMistakes.CI95), r.Unfinished)
	}
	fmt.Fprintln(out, "\nThe law fitted per run (95% CI across runs): slope of log samples on log S·A; samples = c·S·A, or α·G + β·S·A for template learners:")
	for _, f := range fits {
		fmt.Fprintf(out, "  %-22s slope %.2f ± %.2f", f.Agent, f.Slope.Mean, f.Slope.CI95)
		if f.PerTemplate != nil {
			fmt.Fprintf(out, "  α %.1f ± %.1f per template, β %.1f ± %.1f per pair\n", f.PerTemplate.Mean, f.PerTemplate.CI95, f.PerPair.Mean, f.PerPair.CI95)
		} else {
			fmt.Fprintf(out, "  c %.1f ± %.1f per pair\n", f.PerPair.Mean, f.PerPair.CI95)
		}
	}
	fmt.Fprintf(out, "\nResults: %s (scaling.csv, scaling_fit.csv, figures/scaling.png, one directory per point)\n", o.out)
	return nil
}

func executeSweep(cmd *cobra.Command, s experiment.Spec, o overrides) error {
	out := cmd.OutOrStdout()
	var params []string
	for _, p := range s.Sweep {
		params = append(params, fmt.Sprintf("%s (%d values)", p.Param, len(p.Values)))
	}
	fmt.Fprintf(out, "temple %s: sweep %s over %s, seed %d, %d runs\n", results.Version, s.Name, strings.Join(params, " × "), s.Seed, s.Runs)
	prog := newProgress(cmd.ErrOrStderr(), s)
	points, err := study.ExecuteSweep(cmd.Context(), s, o.out, o.jobs, prog)
	prog.done()
	if err != nil {
		return interrupted(cmd, err, results.At(o.out))
	}
	fmt.Fprintf(out, "\nMean per-task reward (95%% CI across %d runs):\n", s.Runs)
	labels := make([]string, len(points))
	labelWidth, agentWidth := 0, 0 // columns as wide as the longest label and agent name
	for i, p := range points {
		var at []string
		for k, v := range p.Values {
			at = append(at, s.Sweep[k].Param+" = "+v)
		}
		labels[i] = strings.Join(at, ", ")
		labelWidth = max(labelWidth, len(labels[i]))
		agentWidth = max(agentWidth, len(p.Agent))
	}
	for i, p := range points {
		fmt.Fprintf(out, "  %-*s  %-*s %10.2f ± %.2f\n", labelWidth, labels[i], agentWidth, p.Agent, p.MeanPerTaskReward, p.CI95)
	}
	fmt.Fprintf(out, "\nResults: %s (sweep.csv, one directory per point)\n", o.out)
	if fig := results.At(o.out).Path(results.FiguresDir + "/sweep.png"); fileExists(fig) {
		fmt.Fprintf(out, "Figure: %s\n", fig)
	}
	return nil
}

// publishedNames are the --tasks values of the published task sequences.
func publishedNames() []string {
	var out []string
	for _, n := range published.Names() {
		out = append(out, published.Prefix+n)
	}
	return out
}

// hundredths is x as printed with two decimals, without the sign of a difference that rounds to
// zero: a regret of −1e-15 (the optimum and the reward summed in another order) shows as 0.00,
// not −0.00.
func hundredths(x float64) float64 {
	if math.Abs(x) < 0.005 {
		return 0
	}
	return x
}
