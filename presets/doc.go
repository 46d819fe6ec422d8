// Package presets holds the named experiments of temple reproduce: the paper's figures and
// appendices, and the experiments beyond it, each an experiment.Spec built in Go at the settings
// its page of docs/experiments records, and Demo, temple run's experiment without a config.
//
// A preset sets its agents' parameters as typed fields of the registry's parameter structs
// (learners.RMaxParams, temple.OTempLeSpec, …): a misspelt key is a compile error. The table of presets
// is in presets.go; the paper's Appendix F.5 is in f5.go, the experiments beyond the paper in
// beyond.go, the regime map in regime.go and the terrain grids in terrain.go. The pinned tests
// (pinned_test.go) hold the paper presets' results byte for byte.
//
// It may import the runner (experiment), the registries of agent types and task families
// (agenttypes, families), the learners' parameter types (learners, baseline, temple), env and
// internal packages; nothing but the commands imports it. (internal/importrules checks these
// rules.)
package presets
