package template

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// A Sampler is a simulator whose templates are estimated from its samples (env.Simulator is
// one): its size, a reset drawing from rng, and a step that returns the next state, the reward,
// and whether the episode terminated or was truncated.
type Sampler interface {
	Size() (states, actions int)
	Reset(rng *rand.Rand) (int, error)
	Step(action int) (next int, reward float64, terminated, truncated bool, err error)
}

// Estimated are the transition templates of a simulator as far as samples show them. A
// simulator has no table, so its "model" is estimated: the uniformly random policy runs Samples
// steps (episodes chained, each reset drawn from rand.NewPCG(Seed, 0)), and every pair with at
// least MinCount samples gets its empirical next-state distribution, in descending order, and
// its mean reward — an estimated template. Templates closer than Tau are one: leader clustering
// in pair order (a pair joins the first leader within Tau, or leads a new group).
//
// What this measures: a discretized environment is not Markov in its cells, so the estimate is
// of the cell-to-cell kernel under the random policy's visitation, not of a model any policy
// would see. Its error per pair: with n samples and k observed outcomes, ‖p̂ − p‖₁ ≤
// √(2(k ln 2 + ln(1/δ))/n) with probability 1 − δ (Weissman et al. 2003, the bound UCRL2 uses);
// Bound is its largest value over the counted pairs at δ = 0.05 per pair (not a union bound).
// The template distance also adds the reward error, 0 in the classic-control tasks, whose
// per-step reward is constant.
type Estimated struct {
	Samples, MinCount int
	Seed              uint64
	Tau               float64
	S, A              int
	// Pairs counts the pairs (of states other than the terminal state) with at least MinCount
	// samples: only they have a template here.
	Pairs int
	// Points are the estimated templates of those pairs, in pair order; Leaders are the templates
	// that lead a group at distance Tau.
	Points  []Point
	Leaders []Point
	Bound   float64
}

// Estimate estimates the templates of simulator sim (see Estimated).
func Estimate(sim Sampler, samples, minCount int, tau float64, seed uint64) (Estimated, error) {
	switch {
	case samples < 1:
		return Estimated{}, fmt.Errorf("samples = %d, want at least 1", samples)
	case minCount < 1:
		return Estimated{}, fmt.Errorf("min_count = %d, want at least 1", minCount)
	case !(tau >= 0):
		return Estimated{}, fmt.Errorf("tau = %v, want >= 0", tau)
	}
	S, A := sim.Size()
	e := Estimated{Samples: samples, MinCount: minCount, Seed: seed, Tau: tau, S: S, A: A}
	c, err := sampleRandomPolicy(sim, samples, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		return e, err
	}
	var ps []float64
	for i, outcomes := range c.outcomes {
		if c.n[i] < minCount || c.terminal[i/A] {
			continue
		}
		ps = ps[:0]
		for _, k := range outcomes {
			ps = append(ps, float64(k)/float64(c.n[i]))
		}
		slices.SortFunc(ps, func(x, y float64) int { return cmp.Compare(y, x) })
		e.Points = append(e.Points, Point{P: slices.Clone(ps), R: c.rewards[i] / float64(c.n[i])})
		e.Pairs++
		e.Bound = math.Max(e.Bound, weissman(len(outcomes), c.n[i]))
	}
	e.Leaders = Leaders(e.Points, tau)
	return e, nil
}

// sampleCounts are what the random policy's samples saw, by pair s·A + a: how often each next
// state followed, the summed rewards and the sample count; and by state, whether an episode
// terminated on reaching it.
type sampleCounts struct {
	outcomes []map[int]int
	rewards  []float64
	n        []int
	terminal []bool
}

// sampleRandomPolicy counts samples steps of the uniformly random policy on sim, episodes
// chained, resets and actions drawn from rng.
func sampleRandomPolicy(sim Sampler, samples int, rng *rand.Rand) (sampleCounts, error) {
	S, A := sim.Size()
	c := sampleCounts{outcomes: make([]map[int]int, S*A), rewards: make([]float64, S*A), n: make([]int, S*A), terminal: make([]bool, S)}
	s, err := sim.Reset(rng)
	if err != nil {
		return c, err
	}
	for range samples {
		a := rng.IntN(A)
		next, r, term, trunc, err := sim.Step(a)
		if err != nil {
			return c, err
		}
		i := s*A + a
		if c.outcomes[i] == nil {
			c.outcomes[i] = map[int]int{}
		}
		c.outcomes[i][next]++
		c.rewards[i] += r
		c.n[i]++
		c.terminal[next] = c.terminal[next] || term
		s = next
		if term || trunc {
			if s, err = sim.Reset(rng); err != nil {
				return c, err
			}
		}
	}
	return c, nil
}

// weissman is the L1 deviation bound of an empirical distribution over k outcomes from n samples
// at δ = 0.05.
func weissman(k, n int) float64 {
	return math.Sqrt(2 * (float64(k)*math.Ln2 + math.Log(1/0.05)) / float64(n))
}

// Leaders groups points by leader clustering at distance tau, in order: each point joins the
// first leader within tau or becomes a leader. It returns the leaders.
func Leaders(points []Point, tau float64) []Point {
	var leaders []Point
	for _, g := range points {
		joined := false
		for _, l := range leaders {
			if Distance(g, l) <= tau {
				joined = true
				break
			}
		}
		if !joined {
			leaders = append(leaders, g)
		}
	}
	return leaders
}
