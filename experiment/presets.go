package experiment

import (
	"fmt"
	"slices"
	"strings"
)

// Preset is a named paper experiment.
type Preset struct {
	Name        string
	Description string
	// Spec returns the experiment at the paper's settings.
	Spec func() Spec
}

var presets = []Preset{
	{
		Name: "online-maze",
		Description: "Figure 2 \"Online MTRL\": 4x4 mazes with landforms {0, 0.2, 0.4}, goal (4,4), lava (2,2), " +
			"100 tasks, 3000 episodes x 30 steps, m_s 50, m 500, tau 0.15, gamma 0.95, 20 runs; O-TempLe, RMax, Q-learning",
		Spec: onlineMaze,
	},
}

// paperAgents returns agents of the given types with the paper's settings (decision 18): RMax with
// balanced wandering (decision 1), m 500, m_s 50.
func paperAgents(types ...string) []AgentSpec {
	var out []AgentSpec
	for _, t := range types {
		out = append(out, defaultAgent(t))
	}
	return out
}

func onlineMaze() Spec {
	s := Default()
	s.Name = "online-maze"
	s.Runs, s.Episodes, s.Steps = 20, 3000, 30
	s.Tasks = familyDefaults(FamilyOnlineMaze)
	s.Agents = paperAgents(TypeOTempLe, TypeRMax, TypeQLearning)
	return s
}

// Presets lists the paper experiments in a stable order.
func Presets() []Preset { return slices.Clone(presets) }

// LookupPreset returns the named preset.
func LookupPreset(name string) (Preset, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	var names []string
	for _, p := range presets {
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("no preset %q; the presets are %s", name, strings.Join(names, ", "))
}
