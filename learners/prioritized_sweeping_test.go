package learners

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
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
		S, A := 2+rng.IntN(7), 1+rng.IntN(3)
		gamma := []float64{0, 0.5, 0.9, 0.95}[rng.IntN(4)]
		var terminal []bool
		if rng.IntN(2) == 0 {
			terminal = make([]bool, S)
			terminal[rng.IntN(S)] = true
		}
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
			i, next, r := rng.IntN(S*A), rng.IntN(S), rng.Float64()*2-1
			switch rng.IntN(10) {
			case 0, 1:
				add := []mdp.Succ{{State: int32(next), N: 1 + rng.Int64N(3)}, {State: int32(rng.IntN(S)), N: 1}}
				li.Augment(i, add, r)
				le.Augment(i, add, r)
			case 2: // a withdrawn augmentation: the pair's statistics start again, in another order
				succ := []mdp.Succ{{State: int32(rng.IntN(S)), N: 1 + rng.Int64N(4)}}
				if s2 := int32(rng.IntN(S)); s2 != succ[0].State {
					succ = append(succ, mdp.Succ{State: s2, N: 1})
				}
				li.Replace(i, succ, r)
				le.Replace(i, succ, r)
			case 3: // a terminal state learned from a step
				if rng.IntN(4) == 0 {
					li.ObserveTerminal(next)
					le.ObserveTerminal(next)
				}
			case 4: // a withdrawn augmentation leaving one sample: a known pair becomes unknown
				succ := []mdp.Succ{{State: int32(next), N: 1}}
				li.Replace(i, succ, r)
				le.Replace(i, succ, r)
			default:
				li.Record(i, next, r)
				le.Record(i, next, r)
			}
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
