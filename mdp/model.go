// Package mdp is the tabular Markov decision process of the project: a validated model with sparse
// next-state rows, exact solvers (value iteration and policy evaluation), Dynamics — a model read
// pair by pair, which a large task computes on demand instead of storing — and Region, the part
// of a task around some states, solved there alone.
//
// A state-action pair (s, a) is addressed everywhere by the flat index s*A + a.
package mdp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Transition is one possible outcome of taking an action: the next state, its probability and the
// reward paid on that transition.
type Transition struct {
	Next   int
	Prob   float64
	Reward float64
}

// probTolerance is how far a row's probabilities may sum away from 1.
const probTolerance = 1e-9

// Model is an immutable tabular MDP with S states and A actions. Build one with New, or with
// NewEpisodic when some states are terminal.
type Model struct {
	Sparse
	reward   []float64 // reward of each transition, parallel to Next
	start    []float64 // start distribution μ over states
	terminal []bool    // terminal[s]: an episode ends on reaching s; nil when no state is
}

// New validates and builds a model without terminal states. rows[s*A+a] lists the outcomes of
// (s, a); outcomes with probability 0 are dropped. start is the start distribution μ (length S,
// summing to 1). Errors name the state, action and offending value.
func New(S, A int, rows [][]Transition, start []float64) (*Model, error) {
	return NewEpisodic(S, A, rows, start, nil)
}

// NewEpisodic is New for a model with terminal states: terminal[s] (length S, or nil for none)
// says that an episode ends on reaching s (Gymnasium's "terminated"). A terminal state is
// absorbing with reward 0, so every solver gives it value 0 and bootstraps nothing past it: its
// rows must be empty (they are then built as that self-loop) or already that self-loop. The start
// distribution may not put mass on a terminal state.
func NewEpisodic(S, A int, rows [][]Transition, start []float64, terminal []bool) (*Model, error) {
	if S <= 0 || A <= 0 {
		return nil, fmt.Errorf("mdp: need at least one state and one action, got S=%d A=%d", S, A)
	}
	if len(rows) != S*A {
		return nil, fmt.Errorf("mdp: got %d transition rows, want S*A = %d", len(rows), S*A)
	}
	if len(start) != S {
		return nil, fmt.Errorf("mdp: start distribution has length %d, want S = %d", len(start), S)
	}
	outcomes := 0
	for _, row := range rows {
		outcomes += max(len(row), 1)
	}
	b, err := NewBuilder(S, A, terminal, outcomes)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		if err := b.Add(row); err != nil {
			return nil, err
		}
	}
	return b.Model(start)
}

// Builder builds a model one state-action pair at a time, in pair order, so that a large task
// never holds the rows of all its pairs at once; NewEpisodic is a Builder fed the rows it is
// given, so both make the same model.
type Builder struct {
	m        *Model
	terminal []bool
	listed   []int // listed[s′] = i+1 once row i has listed s′
	i        int   // the next pair
}

// NewBuilder starts a model of S states and A actions with the given terminal flags (length S,
// or nil for none), with room for outcomes outcomes (0 if unknown).
func NewBuilder(S, A int, terminal []bool, outcomes int) (*Builder, error) {
	if S <= 0 || A <= 0 {
		return nil, fmt.Errorf("mdp: need at least one state and one action, got S=%d A=%d", S, A)
	}
	if terminal != nil && len(terminal) != S {
		return nil, fmt.Errorf("mdp: terminal flags have length %d, want S = %d", len(terminal), S)
	}
	m := &Model{Sparse: Sparse{S: S, A: A, Start: make([]int32, S*A+1), R: make([]float64, S*A)}}
	m.Next, m.Prob, m.reward = make([]int32, 0, outcomes), make([]float64, 0, outcomes), make([]float64, 0, outcomes)
	return &Builder{m: m, terminal: terminal, listed: make([]int, S)}, nil
}

// Add appends the outcomes of the next pair (s, a), pairs in the order s·A + a. Outcomes with
// probability 0 are dropped; a terminal state's row must be empty or its self-loop (NewEpisodic).
func (b *Builder) Add(row []Transition) error {
	m, i := b.m, b.i
	if i >= m.S*m.A {
		return fmt.Errorf("mdp: more than S*A = %d transition rows", m.S*m.A)
	}
	S, A := m.S, m.A
	s, a := i/A, i%A
	if b.terminal != nil && b.terminal[s] {
		if !absorbing(row, s) {
			return fmt.Errorf("mdp: state %d action %d: state %d is terminal, so its outcomes must be empty "+
				"or a self-loop with probability 1 and reward 0, got %v", s, a, s, row)
		}
		row = []Transition{{Next: s, Prob: 1}}
	}
	total := 0.0
	for _, t := range row {
		switch {
		case t.Next < 0 || t.Next >= S:
			return fmt.Errorf("mdp: state %d action %d: next state %d out of range [0, %d)", s, a, t.Next, S)
		case math.IsNaN(t.Prob) || math.IsInf(t.Prob, 0):
			return fmt.Errorf("mdp: state %d action %d: probability of next state %d is %v, not finite", s, a, t.Next, t.Prob)
		case t.Prob < 0:
			return fmt.Errorf("mdp: state %d action %d: probability of next state %d is negative (%v)", s, a, t.Next, t.Prob)
		case math.IsNaN(t.Reward) || math.IsInf(t.Reward, 0):
			return fmt.Errorf("mdp: state %d action %d: reward of next state %d is %v, not finite", s, a, t.Next, t.Reward)
		case b.listed[t.Next] == i+1:
			return fmt.Errorf("mdp: state %d action %d: next state %d listed twice", s, a, t.Next)
		}
		b.listed[t.Next] = i + 1
		total += t.Prob
		if t.Prob == 0 {
			continue
		}
		m.Next = append(m.Next, int32(t.Next))
		m.Prob = append(m.Prob, t.Prob)
		m.reward = append(m.reward, t.Reward)
		m.R[i] += t.Prob * t.Reward
	}
	if math.Abs(total-1) > probTolerance {
		return fmt.Errorf("mdp: state %d action %d: probabilities sum to %v, want 1", s, a, total)
	}
	m.Start[i+1] = int32(len(m.Next))
	b.i++
	return nil
}

