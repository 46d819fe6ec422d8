package mdp

import "math/rand/v2"

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

// RowReward is r(s, a) of a row as a Model computes it from its outcomes: Σ p·r in row order.
func RowReward(row []Transition) float64 {
	r := 0.0
	for _, t := range row {
		r += t.Prob * t.Reward
	}
	return r
}
