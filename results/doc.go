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
// It may import the learner seam (agent, for a record's metrics and phases; no learner), the
// oracle's record of a task (oracle.Record: the oracle imports the seam and the model alone),
// template (for the learned templates' snapshots), the statistics (stats), the figures (plots), its atomic writer
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
// Every file of the directory is written by this package. Layout (layout.go) lists them, each
// with its name (spelled there alone), its writer, whether checksums.json holds its checksum, how
// Merge makes it and whether Discard removes it; docs/reference/results-format.md's table of files
// is generated from it (and its table of a tuning's directory from TuningLayout, the files temple
// tune writes). Every reader and writer takes the directory as a Dir (dir.go), which
// computes each file's path from its name: Claim returns one for the experiment it takes the
// directory for, Open one to read, At one as it is. The formats: spec.yaml is the resolved spec
// as the runner marshals it (Setup.SpecYAML); setup.json is Setup but SpecYAML; tasks.json the
// task sequences as env.EncodeSequences encodes them; a cell's file a CellResult with its checksum
// (EncodeCell, ReadCell); templates/ a TaskSnapshot a line (ReadSnapshots); summary.json a Summary
// (ReadSummary); checksums.json the record (record, Verify).
//
// cells/, episodes/ and templates/ (CellKinds; MakeCellDirs makes them) hold a file per
// (run, agent) cell, named by CellName (Dir.Cell); Merge gathers them from the directories of
// shards.
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
