package learners

import (
	"math"

	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/mdp"
)

// aggregateModel is a model of aggregate sampling: each pair's reward, its observed successors
// with their sampled probabilities, and the mass rest spread evenly over its other next states.
type aggregateModel struct {
	start []int32     // pair i's successors are succ[start[i]:start[i+1]]
	succ  []aggregate // in the order of the pair's counts
	r     []float64   // r̃(s,a)
	// rest[i] is the mass of the states pair i has not reached; 1 for a pair without successors
	// (it moves uniformly), 0 for a terminal state's pairs.
	rest []float64
}

// aggregate is one observed successor of a pair and its sampled probability.
type aggregate struct {
	p float64
	s int32
}

// reset empties the model for the pairs of a new draw.
func (m *aggregateModel) reset() {
	m.start = append(m.start[:0], 0)
	m.succ, m.r, m.rest = m.succ[:0], m.r[:0], m.rest[:0]
}

// backup is pair i's backup r̃ + γ·(Σ p̃(s′)·v(s′) over its observed successors + its rest's mass
// times the mean value of the others), total being Σ v over the S states. A pair without
// successors has rest 1: its backup is r̃ + γ·total/S.
func (m *aggregateModel) backup(i int, v []float64, total, gamma float64, S int) float64 {
	succ := m.succ[m.start[i]:m.start[i+1]]
	if len(succ) == 0 {
		// As the general case computes it for rest = 1 and no successor, rounding included.
		return m.r[i] + gamma*(0.0+total/float64(S))
	}
	x := 0.0
	if r := m.rest[i]; r > 0 {
		seen := 0.0
		for _, e := range succ {
			w := v[e.s]
			x += e.p * w
			seen += w
		}
		x += r * (total - seen) / float64(S-len(succ))
	} else {
		for _, e := range succ {
			x += e.p * v[e.s]
		}
	}
	return m.r[i] + gamma*x
}

// sampleAggregate draws a model from the posterior into agg (aggregate sampling): per pair in
// index order, its mean reward, then a Gamma(α₀ + n(s,a,s′)) variate for each next state s′ it
// has reached and, unless the prior's support is the observed states and the pair has samples,
// one Gamma((S − k)·α₀) for the k states it has not reached, together; normalised, the last is
// the mass spread evenly over those states. A pair without samples moves uniformly (its whole
// mass is the rest's). Terminal states' pairs have no successor and no reward.
func (l *PSRL) sampleAggregate() {
	p := l.P
	prior := 1 / (p.RewardSD * p.RewardSD)
	noise := l.noisePrecision()
	m := &l.agg
	m.reset()
	k := l.P.merged()
	for i := 0; i < l.S*l.A; i++ {
		for range k { // merged_samples: pair i's K samples are the model's entries i·K to i·K + K − 1
			l.samplePair(m, i, prior, noise)
		}
	}
}

// samplePair appends pair i's draw to m, as sampleAggregate describes; prior and noise are
// 1/σ₀² and 1/σ² (sampleReward).
func (l *PSRL) samplePair(m *aggregateModel, i int, prior, noise float64) {
	p := l.P
	if l.terminal != nil && l.terminal[i/l.A] {
		m.r = append(m.r, 0) // an episode ends here: Q = 0
		m.rest = append(m.rest, 0)
		m.start = append(m.start, int32(len(m.succ)))
		return
	}
	m.r = append(m.r, l.sampleReward(i, prior, noise))
	at, total := len(m.succ), 0.0
	for _, x := range l.stats.Counts().Successors(i) {
		if x.N > 0 {
			g := gammaVariate(l.rng, p.Prior+float64(x.N))
			m.succ = append(m.succ, aggregate{p: g, s: int32(x.State)})
			total += g
		}
	}
	rest := 1.0
	if k := len(m.succ) - at; k > 0 {
		rest = 0
		if p.PriorSupport != ObservedStates && k < l.S {
			rest = gammaVariate(l.rng, float64(l.S-k)*p.Prior)
		}
		total += rest
		for j := at; j < len(m.succ); j++ {
			m.succ[j].p /= total
		}
		rest /= total
	}
	m.start = append(m.start, int32(len(m.succ)))
	m.rest = append(m.rest, rest)
}

// solveAggregate solves the model of aggregate sampling by Gauss–Seidel value iteration,
// warm-started from the last sample's values, until no value moves by more than the stop of
// plan_tolerance, or sooner, as soon as the greedy policy is certain: after a sweep in which no
// value moved by more than Δ, every value the sweep read was within Δ/(1−γ) of V*, so every q it
// computed is within γΔ/(1−γ) of Q*, and where the best q of each state leads its others by more
// than twice that, the greedy actions are the optimal ones (the actions a solve to any tolerance
// would take, but for near-ties within its tolerance). Between two such sweeps over every action,
// policySweeps sweeps back up only each state's greedy action of the last one (modified policy
// iteration): they cost 1/A of a sweep and move the values towards V* as much, and the bound
// holds after any sweep over every action, whatever values it starts from. q holds the backups of
// the last sweep over every action. A pair's backup reads the mean value of the states it has not
// reached from the sum of all values, kept up to date as they move.
func (l *PSRL) solveAggregate() {
	S, A, g, m, k := l.S, l.A, l.gamma, &l.agg, l.P.merged()
	stop := mdp.StopFor(g, l.P.PlanTolerance)
	l.pol = buf.Zeroed(l.pol, S) // the greedy actions of the last sweep over every action
	for sweep := 0; sweep < maxPlanSweeps; sweep++ {
		total := l.valueSum()
		delta, gap := 0.0, math.Inf(1) // the largest move, the smallest lead of a best action
		for s := 0; s < S; s++ {
			q := l.q[s*A : s*A+A]
			if l.terminal != nil && l.terminal[s] {
				clear(q)
				total -= l.v[s]
				delta = max(delta, math.Abs(l.v[s]))
				l.v[s] = 0
				continue
			}
			best, second := math.Inf(-1), math.Inf(-1)
			for a := range q {
				var x float64
				if k == 1 {
					x = m.backup(s*A+a, l.v, total, g, S)
				} else {
					x = l.mergedBackup(s*A+a, total)
				}
				q[a] = x
				if x > best {
					best, second = x, best
					l.pol[s] = a
				} else if x > second {
					second = x
				}
			}
			d := best - l.v[s]
			total += d
			delta = max(delta, math.Abs(d))
			gap = min(gap, best-second)
			l.v[s] = best
		}
		if delta <= stop || gap > 2*g*delta/(1-g) {
			return
		}
		for range policySweeps {
			total := l.valueSum()
			for s := 0; s < S; s++ {
				if l.terminal == nil || !l.terminal[s] {
					var x float64
					if k == 1 {
						x = m.backup(s*A+l.pol[s], l.v, total, g, S)
					} else {
						x = l.mergedBackup(s*A+l.pol[s], total)
					}
					total += x - l.v[s]
					l.v[s] = x
				}
			}
		}
	}
}

// policySweeps is the number of sweeps over the greedy actions alone between two sweeps over
// every action (solveAggregate).
const policySweeps = 3

// valueSum is Σ v, summed afresh each sweep so that the rounding of its updates does not build up.
func (l *PSRL) valueSum() float64 {
	total := 0.0
	for _, x := range l.v {
		total += x
	}
	return total
}
