//go:build box2d

package deep

import (
	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/lunarlander"
)

// LunarLander comes after CartPole and before Hopper, as in the paper's Figure 7; the paper
// gives no losses for it.
func init() {
	available = append(available[:1], append([]Env{{
		Name: "LunarLander-v3",
		New:  func() (continuous.Env, error) { return lunarlander.New(), nil },
	}}, available[1:]...)...)
}
