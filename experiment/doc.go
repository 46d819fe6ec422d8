// Package experiment turns an experiment spec (a YAML file or a preset of package presets) into a
// plan, runs its (run × agent) cells in parallel with seeded streams, and hands the cells to
// package results, which writes the results directory. Sweeps, scaling studies and shards are
// package study's, built on it (Points, Claim, RunPoint, RunShardPoint).
//
// It may import the learners and their registry (agent, agents), the tasks and their registry
// (env, continuous, mdp, template, families), the seeded streams (stream), the episode loop
// (episode), the oracle (oracle), the memory estimate (memory), the shards (cluster), report,
// results and internal packages. It must not be imported by them, nor by the commands that only
// read results (temple compare, temple report, temple merge): they need package results alone.
// (internal/importrules checks these rules.)
//
// The data flows spec → plan → run → results, and the files follow it:
//
//	spec   spec.go (Spec, parsing, validation; its tasks: block is a families.Spec), agents.go
//	       (AgentSpec over the agent registry, agenttypes), sweep.go and scaling.go (the sweep:
//	       and scaling: blocks: their validation and Points, the spec of each point)
//	plan   plan.go (Build: task sequences and models — stored, or computed on demand from
//	       OnDemandPairs on — and agent factories, each step checked against package memory's
//	       estimate before anything is built); the seeded random streams are package stream's
//	run    execute.go (Execute: claim, plan, run, write; prepare writes tasks.json and
//	       setup.json; RunPoint and RunShardPoint, a point of a sweep, scaling study or shard),
//	       claim.go (Claim: results.Claim for a spec: a results directory belongs to one spec,
//	       and is a results.Dir from then on), run.go (Run: the cells on a worker pool, resume
//	       from cells/), cell.go (runCell: a cell's tasks through package episode, and what it
//	       writes as they end), oracle.go (which solution of package oracle each task shares:
//	       whole, or around a run's start states for a task computed on demand), simulated.go
//	       (checks of tasks given as simulators)
//	out    results.go (the results package's types, and the Setup it writes from)
//
// What temple inspect shows of a plan's tasks is not the runner's: the pictures of maze tasks are
// package mazepicture's, the templates estimated from a simulator's samples template.Estimate.
package experiment
