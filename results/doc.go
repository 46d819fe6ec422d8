// Package results owns the results directory of an experiment: the records and the summary it
// stores, the files that hold them, how they are written and read back, the paired comparison of
// its agents, its figures and its report.html (with the statistics of package stats and the
// figures of package plots).
//
// It also owns what belongs to the directory rather than to the run: the claim and lock that keep
// two experiments out of one directory (Claim, Discard), the top-level files of sweeps and
// scaling studies (WriteSweep, Scaling, WriteScaling), and Merge, which joins the directories of
// shards.
//
// It may import the learner seam (agent, for a record's metrics and phases; no learner), template
// (for the learned templates' snapshots), the statistics (stats), the figures (plots), its atomic writer
// (internal/atomicfile) and its reader of regular files (internal/regular). It must not import experiment or anything that runs experiments: what a
// writer needs of the spec comes as plain data (Setup, SweepSetup, ScalingSetup; the encoded task
// sequences), stored beside the results, so that the readers — temple compare, temple report and
// temple merge — do not carry the runner.
//
// # Format
//
// FormatVersion names the layout below; change it, and say so here, when a file changes in a way
// an older reader would misread. The same spec and seed give the same bytes in every file but
// timings.json and report.html (the meaning of every column is in docs/reference/results-format.md).
// Every file of the directory is written by this package; a name in parentheses is
// its writer:
//
//	.temple.lock    the lock of the process running in the directory, gone when it ends (Claim, LockFile)
//	spec.yaml       the resolved spec, as the runner marshals it (Setup.SpecYAML); written first (Claim)
//	setup.json      Setup but SpecYAML: format_version and what Write needs of the spec, written before
//	                any cell (WriteSetup; read by ReadSetup)
//	tasks.json      every run's task sequence, as the task package encodes it (env.EncodeSequences),
//	                before any cell (WriteTasks)
//	cells/<CellName>.json       a CellResult with its checksum, written when the cell ends (WriteCell,
//	                            EncodeCell; read and checked by ReadCell, which resumes an
//	                            interrupted experiment)
//	episodes/<CellName>.csv     task,e1,…,eE: a line per task, every episode's return (CreateEpisodes;
//	                            with output.episodes)
//	templates/<CellName>.jsonl  a TaskSnapshot a line, after every task (CreateTemplates; with
//	                            output.templates, for agents with templates; read by ReadSnapshots)
//	per_task.csv    run,agent,task,reward,steps,states,actions,start — a row per task of a cell (Write)
//	metrics.csv     run,agent,task,metric,value — every agent.Metric of every task (Write; ReadMetrics)
//	oracle.csv      run,task,start,optimal_reward,optimal_discounted_start_value (Write, with the oracle)
//	regret.csv      run,agent,task,reward,optimal_reward,regret,share_of_optimal,eps_mistakes,
//	                regret_<phase> for every agent.Phase, [policy_mistakes] (Write, with the oracle)
//	summary.json    Summary: name, tool_version, format_version, seed, runs, spec (the resolved spec in
//	                the config's names, SpecJSON), agents, optimal, note (Write; read by ReadSummary)
//	timings.json    cell_seconds (per cell name, as timed by the invocation that ran it), total_cell_seconds and reused_cells (Write)
//	figures/        the figures as PNG and SVG (plots.Figure; Write)
//	report.html     the page built from the files above (WriteReport, by Write and temple report)
//	checksums.json  the record of what temple wrote: files and sizes, the SHA-256 and size of every
//	                file above (and of compare.csv), by path below the directory, but timings.json and
//	                report.html, listed under unchecked (they differ between identical runs); parts,
//	                the subdirectories that hold parts of the experiment with their own record; the
//	                tool and format version that wrote it and other_versions (record, as each file is
//	                written; checked by Verify and by every reader, which refuses a file changed,
//	                missing, or of temple's names and not listed; Discard removes what it lists)
//	compare.csv     the paired comparisons of temple compare (WriteComparisons)
//
// cells/, episodes/ and templates/ (CellKinds; MakeCellDirs makes them) hold a file per
// (run, agent) cell, named by CellName; Merge gathers them from the directories of shards.
// Every file but episodes/ and templates/ is written atomically (a temporary file renamed, which
// the next Claim removes if its process was killed), so an interrupted experiment, or a full
// disk, never leaves a partial one; episodes/ and templates/ are streamed as the cell's tasks
// end and written again when the cell runs again. Every reader checks what it reads and refuses
// a damaged file with a DamagedError that names it and what is wrong.
//
// A sweep's or scaling study's directory holds one such directory per point and, at its top,
// spec.yaml, and sweep.json (SweepSetup), sweep.csv (SweepPoint rows: the swept values, agent,
// mean_per_task_reward, ci95), figures/sweep and report.html; or scaling.json (ScalingSetup),
// scaling.csv (ScalingRow), scaling_fit.csv (ScalingFit) and figures/scaling.
//
// setup.json, sweep.json and scaling.json came with no change to the other files: a reader of
// version 1 that does not know them reads the rest as before; Merge needs them and says so when
// a directory lacks them. Numbers are written by Num (the shortest decimal that reads back
// exactly), text fields by CSVField.
//
// Version 4: checksums.json is the record of every file temple writes (cells, spec.yaml,
// compare.csv, and timings.json and report.html without a checksum), with sizes, the parts, and
// the temple version and format, so that --force removes only what it lists, a claim refuses
// files it does not list and other versions' results (ClaimOptions), and the readers refuse an
// unlisted file; summary.json and setup.json record other_versions. Directories of version 3 and
// older are refused by the readers, and resumed only with --allow-other-version.
//
// Version 3: checksums.json; spec.yaml records under inputs: the SHA-256 of every file the tasks
// read (the runner's), so that such a file changed makes another spec. Directories of versions 1
// and 2 have no checksums.json: the readers refuse them with the command that writes them again.
//
// Version 2: summary.json's spec is in the config's names (name, agents with type and m_s, as
// spec.yaml) instead of the runner's Go names (Name, Agents); summary.json and setup.json record
// format_version; cells carry a checksum. Readers refuse a newer version with a message;
// summary.json of version 1 (no format_version) is read as before, setup.json of version 1 is
// refused with the command that writes the directory again (its merge would not give the bytes
// of an unsharded run), and a cell without a checksum is run again on resume.
package results

// FormatVersion is the version of the results directory's layout described above.
const FormatVersion = 4
