// Package results owns the results directory of an experiment: the records and the summary it
// stores, the files that hold them, how they are written and read back, the paired comparison of
// its agents, its figures and its report.html.
//
// It may import the learner interface (agent, for a record's metrics and phases), template (for
// the learned templates' snapshots) and the statistics and figures (report). It must not import
// experiment or anything that runs experiments: what a writer needs of the spec comes as plain
// data (Setup), so that the readers — temple compare and temple report — do not carry the runner.
//
// # Format
//
// FormatVersion names the layout below; change it, and say so here, when a file changes in a way
// an older reader would misread. The same spec and seed give the same bytes in every file but
// timings.json and report.html. Written by Write (the meaning of every column is in the README's
// "Results directory"):
//
//	spec.yaml       the resolved spec, as the runner marshals it (Setup.SpecYAML)
//	per_task.csv    run,agent,task,reward,steps,states,actions,start — a row per task of a cell
//	metrics.csv     run,agent,task,metric,value — every agent.Metric of every task
//	oracle.csv      run,task,start,optimal_reward,optimal_discounted_start_value (with the oracle)
//	regret.csv      run,agent,task,reward,optimal_reward,regret,share_of_optimal,eps_mistakes,
//	                regret_<phase> for every agent.Phase, [policy_mistakes] (with the oracle)
//	summary.json    Summary: name, tool_version, seed, runs, spec (Setup.Spec), agents, optimal, note
//	timings.json    cell_seconds (per cell name) and total_cell_seconds of this invocation
//	figures/        the figures as PNG and SVG (report.Figure)
//	report.html     the page WriteReport builds from the files above
//
// Written elsewhere into the same directory: compare.csv (WriteComparisons, by temple compare);
// by the runner (package experiment) tasks.json (env.WriteSequences), cells/<CellName>.json (a
// CellResult each), templates/<CellName>.jsonl (a TaskSnapshot a line, read by ReadSnapshots),
// episodes/ and the lock file. Numbers are written by Num (the
// shortest decimal that reads back exactly), text fields by CSVField.
package results

// FormatVersion is the version of the results directory's layout described above.
const FormatVersion = 1
