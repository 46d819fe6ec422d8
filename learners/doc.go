// Package learners holds the single-task learners, one file each: RMax (the paper's base learner,
// rmax.go, with its incremental planner in prioritized_sweeping.go), MBIE-EB, E3, UCRL2, C-UCRL and
// PSRL — each an agent.Base, made by NewRMax, NewMBIEEB, NewE3, NewUCRL2, NewCUCRL, NewPSRL and
// made a single-task agent by agent.NewSingle — and Q-learning, an agent.Agent of its own.
//
// Each learner's file also registers its agent type (agenttypes.Register, from an init function):
// its parameters struct carries New (and NewBase for a base learner), its memory figure and its
// search space, declared beside its parameters.
//
// It imports the seam (agent), the registry (agenttypes) and mdp; it must not import the template
// learners, the baselines or the runner.
package learners
