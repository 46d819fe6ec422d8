package experiment

import (
	"github.com/temple-rl/temple/results"
)

// setup is what package results needs of the spec to write a results directory.
func (s Spec) setup() (results.Setup, error) {
	asYAML, err := s.resolvedYAML()
	if err != nil {
		return results.Setup{}, err
	}
	asJSON, err := results.SpecJSON(asYAML) // in the config's names, as spec.yaml
	if err != nil {
		return results.Setup{}, err
	}
	return results.Setup{
		Name: s.Name, Seed: s.Seed, Runs: s.Runs, Episodes: s.Episodes,
		Agents:   s.AgentNames(),
		Baseline: s.Output.Baseline, Smoothing: s.Output.Smoothing,
		Oracle: s.Oracle.Enabled, Epsilon: s.Oracle.Epsilon, PolicyMistakes: s.Oracle.PolicyMistakes,
		Spec: asJSON, SpecYAML: asYAML, Tuning: s.Tuning,
	}, nil
}

// Write writes the results directory of spec s (results.Write): spec.yaml, per_task.csv,
// metrics.csv, the oracle's files, summary.json, timings.json, the figures and report.html.
func Write(dir results.Dir, s Spec, cells []results.CellResult) (results.Summary, error) {
	set, err := s.setup()
	if err != nil {
		return results.Summary{}, err
	}
	return results.Write(dir, set, cells)
}
