// Package results owns the results directory of an experiment: the records and the summary it
// stores, the files that hold them, how they are written and read back, the paired comparison of
// its agents, its figures and its report.html.
//
// It also owns what belongs to the directory rather than to the run: the claim and lock that keep
// two experiments out of one directory (Claim, Discard), the top-level files of sweeps and
// scaling studies (WriteSweep, Scaling, WriteScaling), and Merge, which joins the directories of
// shards.
//
// It may import the learner interface (agent, for a record's metrics and phases), template (for
// the learned templates' snapshots), the statistics and figures (report) and its atomic writer
// (internal/atomicfile). It must not import experiment or anything that runs experiments: what a
// writer needs of the spec comes as plain data (Setup, SweepSetup, ScalingSetup; the encoded task
// sequences), stored beside the results, so that the readers — temple compare, temple report and
// temple merge — do not carry the runner.
//
// # Format
//
// FormatVersion names the layout below; change it, and say so here, when a file changes in a way
// an older reader would misread. The same spec and seed give the same bytes in every file but
// timings.json and report.html (the meaning of every column is in the README's "Results
// directory"). Every file of the directory is written by this package; a name in parentheses is
// its writer:
//
//	.temple.lock    the lock of the process running in the directory, gone when it ends (Claim, LockFile)
//	spec.yaml       the resolved spec, as the runner marshals it (Setup.SpecYAML); written first (Claim)
//	setup.json      Setup but SpecYAML: what Write needs of the spec, written before any cell (WriteSetup)
//	tasks.json      every run's task sequence, as the task package encodes it (env.EncodeSequences),
//	                before any cell (WriteTasks)
//	cells/<CellName>.json       a CellResult, written when the cell ends (WriteCell; read by ReadCell,
//	                            which resumes an interrupted experiment)
//	episodes/<CellName>.csv     task,e1,…,eE: a line per task, every episode's return (CreateEpisodes;
//	                            with output.episodes)
//	templates/<CellName>.jsonl  a TaskSnapshot a line, after every task (CreateTemplates; with
//	                            output.templates, for agents with templates; read by ReadSnapshots)
//	per_task.csv    run,agent,task,reward,steps,states,actions,start — a row per task of a cell (Write)
//	metrics.csv     run,agent,task,metric,value — every agent.Metric of every task (Write)
//	oracle.csv      run,task,start,optimal_reward,optimal_discounted_start_value (Write, with the oracle)
//	regret.csv      run,agent,task,reward,optimal_reward,regret,share_of_optimal,eps_mistakes,
//	                regret_<phase> for every agent.Phase, [policy_mistakes] (Write, with the oracle)
//	summary.json    Summary: name, tool_version, seed, runs, spec (Setup.Spec), agents, optimal, note (Write)
//	timings.json    cell_seconds (per cell name) and total_cell_seconds of this invocation (Write)
//	figures/        the figures as PNG and SVG (report.Figure; Write)
//	report.html     the page built from the files above (WriteReport, by Write and temple report)
//	compare.csv     the paired comparisons of temple compare (WriteComparisons)
//
// cells/, episodes/ and templates/ (CellKinds; MakeCellDirs makes them) hold a file per
// (run, agent) cell, named by CellName; Merge gathers them from the directories of shards.
// spec.yaml, setup.json, tasks.json and the cells are written atomically (a temporary file
// renamed), so an interrupted experiment never leaves a partial one; episodes/ and templates/
// are streamed as the cell's tasks end and written again when the cell runs again.
//
// A sweep's or scaling study's directory holds one such directory per point and, at its top,
// spec.yaml, and sweep.json (SweepSetup), sweep.csv (SweepPoint rows: the swept values, agent,
// mean_per_task_reward, ci95), figures/sweep and report.html; or scaling.json (ScalingSetup),
// scaling.csv (ScalingRow), scaling_fit.csv (ScalingFit) and figures/scaling.
//
// setup.json, sweep.json and scaling.json came with no change to the other files: a reader of
// version 1 that does not know them reads the rest as before, so the version stays 1; Merge needs
// them and says so when a directory lacks them. Numbers are written by Num (the shortest decimal
// that reads back exactly), text fields by CSVField.
package results

// FormatVersion is the version of the results directory's layout described above.
const FormatVersion = 1
