//go:build mujoco

package deep

import (
	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/hopper"
)

func init() {
	available = append(available, Env{
		Name:  "Hopper-v5",
		New:   func() (continuous.Env, error) { return hopper.New() },
		Paper: &[3]float64{0.90644, 0.03982, 0.02782},
	})
}
