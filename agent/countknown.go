package agent

import (
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// countKnown is the diagnostic known state of a base learner whose algorithm has no trust rule of
// its own (UCRL2, PSRL): pair i is known while n(s,a) ≥ m. It gives Known, KnownPairs, Phase and
// SamplesUntilAllKnown their meaning for phases and TempLe's retry, and follows n(s,a) down as
// well as up (Replace can lower it).
type countKnown struct {
	m            int64
	A            int
	known        []bool
	knownActions []int // per state, how many of its actions are known
	pairs        int
	allKnownAt   int64 // samples recorded when every pair was first known, −1 before
}

func (k *countKnown) reset(S, A int, m int64) {
	k.m, k.A = m, A
	k.known = buf.Zeroed(k.known, S*A)
	k.knownActions = buf.Zeroed(k.knownActions, S)
	k.pairs, k.allKnownAt = 0, -1
}

// refresh updates pair i from its count in c; samples is the number of own samples recorded so far.
func (k *countKnown) refresh(c *mdp.Counts, i int, samples int64) {
	now := c.N(i) >= k.m
	if now == k.known[i] {
		return
	}
	k.known[i] = now
	if now {
		k.knownActions[i/k.A]++
		k.pairs++
		if k.allKnownAt < 0 && k.pairs == len(k.known) {
			k.allKnownAt = samples
		}
	} else {
		k.knownActions[i/k.A]--
		k.pairs--
	}
}

// phase is Exploring while some action of s is not known, KnownModel otherwise.
func (k *countKnown) phase(s int) Phase {
	if k.knownActions[s] < k.A {
		return Exploring
	}
	return KnownModel
}
