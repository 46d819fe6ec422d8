// Package cluster says which share of an experiment's cells one machine of a cluster runs: a
// Shard, given as i/n (temple run --shard) or read from a Slurm array job's or a Kubernetes
// Indexed Job's environment. The runner (study.ExecuteShard) runs the shard's cells and
// temple merge (results.Merge) joins the shards' directories.
//
// It imports nothing of the module. (internal/importrules checks this rule.)
package cluster
