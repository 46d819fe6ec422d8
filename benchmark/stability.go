package benchmark

import (
	"math"
	"slices"

	"github.com/temple-rl/temple/tune"
)

// Stability is how a family's ranks move when every learner is tuned again at a second tuning
// seed (with the same budget) and judged at the same judging seed: only the tuning differs.
type Stability struct {
	// TuningSeed is SecondTuningSeed(benchmark seed, name); DesignSeeds are the seeds the second
	// tuning ran on; JudgingSeed is the family's (the first tuning's).
	TuningSeed  uint64   `json:"tuning_seed"`
	DesignSeeds []uint64 `json:"design_seeds"`
	JudgingSeed uint64   `json:"judging_seed"`
	// Ranks are every ranked learner's rank under each tuning, in the first tuning's order.
	Ranks []RankPair `json:"ranks"`
	// KendallTauB is Kendall's τ_b between the two rankings (1: the same order; −1: reversed;
	// null with fewer than two learners).
	KendallTauB num `json:"kendall_tau_b"`
	// Moved are the learners whose rank moved by more than one place.
	Moved []string `json:"moved"`
	// BestSingleTask and Learners are the second tuning's results as the family's own fields
	// give the first's: its best single-task learner, and its learners ranked with their verdicts.
	BestSingleTask string    `json:"best_single_task"`
	Learners       []Learner `json:"learners"`
}

// RankPair is a learner's rank under the first tuning and under the second.
type RankPair struct {
	Name   string `json:"name"`
	First  int    `json:"first"`
	Second int    `json:"second"`
}

// newStability compares first, the first tuning's ranked learners, with second, the family's
// results under the second tuning at tuning seed seed2.
func newStability(first []Learner, second Family, seed2 uint64) *Stability {
	st := &Stability{TuningSeed: seed2, DesignSeeds: []uint64{tune.DesignSeed(seed2)}, JudgingSeed: second.JudgingSeed,
		BestSingleTask: second.BestSingleTask, Learners: second.Learners, Moved: []string{}}
	var x, y []float64
	for _, l := range first {
		k := slices.IndexFunc(second.Learners, func(m Learner) bool { return m.Name == l.Name })
		if k < 0 {
			continue // not possible: both tunings rank the same learners
		}
		p := RankPair{Name: l.Name, First: l.Rank, Second: second.Learners[k].Rank}
		st.Ranks = append(st.Ranks, p)
		x, y = append(x, float64(p.First)), append(y, float64(p.Second))
		if p.First-p.Second > 1 || p.Second-p.First > 1 {
			st.Moved = append(st.Moved, l.Name)
		}
	}
	st.KendallTauB = num(KendallTauB(x, y))
	return st
}

// KendallTauB is Kendall's rank correlation τ_b of the paired values x and y, with ties:
//
//	τ_b = (n_c − n_d) / √((n₀ − n₁)(n₀ − n₂)),
//
// n_c and n_d the concordant and discordant pairs, n₀ = n(n−1)/2 the pairs, n₁ and n₂ the pairs
// tied in x and in y (Kendall 1945, "The treatment of ties in ranking problems"; as
// scipy.stats.kendalltau's default). NaN when x or y has fewer than two distinct values (or the
// lengths differ).
func KendallTauB(x, y []float64) float64 {
	if len(x) != len(y) {
		return math.NaN()
	}
	var concordant, discordant, tiedX, tiedY, pairs float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			pairs++
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
				tiedX++
				tiedY++
			case dx == 0:
				tiedX++
			case dy == 0:
				tiedY++
			case (dx > 0) == (dy > 0):
				concordant++
			default:
				discordant++
			}
		}
	}
	d := (pairs - tiedX) * (pairs - tiedY)
	if d == 0 {
		return math.NaN()
	}
	return (concordant - discordant) / math.Sqrt(d)
}
