package learners_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// The three planning settings plan the same optimistic model to the same tolerance: here RMax
// learns every pair of a slippery 3×3 maze from the same samples under each setting, and the
// action values of delta and incremental planning are within plan_tolerance of full planning's.
func ExamplePlanning() {
	mz := env.Maze{Width: 3, Height: 3, Slip: []float64{0, 0.2, 0.4, 0.2, 0, 0.2, 0.4, 0.2, 0}, Goals: []env.Cell{{X: 3, Y: 3}},
		GoalReward: 1, StepCost: 0.1, Actions: 4}
	m, _ := mz.Model()
	q := map[learners.Planning][]float64{}
	for _, planning := range []learners.Planning{learners.PlanFull, learners.PlanIncremental, learners.PlanDelta} {
		p := learners.DefaultRMax()
		p.M, p.Planning = 20, planning
		l, err := learners.NewRMax(p)
		if err != nil {
			fmt.Println(err)
			return
		}
		l.Begin(agent.Task{S: m.S, A: m.A, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))})
		envRand := rand.New(rand.NewPCG(2, 2))
		for i := range m.S * m.A {
			for !l.Stats().Known(i) {
				next, r := m.Step(i/m.A, i%m.A, envRand)
				l.Record(i, next, r)
				l.Q() // plan after every sample, as an agent acting in between would
			}
		}
		q[planning] = l.Q()
	}
	far := 0.0
	for _, planning := range []learners.Planning{learners.PlanIncremental, learners.PlanDelta} {
		for i, x := range q[planning] {
			far = math.Max(far, math.Abs(x-q[learners.PlanFull][i]))
		}
	}
	fmt.Printf("V(1,1) = %.2f; incremental and delta within plan_tolerance of full: %v\n", mdp.Max(q[learners.PlanFull][:m.A]), far <= learners.DefaultRMax().PlanTolerance)
	// Output: V(1,1) = 14.58; incremental and delta within plan_tolerance of full: true
}
