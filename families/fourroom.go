package families

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// FourRoom is the family of the four-room grid of the paper's Appendix F.5.
const FourRoom = "fourroom"

// FourRoomParams are fourroom's parameters: those of env.FourRooms.
type FourRoomParams struct {
	env.FourRoomConfig `yaml:",inline"`
}

// defaultFourRoom is simple_rl's FourRoomMDP: 9×9, goal (9,9) terminal, reward 1, no slip.
func defaultFourRoom() Params {
	return &FourRoomParams{env.FourRoomConfig{Size: 9, Tasks: 1, Actions: 4, GoalReward: 1, TerminalGoals: true}}
}

func (p *FourRoomParams) Sequence(int, *rand.Rand) (env.Sequence, error) {
	return mazes(env.FourRooms(p.FourRoomConfig))
}
