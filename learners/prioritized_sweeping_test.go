package learners

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
)

// TestIncrementalPlanMatchesPlanningFromScratch drives two learners, one planning incrementally
// (PlanIncremental and PlanDelta in turn), through the same changes on
// random small MDPs — samples making pairs known, augmentation of known and unknown pairs,
// withdrawn augmentations (Replace), threshold changes, terminal states declared or learned from
// a step, planned unknown values — and after every change compares the incremental plan with
// the optimal plan of the same optimistic model (a full plan to 1e-12): values within
// plan_tolerance, and the same greedy action wherever the optimal one leads by more than twice
// the tolerance.
func TestIncrementalPlanMatchesPlanningFromScratch(t *testing.T) {
	for _, planning := range []Planning{PlanIncremental, PlanDelta} {
		t.Run(string(planning), func(t *testing.T) { testPlanMatchesPlanningFromScratch(t, planning) })
	}
}

func testPlanMatchesPlanningFromScratch(t *testing.T, planning Planning) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 60; trial++ {
		S, A, gamma, terminal := randomPlanTask(rng)
		p := DefaultRMax()
		p.M, p.RMax = 1+rng.Int64N(4), []float64{1, 2, -0.5}[rng.IntN(3)]
		inc, exact := p, p
		inc.Planning, exact.Planning = planning, PlanFull
		exact.PlanTolerance = 1e-12
		li, le := &RMax{P: inc}, &RMax{P: exact}
		for _, l := range []*RMax{li, le} {
			l.Begin(agent.Task{S: S, A: A, Gamma: gamma, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: terminal})
		}
		if rng.IntN(4) == 0 {
			values := make([]float64, S*A)
			for i := range values {
				values[i] = rng.Float64() * 3
			}
			li.SetUnknownValues(values)
			le.SetUnknownValues(values)
		}
		for change := 0; change < 80; change++ {
			changeAtRandom(rng, S, A, []planChange{augmentPair, augmentPair, withdrawPair, learnTerminal, withdrawToOne}, li, le)
			checkSamePlan(t, fmt.Sprintf("trial %d change %d", trial, change), li.Q(), le.Q(), S, A, inc.PlanTolerance)
		}
	}
}

func TestPlanningIsValidated(t *testing.T) {
	p := DefaultRMax()
	p.Planning = "sometimes"
	if err := p.Validate(); err == nil {
		t.Error("planning \"sometimes\" accepted")
	}
}
