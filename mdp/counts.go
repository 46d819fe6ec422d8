package mdp

import "github.com/temple-rl/temple/internal/buf"

// Succ is one observed successor of a state-action pair and how often it was seen.
type Succ struct {
	State int32
	N     int64
}

// Counts holds the empirical statistics of a tabular MDP: n(s,a), n(s,a,s') and the reward sum
// R(s,a), per pair index s*A+a. Successor lists are sparse, in first-seen order; recording a
// sample allocates only when a pair meets a new successor.
type Counts struct {
	S, A int
	n    []int64
	r    []float64
	succ [][]Succ
}

// NewCounts returns empty statistics for S states and A actions.
func NewCounts(S, A int) *Counts {
	c := &Counts{}
	c.Reset(S, A)
	return c
}

// Reset empties c for S states and A actions, keeping its buffers where they fit.
func (c *Counts) Reset(S, A int) {
	c.S, c.A = S, A
	c.n = buf.Zeroed(c.n, S*A)
	c.r = buf.Zeroed(c.r, S*A)
	if cap(c.succ) >= S*A {
		c.succ = c.succ[:S*A]
	} else {
		c.succ = make([][]Succ, S*A)
	}
	for i, row := range c.succ {
		if len(row) != 0 { // rewrite only the rows in use: a fresh table is all empty
			c.succ[i] = row[:0]
		}
	}
}

// Add records k observations of pair i moving to next with total reward reward.
func (c *Counts) Add(i, next int, k int64, reward float64) {
	c.n[i] += k
	c.r[i] += reward
	row := c.succ[i]
	for j := range row {
		if int(row[j].State) == next {
			row[j].N += k
			return
		}
	}
	c.succ[i] = append(row, Succ{State: int32(next), N: k})
}

// AddReward adds to R(i) without a transition: for augmentation, whose reward sum comes with the
// counts added through Add with zero reward.
func (c *Counts) AddReward(i int, reward float64) { c.r[i] += reward }

// N is n(s,a) of pair i.
func (c *Counts) N(i int) int64 { return c.n[i] }

// R is the reward sum R(s,a) of pair i.
func (c *Counts) R(i int) float64 { return c.r[i] }

// Successors lists the observed successors of pair i; the slice is owned by c.
func (c *Counts) Successors(i int) []Succ { return c.succ[i] }

// ClearPair empties the statistics of pair i.
func (c *Counts) ClearPair(i int) {
	c.n[i], c.r[i] = 0, 0
	c.succ[i] = c.succ[i][:0]
}

// Clone returns a deep copy of c.
func (c *Counts) Clone() *Counts {
	out := NewCounts(c.S, c.A)
	out.Merge(c)
	return out
}

// Merge adds every count and reward sum of other, which must have the same S and A, to c.
func (c *Counts) Merge(other *Counts) {
	for i := range other.succ {
		for _, x := range other.succ[i] {
			c.Add(i, int(x.State), x.N, 0)
		}
		c.r[i] += other.r[i]
	}
}
