// Package memory estimates the memory an experiment needs before anything of it is built — the
// task models of every run, the oracle's solutions, the agents on the workers and drawing the
// task sequences — and refuses one whose estimate exceeds its limit (max_memory, or the
// machine's memory), naming, for each part, the config fields that change it.
//
// The runner (package experiment) describes its spec as an Experiment and checks it at each step
// of building a plan: before drawing the sequences (Check(nil)), from the sizes the drawn task
// definitions know (Known), from the first runs drawn standing for all (CheckRuns), and from
// every built model (BuiltSizes).
//
// It may import the task model and the tasks (mdp, env), the agents registry (agents.Memory, an
// agent type's own memory) and the oracle's constants (oracle.DenseStates, oracle.Tolerance),
// and through oracle what oracle imports (results, for its records). It must not import
// experiment, nor results or report directly.
package memory
