package families

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// OnlineMaze is the family of the paper's online setting: random landform mazes drawn from a pool.
const OnlineMaze = "online-maze"

// OnlineMazeParams are online-maze's parameters: those of env.OnlineMazes.
type OnlineMazeParams struct {
	env.OnlineConfig `yaml:",inline"`
}

// defaultOnlineMaze is the published online-maze setting: 4×4 mazes of landforms {0, 0.2, 0.4},
// goal (4,4), lava (2,2), 100 tasks drawn from a pool of 100.
func defaultOnlineMaze() Params {
	return &OnlineMazeParams{env.OnlineConfig{Width: 4, Height: 4, Pool: 100, Tasks: 100, Actions: 4,
		Landforms: paperLandforms(), Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
}

func (p *OnlineMazeParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(env.OnlineMazes(rng, p.OnlineConfig))
}

// DrawBytes is the pool's landforms, a uint16 per cell of every maze (env.OnlineMazes).
func (p *OnlineMazeParams) DrawBytes() int64 { return poolBytes(p.OnlineConfig) }

// poolBytes is the landforms of the pool of mazes env.OnlineMazes draws from c.
func poolBytes(c env.OnlineConfig) int64 { return int64(c.Pool) * int64(c.Width) * int64(c.Height) * 2 }

// paperLandforms are the slips of the paper's three landforms.
func paperLandforms() []float64 { return []float64{0, 0.2, 0.4} }

// mazes is the sequence of the mazes a generator made, or its error.
func mazes(ms []env.Maze, err error) (env.Sequence, error) {
	if err != nil {
		return nil, err
	}
	return env.Mazes(ms...), nil
}
