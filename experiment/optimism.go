package experiment

import (
	"fmt"
	"math"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/mdp"
)

// checkRMax refuses an agent whose r_max is 0 or less when a stored task model it runs on pays a
// positive reward: an unknown pair planned at R_max ≤ 0 is never worth trying against a known
// one that pays, and the learner does not explore (r_max: 0 on mazes whose goal pays 1). A task
// of costs only (MountainCar's, every reward ≤ 0) takes r_max 0, its tight bound. An r_max below
// a larger positive reward is left alone: the taxi preset runs RMax's published R_max 1 on
// Taxi's reward 20, and still explores. A simulator or a task computed on demand has no stored
// rewards to read and is not checked.
func checkRMax(s Spec, runs [][]Task) error {
	largest := map[*mdp.Model]float64{}
	for k, a := range s.Agents {
		rmax, ok := paramFloat(a, "r_max")
		if !ok {
			continue
		}
		for run, tasks := range runs {
			for i, t := range tasks {
				if t.Model == nil {
					continue
				}
				r, seen := largest[t.Model]
				if !seen {
					r = maxReward(t.Model)
					largest[t.Model] = r
				}
				if rmax <= 0 && r > 0 {
					return fmt.Errorf("%s: r_max = %g, but run %d, task %d (%s) pays rewards up to %g: "+
						"unknown pairs planned at r_max would never be worth trying, and the learner would not explore; "+
						"set r_max to at least %g", s.agentLabel(k), rmax, run, i, t.Def.Name(), r, r)
				}
			}
		}
	}
	return nil
}

// paramFloat is the number under key among a's parameters (its base's included), if it has one.
func paramFloat(a AgentSpec, key string) (float64, bool) {
	v, ok := agenttypes.Param(a.Params, key)
	x, isFloat := v.(float64)
	return x, ok && isFloat
}

// maxReward is the largest reward of a transition of m with non-zero probability.
func maxReward(m *mdp.Model) float64 {
	S, A := m.Size()
	most := math.Inf(-1)
	var row []mdp.Transition
	for i := range S * A {
		row = m.AppendRow(row[:0], i)
		for _, tr := range row {
			most = max(most, tr.Reward)
		}
	}
	return most
}
