// Package importrules holds no code: its test checks the import rules that the package docs of
// the module state — what each package may import, and what none of its dependencies may be — so
// that the readers of a results directory, the C library and the episode driver never come to
// carry the runner. Change a rule here together with the package doc that states it.
package importrules
