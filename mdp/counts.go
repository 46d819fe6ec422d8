package mdp

import "github.com/temple-rl/temple/internal/lazy"

// Succ is one observed successor of a state-action pair and how often it was seen.
type Succ struct {
	State int32
	N     int64
}

// Counts holds the empirical statistics of a tabular MDP: n(s,a), n(s,a,s') and the reward sum
// R(s,a), per pair index s*A+a. Successor lists are sparse, in first-seen order; recording a
// sample allocates only when a pair meets a new successor. On a large task the tables are
// allocated only where pairs are counted (lazy.Table).
type Counts struct {
	S, A int
	n    lazy.Table[int64]
	r    lazy.Table[float64]
	succ lazy.Table[[]Succ]
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
	c.n.Reset(S*A, nil)
	c.r.Reset(S*A, nil)
	c.succ.Reuse(S*A, func(row []Succ) []Succ { return row[:0] })
}

// Add records k observations of pair i moving to next with total reward reward.
func (c *Counts) Add(i, next int, k int64, reward float64) {
	*c.n.Ptr(i) += k
	*c.r.Ptr(i) += reward
	p := c.succ.Ptr(i)
	row := *p
	for j := range row {
		if int(row[j].State) == next {
			row[j].N += k
			return
		}
	}
	*p = append(row, Succ{State: int32(next), N: k})
}

// AddReward adds to R(i) without a transition: for augmentation, whose reward sum comes with the
// counts added through Add with zero reward.
func (c *Counts) AddReward(i int, reward float64) { *c.r.Ptr(i) += reward }

// N is n(s,a) of pair i.
func (c *Counts) N(i int) int64 { return c.n.At(i) }

// R is the reward sum R(s,a) of pair i.
func (c *Counts) R(i int) float64 { return c.r.At(i) }

// Successors lists the observed successors of pair i; the slice is owned by c.
func (c *Counts) Successors(i int) []Succ { return c.succ.At(i) }

// ClearPair empties the statistics of pair i.
func (c *Counts) ClearPair(i int) {
	c.n.Set(i, 0)
	c.r.Set(i, 0)
	if row := c.succ.At(i); row != nil {
		c.succ.Set(i, row[:0])
	}
}

// Clone returns a deep copy of c.
func (c *Counts) Clone() *Counts {
	out := NewCounts(c.S, c.A)
	out.Merge(c)
	return out
}

// Merge adds every count and reward sum of other, which must have the same S and A, to c.
func (c *Counts) Merge(other *Counts) {
	for i := range other.succ.Len() {
		for _, x := range other.succ.At(i) {
			c.Add(i, int(x.State), x.N, 0)
		}
		if r := other.r.At(i); r != 0 {
			c.AddReward(i, r)
		}
	}
}
