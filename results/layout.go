package results

// The results directory, described once: the name of every file and directory temple writes
// there is spelled in this file alone, and Layout says of each who writes it, whether
// checksums.json holds its checksum, how temple merge makes it from shards, whether temple run
// --force removes it, and what it holds; TuningLayout says the same of a tuning's directory
// (temple tune). docs/reference/results-format.md's tables of files and the Python loader's
// names (python/temple/results.py) are generated from them (go generate ./cli/describe), and
// tests fail while either is stale.

// The files and directories of a results directory.
const (
	LockFile       = ".temple.lock"
	SpecFile       = "spec.yaml"
	TasksFile      = "tasks.json"
	PerTaskFile    = "per_task.csv"
	MetricsFile    = "metrics.csv"
	OracleFile     = "oracle.csv"
	RegretFile     = "regret.csv"
	SummaryFile    = "summary.json"
	TimingsFile    = "timings.json"
	ReportFile     = "report.html"
	SweepFile      = "sweep.csv"
	FiguresDir     = "figures"
	CellsDir       = "cells"
	EpisodesDir    = "episodes"
	TemplatesDir   = "templates"
	ScalingFile    = "scaling.csv"
	ScalingFitFile = "scaling_fit.csv"
	ChecksumsFile  = "checksums.json"
	CompareFile    = "compare.csv"

	// The files of a tuning's directory (temple tune, TuningLayout).
	SearchFile = "search.json"
	TunedFile  = "tuned.yaml"
	TrialsDir  = "trials"

	// The files that describe an experiment's layout to a reader that has no runner (Merge):
	// every experiment directory holds setup.json, the top of a sweep sweep.json, the top of a
	// scaling study scaling.json.
	setupFile   = "setup.json"
	sweepFile   = "sweep.json"
	scalingFile = "scaling.json"
)

// MergeRule is how temple merge makes a file of the merged directory from the shards'.
type MergeRule int

const (
	// NotMerged: merge does not write it.
	NotMerged MergeRule = iota
	// SameInEveryShard: the shards' must be the same (merge refuses them otherwise); written once.
	SameInEveryShard
	// Gathered: each cell's file is taken from the shard that ran it.
	Gathered
	// Rebuilt: written again from the gathered cells, the bytes of an unsharded run's.
	Rebuilt
)

// String is the rule in the words of the results format's table.
func (r MergeRule) String() string {
	return [...]string{"not merged", "the same in every shard", "gathered from the shards", "rebuilt from the cells"}[r]
}

// File is one file or directory of a results directory.
type File struct {
	Name string
	Dir  bool // a directory of files (figures/, cells/, …)
	// Writer is the function that writes it: of this package, or of the package it names.
	Writer string
	// Checksummed: checksums.json holds its SHA-256 (of each of its files, for a directory).
	// timings.json and report.html are listed there without one: they differ between identical
	// runs.
	Checksummed bool
	Merge       MergeRule
	// Forced: temple run --force removes it (Discard: what checksums.json lists, and the record).
	Forced bool
	// Content is what it holds, for docs/reference/results-format.md (Markdown, one line).
	Content string
}

