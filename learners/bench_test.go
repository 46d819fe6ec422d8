package learners

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

// benchMaze is a 4×4 maze of the online setting with a fixed mix of landforms.
func benchMaze(b *testing.B) *mdp.Model {
	b.Helper()
	slip := []float64{0.2, 0.2, 0.2, 0.4, 0, 0.2, 0.4, 0.4, 0.4, 0, 0, 0, 0, 0.2, 0.4, 0.2}
	mz := env.Maze{Width: 4, Height: 4, Slip: slip, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		Actions: 4}.WithRewards(env.PaperRewards)
	m, err := mz.Model()
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// benchTasks runs whole tasks of the paper's size (3000 episodes × 30 steps) with ag on the bench
// maze and reports steps per second, planning and all.
func benchTasks(b *testing.B, ag agent.Agent) {
	agenttest.Run(b, ag, []*mdp.Model{benchMaze(b)}, rand.New(rand.NewPCG(1, 2)))
}

func BenchmarkRMaxMaze4x4(b *testing.B) {
	ag, err := NewRMax(DefaultRMax())
	if err != nil {
		b.Fatal(err)
	}
	benchTasks(b, agent.NewSingle(ag))
}

func BenchmarkRMaxOptimisticMaze4x4(b *testing.B) {
	p := DefaultRMax()
	p.Rule = Optimistic
	ag, err := NewRMax(p)
	if err != nil {
		b.Fatal(err)
	}
	benchTasks(b, agent.NewSingle(ag))
}

func BenchmarkQLearningMaze4x4(b *testing.B) {
	ag, err := NewQLearning(DefaultQLearning())
	if err != nil {
		b.Fatal(err)
	}
	benchTasks(b, ag)
}

func BenchmarkUCRL2Maze4x4(b *testing.B) {
	ag, err := NewUCRL2(DefaultUCRL2())
	if err != nil {
		b.Fatal(err)
	}
	benchTasks(b, agent.NewSingle(ag))
}

func BenchmarkPSRLMaze4x4(b *testing.B) {
	for _, schedule := range []PSRLSchedule{PerEpisode, TSDE} {
		b.Run(string(schedule), func(b *testing.B) {
			p := DefaultPSRL()
			p.Schedule = schedule
			ag, err := NewPSRL(p)
			if err != nil {
				b.Fatal(err)
			}
			benchTasks(b, agent.NewSingle(ag))
		})
	}
}
