package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/tune"
)

func tuneCmd() *cobra.Command {
	var out, objective, shard, draws string
	var seed uint64
	var budget, runs, jobs int
	var force, merge, otherVersion bool
	var from []string
	cmd := &cobra.Command{
		Use:   "tune CONFIG.yaml",
		Short: "Tune every agent of a config with the same budget on design seeds; write a tuned config",
		Long: "tune searches the parameters of every agent of a config (a template learner's with its base's) with\n" +
			"the same budget: --budget settings each, quasi-random over its search space (temple describe; the\n" +
			"config's search: block narrows or fixes it), run on a design seed derived from --seed by successive\n" +
			"halving (--runs runs each, then the better half on twice as many, until two are left). It writes\n" +
			"DIR/tuned.yaml, a config for temple run on a seed never used to tune, and DIR/search.json, every\n" +
			"setting tried with its score. Interrupted, it resumes from its finished trials (docs/guides/tuning.md).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := tune.Load(args[0])
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("seed") {
				seed = s.Seed
			}
			if err := tune.Draws(draws).Check(); err != nil {
				return fmt.Errorf("--%w", err)
			}
			if cmd.Flags().Changed("jobs") && jobs < 1 {
				return fmt.Errorf("--jobs = %d, want at least 1", jobs)
			}
			if out == "" {
				out = filepath.Join(runsDir, s.Name+"-tuning")
			}
			dir := results.At(out)
			if force { // the files the tuning's record lists, its trials' with them
				if err := results.Discard(dir, func(text string) { fmt.Fprintln(cmd.ErrOrStderr(), "temple: --force:", text) }); err != nil {
					return err
				}
			}
			sh, sharded, err := shardOf(overrides{shard: shard})
			if err != nil {
				return err
			}
			if merge && (sharded || len(from) == 0) {
				return fmt.Errorf("--merge gathers the trials of the shards' directories, given with --from, and runs none: give --from and no --shard")
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "temple %s: tuning %s, seed %d: %d agents, %d settings each, %d runs each at the first stage\n",
				results.Version, s.Name, seed, len(s.Agents), budget, runs)
			prog := &tune.Lines{W: cmd.ErrOrStderr(), Interval: 2 * time.Second}
			tuned, rec, err := tune.Tune(cmd.Context(), s, out, tune.Options{Seed: seed, Settings: budget, Runs: runs, Draws: tune.Draws(draws),
				Objective: objective, Jobs: jobs, Progress: prog, Shard: sh, From: from, Merge: merge,
				Dir: experiment.DirOptions{Force: force, OtherVersions: otherVersion}})
			var pending *tune.PendingError
			if errors.As(err, &pending) {
				printPending(w, pending, sh, sharded, dir)
				return nil
			}
			if err != nil {
				return tuneInterrupted(err, dir)
			}
			printTuned(w, tuned, rec, dir)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "tuning directory (default "+runsDir+"/NAME-tuning)")
	f.Uint64Var(&seed, "seed", 0, "tuning seed: the design seed and the settings derive from it (default: the config's seed)")
	f.IntVar(&budget, "budget", 16, "settings every agent tries")
	f.StringVar(&draws, "draws", string(tune.PerAgent), "how the settings are drawn: per-agent (each agent its own quasi-random design) or shared (agents that have a parameter try the same values of it at the same settings: common random numbers, for comparing a learner with one built on it)")
	f.IntVar(&runs, "runs", 2, "runs of every setting at the first stage; each stage doubles them for the better half")
	f.StringVar(&objective, "objective", "", "regret (per task, against the oracle) or reward (per task); default: regret when the config's oracle is on")
	f.IntVar(&jobs, "jobs", 0, "parallel workers (default: one per core); the results do not depend on it")
	f.BoolVar(&force, "force", false, "replace what the --out directory holds (the files its record lists) instead of resuming or refusing")
	f.BoolVar(&otherVersion, "allow-other-version", false, "resume the trials of another temple version, the record naming both versions")
	f.StringVar(&shard, "shard", "", "run only share i of n of each stage's trials, as i/n (default: from a Slurm array job or a Kubernetes Indexed Job); see --merge")
	f.StringArrayVar(&from, "from", nil, "a directory of the same search (a shard's, or the merged one) whose finished trials are gathered first; repeat for several")
	f.BoolVar(&merge, "merge", false, "gather the trials of the --from directories and run none: join the shards of a stage, and write the tuned config once every stage is complete")
	return cmd
}