// Layout is every file and directory temple writes into a results directory, in the order the
// results format lists them.
var Layout = []File{
	{Name: SpecFile, Writer: "Claim", Checksummed: true, Merge: SameInEveryShard, Forced: true,
		Content: "the fully resolved spec (it reads back as a config); under `inputs:`, the SHA-256 of every file its tasks read (a custom MDP file, a task-sequence file, a published sequence), by path"},
	{Name: TasksFile, Writer: "WriteTasks", Checksummed: true, Merge: SameInEveryShard, Forced: true,
		Content: "every run's task sequence (including goals drawn from the seed); readable with `--tasks`"},
	{Name: PerTaskFile, Writer: "Write", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "`run,agent,task,reward,steps,states,actions,start`: reward is the total reward of all episodes of the task, steps the environment steps taken (fewer than episodes × steps when episodes end at terminal states)"},
	{Name: MetricsFile, Writer: "Write", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "`run,agent,task,metric,value`: per-task diagnostics (see below)"},
	{Name: OracleFile, Writer: "Write", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "`run,task,start,optimal_reward,optimal_discounted_start_value`: the optimum of every task (see below)"},
	{Name: RegretFile, Writer: "Write", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "`run,agent,task,reward,optimal_reward,regret,share_of_optimal,eps_mistakes,regret_unclassified,regret_exploring,regret_misidentified,regret_known_model`, and with `oracle.policy_mistakes` a last column `policy_mistakes`"},
	{Name: SummaryFile, Writer: "Write", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "name, seed, tool version, resolved spec, each agent's mean per-task reward with its 95% CI across runs; with the oracle, `optimal` (mean per-task optimal reward and mean V*(s₀), each with its CI) and per agent `oracle`: `share_of_optimal`, `mean_regret`, `mean_eps_mistakes`, `regret_by_phase` and with `oracle.policy_mistakes` `mean_policy_mistakes`, each a mean over runs with its 95% CI; for a config `temple tune` wrote, `tuning`: the tuning seed, `design_seeds`, `objective`, `settings`, `draws` when shared and the `runs` of each stage, and per agent the keys `searched`, its `settings`, `trial_runs` and design `score` ([tuning](../guides/tuning.md))"},
	{Name: TimingsFile, Writer: "Write", Checksummed: false, Merge: Rebuilt, Forced: true,
		Content: "wall time of every cell, as measured by the invocation that ran it (a cell reused from an earlier run keeps that run's time; `reused_cells` counts them), and their total; with `report.html`, the only file that varies between identical runs"},
	{Name: ReportFile, Writer: "WriteReport", Checksummed: false, Merge: Rebuilt, Forced: true,
		Content: "one self-contained page: the summary with 95% CIs, every paired verdict `temple run` prints (every pair of up to 4 agents, otherwise every agent against the baseline), every figure inline (SVG), each agent's diagnostics (a row per metric), timings and the resolved spec; `temple report DIR` rebuilds it; at the top of a sweep, the sweep's page"},
	{Name: SweepFile, Writer: "WriteSweep", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "at the top of a sweep: each agent's mean per-task reward with its 95% CI at every point (a directory per point below)"},
	{Name: FiguresDir, Dir: true, Writer: "Write", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "`cumulative_reward` (over the episodes of a task, mean over tasks) and `episode_reward` (reward per episode, in blocks of episodes); with more than one task per run `per_task_reward` (with the optimal per-task reward as a dashed grey line), `advantage_over_<baseline>`, `eps_mistakes` (ε-mistakes per task) and `regret_by_phase_<agent>` (an agent's regret per task and its parts, for agents that report phases); PNG (200 dpi) and SVG, means over runs with 95% CI bands; `sweep` and `scaling` at the top of a sweep or a scaling study"},
	{Name: CellsDir, Dir: true, Writer: "WriteCell", Checksummed: true, Merge: Gathered, Forced: true,
		Content: "one JSON file per (run, agent) cell, for resuming"},
	{Name: EpisodesDir, Dir: true, Writer: "CreateEpisodes", Checksummed: true, Merge: Gathered, Forced: true,
		Content: "with `output.episodes: true`, every episode's return, a line per task"},
	{Name: TemplatesDir, Dir: true, Writer: "CreateTemplates", Checksummed: true, Merge: Gathered, Forced: true,
		Content: "with `output.templates: true`, for O-TempLe and FM-TempLe: after every task, each pair's template and the library (JSON lines)"},
	{Name: setupFile, Writer: "WriteSetup", Checksummed: true, Merge: SameInEveryShard, Forced: true,
		Content: "what the writer of the files above needs of the spec (agents, runs, episodes, baseline, oracle settings, the spec as JSON), written before any cell so that `temple merge` can write a shard's results without the runner"},
	{Name: sweepFile, Writer: "WriteSweepSetup", Checksummed: true, Merge: SameInEveryShard, Forced: true,
		Content: "at the top of a sweep: its name, runs, swept parameters, agents and points, each with its directory"},
	{Name: ScalingFile, Writer: "WriteScaling", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "at the top of a scaling study: for every point (its series, size, S, S·A and G) and agent, the means over runs with their 95% CIs of the exploring samples, the exploring steps, the ε-mistakes and the samples until all pairs are known ([Theorem 1's law](../experiments/scaling.md))"},
	{Name: ScalingFitFile, Writer: "WriteScaling", Checksummed: true, Merge: Rebuilt, Forced: true,
		Content: "`agent,slope,slope_ci95,per_pair,per_pair_ci95,per_template,per_template_ci95`: the fitted law of each agent"},
	{Name: scalingFile, Writer: "WriteScalingSetup", Checksummed: true, Merge: SameInEveryShard, Forced: true,
		Content: "at the top of a scaling study: its name, runs, agents (and those that learn templates) and points, each with its directory and tasks"},
	{Name: ChecksumsFile, Writer: "record", Checksummed: false, Merge: Rebuilt, Forced: true,
		Content: "the record of what temple wrote into the directory: `files`, the SHA-256 of every file below that temple wrote (all in this table, `cells/` and `compare.csv` included), and `sizes`, their sizes, recorded as each is written; `unchecked`, the two files listed without a checksum because they differ between identical runs (`timings.json`, `report.html`); `parts`, the subdirectories that hold parts of the experiment with their own record (a sweep's points, a tuning's trials); `tool_version` and `format_version` of the temple that wrote it, and `other_versions`, those whose results it resumed with `--allow-other-version`"},
	{Name: CompareFile, Writer: "WriteComparisons", Checksummed: true, Merge: NotMerged, Forced: true,
		Content: "written by `temple compare` (and `temple.results.load`): `a,b,runs,mean_difference,ci95,t,p,p_holm,effect_size_dz,wins,verdict,margin,p_tost,p_tost_holm,mde`, one line per comparison"},
	{Name: LockFile, Writer: "Claim", Checksummed: false, Merge: NotMerged, Forced: false,
		Content: "the lock of the process running in the directory (its process id), gone when it ends; a second run into the directory is refused while it is held"},
}

