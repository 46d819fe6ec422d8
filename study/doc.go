// Package study runs the experiments of a spec with several points — a sweep: block, a scaling:
// block (Theorem 1's law) — and a shard's share of any spec's cells: each point through package
// experiment (experiment.Points, experiment.RunPoint, experiment.RunShardPoint) into its own
// directory, then the layout and summary files of the whole (sweep.csv, scaling.csv and their
// figures), which package results writes.
//
//	sweep.go    ExecuteSweep, and the true template and model gaps the sweep figure marks
//	scaling.go  ExecuteScaling, and each point's sizes and true templates (scaling.json)
//	shard.go    ExecuteShard: a shard's cells of every point; results.Merge joins the shards
//
// It may import experiment, results, cluster and the tasks' packages (mdp, template); nothing
// below the commands imports it. (internal/importrules checks these rules.)
package study
