package cli

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/temple-rl/temple/dynamics/deep"
	"github.com/temple-rl/temple/results"
)

// deepDefault is the study temple deep and temple reproduce deep run without flags (a variable
// so that the command's tests can run a small one).
var deepDefault = func() deep.Spec { return deep.Default(deep.Available()) }

// deepCmd runs the deep extension of the paper (Appendix F.6): dynamics-model loss against
// training transitions for Absolute, Relative and Relative + augment.
func deepCmd() *cobra.Command {
	s := deepDefault()
	var out, envs string
	cmd := &cobra.Command{
		Use:   "deep",
		Short: "Learn continuous dynamics models: absolute, relative, relative + augment (paper Appendix F.6)",
		Long: "deep compares the dynamics models of the paper's deep extension (Appendix F.6) on the\n" +
			"continuous environments built into this binary (CartPole-v1 always; LunarLander-v3 with the\n" +
			"build tag box2d, Hopper-v5 with mujoco). For every seed it collects transitions under the\n" +
			"uniformly random policy, trains a 2x64 tanh MLP with Adam on the first n of them for every\n" +
			"size n and method, and scores it by the held-out MSE of the next state, each dimension divided\n" +
			"by its standard deviation on the training set. It writes deep.csv, deep_summary.json,\n" +
			"table.md (final losses beside the paper's) and figures/deep_<env>.png/.svg.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if envs != "" {
				var chosen []deep.Env
				for _, name := range strings.Split(envs, ",") {
					found := false
					for _, e := range deep.Available() {
						if strings.EqualFold(e.Name, strings.TrimSpace(name)) {
							chosen, found = append(chosen, e), true
						}
					}
					if !found {
						return fmt.Errorf("--envs: %q is not built into this binary (available: %s)", name, envNames())
					}
				}
				s.Envs = chosen
			}
			if err := s.Validate(); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "temple deep: %s, seed %d, %d seeds, sizes %v, %d test transitions, %d Adam steps of %d\n",
				envNames(s.Envs...), s.Seed, s.Seeds, s.Sizes, s.Test, s.Config.Steps, s.Config.Batch)
			start, lastDecile := time.Now(), 0
			recs, err := deep.Run(cmd.Context(), s, func(done, total int) {
				if decile := 10 * done / total; decile != lastDecile {
					lastDecile = decile
					fmt.Fprintf(w, "progress: %d/%d models (%s)\n", done, total, time.Since(start).Round(time.Second))
				}
			})
			if err != nil {
				return err
			}
			sum, err := deep.Summarise(s, recs)
			if err != nil {
				return err
			}
			sum.Version, sum.WallSeconds = results.Version, time.Since(start).Seconds()
			if err := deep.Write(out, s, recs, sum); err != nil {
				return err
			}
			fmt.Fprintln(w)
			if err := deep.WriteTable(w, sum); err != nil {
				return err
			}
			fmt.Fprintf(w, "\nResults: %s (deep.csv, deep_summary.json, table.md)\nFigures: %s\n", out, filepath.Join(out, "figures"))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", filepath.Join(runsDir, "deep"), "results directory")
	f.StringVar(&envs, "envs", "", "comma-separated environments (default: all built in: "+envNames()+")")
	f.Uint64Var(&s.Seed, "seed", s.Seed, "seed of every random stream")
	f.IntVar(&s.Seeds, "seeds", s.Seeds, "independent runs (seeds) per environment")
	f.IntSliceVar(&s.Sizes, "sizes", s.Sizes, "training-set sizes (transitions), increasing")
	f.IntVar(&s.Test, "test", s.Test, "held-out transitions per run")
	f.IntVar(&s.Config.Steps, "steps", s.Config.Steps, "Adam steps per model")
	f.IntVar(&s.Config.Batch, "batch", s.Config.Batch, "minibatch size")
	f.Float64Var(&s.Config.LR, "lr", s.Config.LR, "Adam step size")
	f.IntSliceVar(&s.Config.Hidden, "hidden", s.Config.Hidden, "hidden layer widths")
	f.Float64SliceVar(&s.Lambdas, "lambdas", s.Lambdas, "weights λ of MSE(Δ̂, Δ̄) for relative+augment, one series each")
	f.IntVar(&s.Config.KMax, "kmax", s.Config.KMax, "largest number of mixture components tried (BIC)")
	f.IntVar(&s.Jobs, "jobs", 0, "parallel workers (default: one per core)")
	return cmd
}

// reproduceDeep is temple reproduce deep: temple deep with its defaults, taking the flags every
// preset takes: --seed, --runs (the number of seeds), --jobs and --out. --shard and --tasks, which
// concern the cells and task sequences of the tabular experiments, are refused.
func reproduceDeep(cmd *cobra.Command, o overrides) error {
	f := cmd.Flags()
	for _, name := range []string{"shard", "tasks"} {
		if f.Changed(name) {
			return fmt.Errorf("reproduce deep: --%s = %q does not apply to the deep study (it has no tabular tasks or cells); it takes --seed, --runs, --jobs and --out, and temple deep takes more", name, f.Lookup(name).Value)
		}
	}
	deep := deepCmd()
	df := deep.Flags()
	if f.Changed("runs") {
		if o.runs < 2 {
			return fmt.Errorf("--runs = %d, want at least 2 (the deep study's seeds; a confidence interval needs two)", o.runs)
		}
		df.Set("seeds", strconv.Itoa(o.runs))
	}
	if f.Changed("jobs") {
		if o.jobs < 1 {
			return fmt.Errorf("--jobs = %d, want at least 1", o.jobs)
		}
		df.Set("jobs", strconv.Itoa(o.jobs))
	}
	if f.Changed("seed") {
		df.Set("seed", strconv.FormatUint(o.seed, 10))
	}
	if o.out != "" {
		df.Set("out", o.out)
	}
	deep.SetOut(cmd.OutOrStdout())
	deep.SetContext(cmd.Context())
	return deep.RunE(deep, nil)
}

func envNames(envs ...deep.Env) string {
	if len(envs) == 0 {
		envs = deep.Available()
	}
	var names []string
	for _, e := range envs {
		names = append(names, e.Name)
	}
	return strings.Join(names, ", ")
}