// TuningLayout is every file and directory temple tune (package tune) writes into a tuning's
// directory, which it claims as temple run claims an experiment's (Claim) and whose record lists
// what it wrote, so that a search resumes, --force removes its files alone, and a directory of
// another search is refused. Merge is not its (temple tune --merge gathers trials itself).
var TuningLayout = []File{
	{Name: SpecFile, Writer: "Claim", Checksummed: true, Forced: true,
		Content: "the config, named `NAME (tuning)`, and under `tune:` the search's options (`seed`, `budget`, `runs`, `objective`): another config or other options are refused, naming the keys that differ"},
	{Name: TunedFile, Writer: "tune.Tune", Checksummed: true, Forced: true,
		Content: "the tuned config, a config for `temple run`: each agent's chosen setting, a judging `seed:` and a `tuning:` block that records how the agents were tuned; its relative paths are read from this directory ([tuning](../guides/tuning.md))"},
	{Name: SearchFile, Writer: "tune.Tune", Checksummed: true, Forced: true,
		Content: "the record of the search: the budget (settings, `draws` when shared, stages, trial runs) and per agent its search space, the parameters it fixed, every setting tried (its parameters, its objective on each of its runs of the design seed, their mean, the last stage it reached) and the one chosen"},
	{Name: TrialsDir, Dir: true, Writer: "experiment.Run", Checksummed: true, Forced: true,
		Content: "a directory per agent (its name as a file name) holding its trials: `cells/`, a cell of the runner per setting (`setting-NNN`) and run of the design seed, with its own `checksums.json`; the record's `parts` list them"},
	{Name: ChecksumsFile, Writer: "record", Checksummed: false, Forced: true,
		Content: "the record of what temple wrote into the directory, as in an experiment's"},
	{Name: LockFile, Writer: "Claim", Checksummed: false, Forced: false,
		Content: "the lock of the process running in the directory, as in an experiment's"},
}

// names are the names of the entries of Layout that keep.
func names(keep func(File) bool) []string {
	var out []string
	for _, f := range Layout {
		if keep(f) {
			out = append(out, f.Name)
		}
	}
	return out
}

// templeFiles are the names temple writes at the top of a directory and records: a file of one of
// these names that checksums.json does not list is not temple's.
var templeFiles = names(func(f File) bool { return f.Name != LockFile })

// uncheckedFiles are the files whose content differs between identical runs: the cells' times
// and the page that shows them. They are listed in checksums.json without a checksum.
var uncheckedFiles = names(func(f File) bool { return !f.Checksummed && f.Name != ChecksumsFile && f.Name != LockFile })

// CellKinds are the directories of an experiment directory that hold a file per cell: cells/
// (WriteCell), episodes/ (CreateEpisodes) and templates/ (CreateTemplates). Merge gathers them.
var CellKinds = names(func(f File) bool { return f.Merge == Gathered })
