package experiment

import (
	"strings"
	"testing"
)

func TestScalingValidation(t *testing.T) {
	for _, c := range []struct{ block, want string }{
		{"scaling:\n  sizes: [4]\n  budget: 0\n", "scaling.budget = 0"},
		{"scaling:\n  sizes: [1]\n  budget: 1\n", "scaling.sizes: 1"},
		{"scaling:\n  budget: 1\n", "sizes and landform_sets are both empty"},
		{"scaling:\n  landform_sets: [[0]]\n  budget: 1\n", "scaling.templates_size = 0"},
		{"scaling:\n  sizes: [4]\n  budget: 1\nagents:\n  - type: q-learning\n", "agent Q-learning (q-learning) has no known threshold m"},
		{"tasks:\n  family: finite-model\nscaling:\n  sizes: [4]\n  budget: 1\n", `tasks.family = "finite-model"`},
	} {
		_, err := Parse([]byte(c.block))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.block, err, c.want)
		}
	}
}
