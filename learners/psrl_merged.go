package learners

import "math"

// Merged samples (merged_samples K > 1; not in the paper). Posterior sampling explores only as
// far as a single sample is optimistic: a pair whose posterior is wide is as likely to be drawn
// worse than its mean as better, and a confident prior (a small α₀, a small reward noise) can
// end a task's exploration early. BOSS (Asmuth, Li, Littman, Nassar & Wingate, "A Bayesian
// sampling approach to exploration in reinforcement learning", UAI 2009) draws K models and
// plans the merged MDP whose actions in s are every (a, k): action a as model k has it, so that
// the plan takes, for each action, the best of its K samples. Optimistic PSRL (Agrawal & Jia,
// NeurIPS 2017) plans the same merged model of ψ samples per pair. Here the merged model is
// built at every draw of PSRL's own schedule (BOSS redraws when a pair's count reaches its
// known-ness threshold B, Agrawal & Jia on epochs of their own and from a modified posterior), so
// the option is neither of those algorithms; it is their merged model inside PSRL. What it does
// to learning is docs/decisions.md, decision 58.
//
// Q(s,a) = max_k [r̃_k(s,a) + γ·Σ p̃_k(s′|s,a)·V(s′)], V(s) = max_a Q(s,a): the optimal values
// of the merged MDP, whose greedy action a is followed. A pair's K samples are drawn one after
// the other, each as PSRL draws its one (samplePair), and are the aggregate model's entries
// i·K to i·K + K − 1; K = 1 is PSRL, variate for variate.

// maxMergedSamples bounds K: a draw costs K times PSRL's in variates, memory and backups.
const maxMergedSamples = 64

// merged is K, the samples a draw takes of each pair (0 is 1).
func (p PSRLParams) merged() int { return max(1, p.MergedSamples) }

// mergedBackup is pair i's backup in the merged model: the best of its K samples' backups, total
// being Σ v. (solveAggregate calls the one sample's backup itself when K = 1.)
func (l *PSRL) mergedBackup(i int, total float64) float64 {
	m, k := &l.agg, l.P.merged()
	best := math.Inf(-1)
	for j := i * k; j < i*k+k; j++ {
		best = max(best, m.backup(j, l.v, total, l.gamma, l.S))
	}
	return best
}
