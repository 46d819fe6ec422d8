package experiment

import (
	"slices"
	"testing"
)

// A key the config sets that the agent's other settings leave unused is named, with the agent's
// line, place and name: hybrid-prior's γ without whole-task models, PSRL's reward_sd under the
// Beta reward posterior; a key left at its default, or used, is not.
func TestWarningsNameUnusedKeys(t *testing.T) {
	s, err := Parse([]byte(`agents:
  - {type: hybrid-prior, whole_tasks: false, pair_concentration: 10}
  - {type: psrl, name: Beta, reward_sd: 0.5}
  - {type: psrl, name: Normal, reward_posterior: normal, reward_sd: 0.5}
  - {type: hybrid-prior, name: Whole, pair_concentration: 10}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"agents[0] (Hybrid-Prior-PSRL): pair_concentration set but unused under the agent's other settings (temple describe types hybrid-prior)",
		"agents[1] (Beta): reward_sd set but unused under the agent's other settings (temple describe types psrl)",
	}
	if got := s.Warnings(); !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}
