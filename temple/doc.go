// Package temple holds the TempLe agents: O-TempLe (online template learning, paper Algorithm 1)
// and FM-TempLe (finite-model template learning, Algorithm 3). Both run over a base learner
// (agent.Base): the paper's RMax, or any other model-based learner behind the seam — MBIE-EB, E3,
// UCRL2, PSRL. Templates act on a base only through its counts: an identified pair is augmented
// with its template's visits (agent.Base.Augment), which makes an RMax pair known sooner, shrinks
// an MBIE-EB bonus or a UCRL2 confidence width, and adds pseudo-counts to a PSRL posterior.
//
// Each learner's file registers its agent type (agenttypes.Register, from an init function), with
// the struct a config's block decodes to: OTempLeSpec and the others over a base learner carry
// the base (agenttypes.BaseSpec) beside the learner's parameters; TemplatePriorSpec and the others
// over PSRL carry PSRL's (learners.PSRLParams).
//
// It imports agent, template, mdp, the registry (agenttypes) and the single-task learners
// (learners: PSRL, the base of its posterior-sampling learners); it must not import the baselines,
// the runner (experiment) or the results directory (results).
package temple
