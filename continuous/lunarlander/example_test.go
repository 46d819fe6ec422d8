//go:build box2d

package lunarlander_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/continuous/lunarlander"
)

// Without its engines the lander falls: its vertical speed grows negative.
func Example() {
	env := lunarlander.New()
	obs := make([]float64, lunarlander.StateDim)
	env.Reset(rand.New(rand.NewPCG(1, 2)), obs)
	vy0 := obs[3]
	for range 20 {
		if _, _, _, err := env.Step([]float64{0}, obs); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println("falling faster:", obs[3] < vy0)
	// Output: falling faster: true
}
