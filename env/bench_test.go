package env

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

func benchModel(b *testing.B, size int) *mdp.Model {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 1))
	slip := make([]float64, size*size)
	for i := range slip {
		slip[i] = []float64{0, 0.2, 0.4}[rng.IntN(3)]
	}
	mz := Maze{Width: size, Height: size, Slip: slip, Goals: []Cell{{size, size}}, Lava: []Cell{{size / 2, size / 2}},
		StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
	m, err := mz.Model()
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkMazeStep4x4 measures sampling one transition of the 4×4 maze with uniformly random
// actions.
func BenchmarkMazeStep4x4(b *testing.B) {
	m := benchModel(b, 4)
	rng := rand.New(rand.NewPCG(2, 2))
	s := 0
	for b.Loop() {
		s, _ = m.Step(s, int(rng.Uint32()&3), rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkValueIteration solves the maze exactly (‖V − V*‖∞ ≤ 1e-6, γ = 0.95) from zero.
func BenchmarkValueIteration4x4(b *testing.B)   { benchVI(b, 4) }
func BenchmarkValueIteration10x10(b *testing.B) { benchVI(b, 10) }

func benchVI(b *testing.B, size int) {
	m := benchModel(b, size)
	for b.Loop() {
		if _, err := mdp.ValueIteration(m, 0.95, 1e-6); err != nil {
			b.Fatal(err)
		}
	}
}
