// Package tune is temple tune: it searches the parameters of every agent of a config with the
// same budget on design seeds, and writes a tuned config whose verdict is judged on other seeds
// (docs/guides/tuning.md). A search is a plan of the runner's cells (package experiment): every
// trial — one setting of one agent on one run of the design seed — is a cell of a results
// directory, written atomically with its checksum and read back when the search runs again, so
// an interrupted search resumes to the same bytes, at any number of workers.
//
// It is a package of its own, beside experiment rather than inside it, because it only uses the
// runner (Build, Run) and adds none of the runner's rules; it may import experiment, the agent
// registry (agenttypes, whose search spaces it reads), results, the shards (cluster) and internal
// packages, and nothing imports it but the command line (internal/importrules checks this).
//
// The files follow the search:
//
//	space.go   an agent's search space: the registry's (agenttypes.SearchSpace) narrowed or
//	           fixed by the config's search: block; settings from points in [0, 1)^d
//	halton.go  the scrambled Halton sequence the settings are drawn from
//	search.go  the schedule of successive halving, the seeds, one agent's search and its scores
//	tune.go    Tune (every agent, then the record and the tuned config), Load, the progress line
package tune