// Model finishes the model with the start distribution start (length S); every pair must have
// been added. The Builder is not used again.
func (b *Builder) Model(start []float64) (*Model, error) {
	m, terminal := b.m, b.terminal
	if b.i != m.S*m.A {
		return nil, fmt.Errorf("mdp: got %d transition rows, want S*A = %d", b.i, m.S*m.A)
	}
	if len(start) != m.S {
		return nil, fmt.Errorf("mdp: start distribution has length %d, want S = %d", len(start), m.S)
	}
	total := 0.0
	for s, p := range start {
		if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
			return nil, fmt.Errorf("mdp: start probability of state %d is %v, want a finite number >= 0", s, p)
		}
		total += p
	}
	if math.Abs(total-1) > probTolerance {
		return nil, fmt.Errorf("mdp: start probabilities sum to %v, want 1", total)
	}
	m.start = append([]float64(nil), start...)
	for s, t := range terminal {
		if t && start[s] > 0 {
			return nil, fmt.Errorf("mdp: state %d is terminal but has start probability %v, want 0", s, start[s])
		}
	}
	if slices.Contains(terminal, true) {
		m.terminal = append([]bool(nil), terminal...)
	}
	b.m, b.listed = nil, nil
	return m, nil
}

// absorbing reports whether row is empty or the self-loop of s with probability 1 and reward 0.
func absorbing(row []Transition, s int) bool {
	nonzero := 0
	for _, t := range row {
		if t.Prob == 0 {
			continue
		}
		nonzero++
		if t.Next != s || t.Prob != 1 || t.Reward != 0 {
			return false
		}
	}
	return nonzero <= 1
}

// Terminal reports whether an episode ends on reaching s.
func (m *Model) Terminal(s int) bool { return m.terminal != nil && m.terminal[s] }

// TerminalStates returns a copy of the terminal flags, one per state, or nil when no state is
// terminal.
func (m *Model) TerminalStates() []bool { return slices.Clone(m.terminal) }

// Row returns the outcomes of (s, a) with non-zero probability, in the order they were given.
func (m *Model) Row(s, a int) []Transition {
	i := s*m.A + a
	out := make([]Transition, 0, m.Start[i+1]-m.Start[i])
	for k := m.Start[i]; k < m.Start[i+1]; k++ {
		out = append(out, Transition{Next: int(m.Next[k]), Prob: m.Prob[k], Reward: m.reward[k]})
	}
	return out
}

// ExpectedReward is r(s, a), the reward expected from taking a in s.
func (m *Model) ExpectedReward(s, a int) float64 { return m.R[s*m.A+a] }

// StartDistribution returns a copy of μ.
func (m *Model) StartDistribution() []float64 { return append([]float64(nil), m.start...) }

// Step samples one transition from (s, a) with one uniform draw from rng: the first outcome
// whose cumulative probability, summed in row order, exceeds the draw. The sums are not stored
// (8 bytes per outcome of a model that may hold tens of millions).
func (m *Model) Step(s, a int, rng *rand.Rand) (next int, reward float64) {
	i := s*m.A + a
	lo, hi := m.Start[i], m.Start[i+1]
	u := rng.Float64()
	c := 0.0
	for k := lo; k < hi-1; k++ {
		if c += m.Prob[k]; u < c {
			return int(m.Next[k]), m.reward[k]
		}
	}
	// The last outcome takes the remaining mass, so rounding in the cumulative sum never loses it.
	return int(m.Next[hi-1]), m.reward[hi-1]
}

// SampleStart draws a start state from μ.
func (m *Model) SampleStart(rng *rand.Rand) int {
	u := rng.Float64()
	c := 0.0
	last := 0
	for s, p := range m.start {
		if p == 0 {
			continue
		}
		c += p
		last = s
		if u < c {
			return s
		}
	}
	return last
}

// MaxAbsReward is the largest |r| over the model's transitions, the R_max of V_max = R_max/(1−γ).
func (m *Model) MaxAbsReward() float64 {
	x := 0.0
	for _, r := range m.reward {
		x = math.Max(x, math.Abs(r))
	}
	return x
}
