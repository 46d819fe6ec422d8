package mdp

import "github.com/temple-rl/temple/internal/lazy"

// Succ is one observed successor of a state-action pair and how often it was seen.
type Succ struct {
	State int32
	N     int64
}

// Counts holds the empirical statistics of a tabular MDP: n(s,a), n(s,a,s') and the reward sum
// R(s,a), per pair index s*A+a. Successor lists are sparse, in first-seen order; recording a
// sample allocates only when a pair meets a new successor. On a large task the table is
// allocated only where pairs are counted (lazy.Table).
type Counts struct {
	S, A  int
	pairs lazy.Table[pairCounts]
}

// pairCounts are the statistics of one pair, kept together: a learner's backup reads all three.
type pairCounts struct {
	n    int64
	r    float64
	succ []Succ
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
	c.pairs.Reuse(S*A, func(p pairCounts) pairCounts { return pairCounts{succ: p.succ[:0]} })
}

// Add records k observations of pair i moving to next with total reward reward.
func (c *Counts) Add(i, next int, k int64, reward float64) {
	p := c.pairs.Ptr(i)
	p.n += k
	p.r += reward
	for j := range p.succ {
		if int(p.succ[j].State) == next {
			p.succ[j].N += k
			return
		}
	}
	p.succ = append(p.succ, Succ{State: int32(next), N: k})
}

// AddReward adds to R(i) without a transition: for augmentation, whose reward sum comes with the
// counts added through Add with zero reward.
func (c *Counts) AddReward(i int, reward float64) { c.pairs.Ptr(i).r += reward }

// N is n(s,a) of pair i.
func (c *Counts) N(i int) int64 { return c.pairs.View(i).n }

// R is the reward sum R(s,a) of pair i.
func (c *Counts) R(i int) float64 { return c.pairs.View(i).r }

// Successors lists the observed successors of pair i; the slice is owned by c.
func (c *Counts) Successors(i int) []Succ { return c.pairs.View(i).succ }

// Pair is n(s,a), R(s,a) and the observed successors of pair i at once (N, R, Successors).
func (c *Counts) Pair(i int) (n int64, r float64, succ []Succ) {
	p := c.pairs.View(i)
	return p.n, p.r, p.succ
}

// ClearPair empties the statistics of pair i.
func (c *Counts) ClearPair(i int) {
	if p := c.pairs.View(i); p.n != 0 || p.r != 0 || len(p.succ) != 0 {
		*c.pairs.Ptr(i) = pairCounts{succ: p.succ[:0]}
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
	for i := range other.pairs.Len() {
		p := other.pairs.View(i)
		for _, x := range p.succ {
			c.Add(i, int(x.State), x.N, 0)
		}
		if p.r != 0 {
			c.AddReward(i, p.r)
		}
	}
}
