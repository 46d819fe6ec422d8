package mdp

import (
	"math"
	"math/rand/v2"
)

// Dynamics is a tabular MDP read pair by pair: a stored Model, or a task that computes each
// pair's outcomes when asked instead of storing them (a 2000×2000 maze has 16 M pairs, a
// gigabyte as a Model). Every implementation must behave as the Model of the same task would,
// bit for bit: the same rows in the same order, the same draws from the same random stream. It is
// read, never written, so one Dynamics may serve many goroutines.
type Dynamics interface {
	// Size is the number of states S and of actions A.
	Size() (S, A int)
	// AppendRow appends the outcomes of pair i = s·A + a with non-zero probability, in model order,
	// to dst and returns it.
	AppendRow(dst []Transition, i int) []Transition
	// Step samples one transition from (s, a) with one uniform draw from rng (Model.Step).
	Step(s, a int, rng *rand.Rand) (next int, reward float64)
	// Terminal reports whether an episode ends on reaching s.
	Terminal(s int) bool
	// TerminalStates returns the terminal flags, one per state, or nil when no state is terminal.
	TerminalStates() []bool
	// SampleStart draws a start state from μ (Model.SampleStart).
	SampleStart(rng *rand.Rand) int
	// MaxAbsReward is the largest |r| over the transitions with non-zero probability.
	MaxAbsReward() float64
}

var _ Dynamics = (*Model)(nil)

// Size is the number of states and of actions.
func (m *Model) Size() (S, A int) { return m.S, m.A }

// AppendRow appends the outcomes of pair i to dst (Dynamics).
func (m *Model) AppendRow(dst []Transition, i int) []Transition {
	for k := m.Start[i]; k < m.Start[i+1]; k++ {
		dst = append(dst, Transition{Next: int(m.Next[k]), Prob: m.Prob[k], Reward: m.reward[k]})
	}
	return dst
}

// RewardRange is the smallest and largest reward of d's transitions out of states that are not
// terminal (0 and 0 when every state is terminal): the range of the rewards a learner can be
// paid on the task (agent.Task.Rewards). A Dynamics with a RewardRange method of its own (a Model;
// a computed maze, which scans its pairs once) gives it; any other is scanned pair by pair.
func RewardRange(d Dynamics) (lo, hi float64) {
	if r, ok := d.(interface{ RewardRange() (float64, float64) }); ok {
		return r.RewardRange()
	}
	S, A := d.Size()
	lo, hi = math.Inf(1), math.Inf(-1)
	var row []Transition
	for s := range S {
		if d.Terminal(s) {
			continue
		}
		for a := range A {
			row = d.AppendRow(row[:0], s*A+a)
			for _, t := range row {
				lo, hi = math.Min(lo, t.Reward), math.Max(hi, t.Reward)
			}
		}
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// RewardRange is the smallest and largest reward of the model's transitions out of states that
// are not terminal (0 and 0 when every state is terminal).
func (m *Model) RewardRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range m.S * m.A {
		if m.Terminal(i / m.A) {
			continue
		}
		for _, r := range m.reward[m.Start[i]:m.Start[i+1]] {
			lo, hi = math.Min(lo, r), math.Max(hi, r)
		}
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// RowReward is r(s, a) of a row as a Model computes it from its outcomes: Σ p·r in row order.
func RowReward(row []Transition) float64 {
	r := 0.0
	for _, t := range row {
		r += t.Prob * t.Reward
	}
	return r
}