// printTuned says what each agent's search chose and how to judge the tuned config.
func printTuned(w io.Writer, tuned experiment.Spec, rec *tune.Record, dir results.Dir) {
	fmt.Fprintf(w, "\nChosen settings (objective: mean %s per task on design seed %d, over the chosen setting's runs):\n", rec.Objective, rec.DesignSeed)
	width := 0
	for _, a := range rec.Agents {
		width = max(width, len(a.Name))
	}
	for _, a := range rec.Agents {
		var ps []string
		for _, p := range a.Trials[a.Chosen].Params {
			ps = append(ps, fmt.Sprintf("%s %v", p.Key, p.Value))
		}
		fmt.Fprintf(w, "  %-*s %s %.2f on %d runs  (setting %d of %d: %s)\n", width, a.Name, rec.Objective, a.Score,
			a.Trials[a.Chosen].Runs, a.Chosen, len(a.Trials), strings.Join(ps, ", "))
	}
	fmt.Fprintf(w, "\nBudget: %s.\n", tuned.Tuning.Describe())
	fmt.Fprintf(w, "\nTuned config: %s (judging seed %d)\nRecord:       %s\nJudge it:     temple run %s\n", dir.Path(results.TunedFile),
		tuned.Seed, dir.Path(results.SearchFile), dir.Path(results.TunedFile))
}

// printTuning says, for a tuned config, how its agents were tuned.
func printTuning(w io.Writer, s experiment.Spec) {
	if s.Tuning == nil {
		return
	}
	fmt.Fprintf(w, "\nTuning: %s; judged here on seed %d.\n", s.Tuning.Describe(), s.Seed)
	if s.Tuning.AllowDesignSeeds {
		fmt.Fprintln(w, "  warning: --allow-design-seeds: this seed may have been used to tune; these results are no verdict.")
	}
}

// allowDesignSeeds lets a tuned config run on a seed used in its tuning (--allow-design-seeds).
func allowDesignSeeds(s *experiment.Spec, allow bool) {
	if allow && s.Tuning != nil {
		s.Tuning.AllowDesignSeeds = true
	}
}

// tuneInterrupted says, of an interrupted search, what was kept and how to resume; of a refused
// directory, which flags to change.
func tuneInterrupted(err error, dir results.Dir) error {
	var occupied *experiment.OccupiedError
	switch {
	case errors.As(err, &occupied):
		return fmt.Errorf("%w\n(give --out a fresh directory, or --force to replace it)", err)
	case errors.Is(err, context.Canceled):
		cells, _ := filepath.Glob(dir.Path(results.TrialsDir + "/*/" + results.CellsDir + "/*.json"))
		return fmt.Errorf("interrupted: %d finished trials are saved under %s; run the same command again to resume from them",
			len(cells), dir.Path(results.TrialsDir))
	}
	return err
}

// printPending says what a shard ran, or what a merge gathered, and what comes next.
func printPending(w io.Writer, p *tune.PendingError, sh cluster.Shard, sharded bool, dir results.Dir) {
	what := "The merge"
	if sharded {
		what = fmt.Sprintf("Shard %v", sh)
	}
	fmt.Fprintf(w, "\n%s has gathered or run what it could into %s; the search is not finished:\n", what, dir)
	for _, wt := range p.Waiting {
		fmt.Fprintf(w, "  %s: stage %d/%d waits for %d trials\n", wt.Agent, wt.Stage+1, wt.Stages, wt.Missing)
	}
	if sharded {
		fmt.Fprintln(w, "When every shard has finished: temple tune CONFIG --merge --from SHARD_DIR... --out DIR (docs/guides/tuning.md).")
	} else {
		fmt.Fprintln(w, "Run the shards again with --from "+dir.String()+", then merge again (docs/guides/tuning.md).")
	}
}
