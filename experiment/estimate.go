package experiment

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/temple-rl/temple/template"
)

// EstimatedTemplates are the transition templates of a simulator task as far as samples show
// them. A simulator has no table, so its "model" is estimated: the uniformly random policy runs
// Samples steps (episodes chained, each reset drawn from rand.NewPCG(Seed, 0)), and every pair
// with at least MinCount samples gets its empirical next-state distribution, in descending order,
// and its mean reward — an estimated template. Templates closer than Tau are one: leader
// clustering in pair order (a pair joins the first leader within Tau, or leads a new group).
//
// What this measures: a discretized environment is not Markov in its cells, so the estimate is
// of the cell-to-cell kernel under the random policy's visitation, not of a model any policy
// would see. Its error per pair: with n samples and k observed outcomes, ‖p̂ − p‖₁ ≤
// √(2(k ln 2 + ln(1/δ))/n) with probability 1 − δ (Weissman et al. 2003, the bound UCRL2 uses);
// Bound is its largest value over the counted pairs at δ = 0.05 per pair (not a union bound).
// The template distance also adds the reward error, 0 in the classic-control tasks, whose
// per-step reward is constant.
type EstimatedTemplates struct {
	Samples, MinCount int
	Seed              uint64
	Tau               float64
	S, A              int
	// Pairs counts the pairs (of states other than the terminal state) with at least MinCount
	// samples: only they have a template here.
	Pairs int
	// Points are the estimated templates of those pairs, in pair order; Leaders are the templates
	// that lead a group at distance Tau.
	Points  []template.Point
	Leaders []template.Point
	Bound   float64
}

// EstimateTemplates estimates the templates of simulator task t (see EstimatedTemplates).
func EstimateTemplates(t Task, samples, minCount int, tau float64, seed uint64) (EstimatedTemplates, error) {
	switch {
	case t.Sim == nil:
		return EstimatedTemplates{}, fmt.Errorf("task %s has a table: use its true templates", t.Def.Name())
	case samples < 1:
		return EstimatedTemplates{}, fmt.Errorf("samples = %d, want at least 1", samples)
	case minCount < 1:
		return EstimatedTemplates{}, fmt.Errorf("min_count = %d, want at least 1", minCount)
	case !(tau >= 0):
		return EstimatedTemplates{}, fmt.Errorf("tau = %v, want >= 0", tau)
	}
	sim, err := t.Sim.Simulator()
	if err != nil {
		return EstimatedTemplates{}, err
	}
	S, A := sim.Size()
	e := EstimatedTemplates{Samples: samples, MinCount: minCount, Seed: seed, Tau: tau, S: S, A: A}
	rng := rand.New(rand.NewPCG(seed, 0))
	counts := make([]map[int]int, S*A)
	rewards := make([]float64, S*A)
	n := make([]int, S*A)
	terminal := make([]bool, S)
	s, err := sim.Reset(rng)
	if err != nil {
		return e, err
	}
	for range samples {
		a := rng.IntN(A)
		next, r, term, trunc, err := sim.Step(a)
		if err != nil {
			return e, err
		}
		i := s*A + a
		if counts[i] == nil {
			counts[i] = map[int]int{}
		}
		counts[i][next]++
		rewards[i] += r
		n[i]++
		terminal[next] = terminal[next] || term
		s = next
		if term || trunc {
			if s, err = sim.Reset(rng); err != nil {
				return e, err
			}
		}
	}
	var ps []float64
	for i, c := range counts {
		if n[i] < minCount || terminal[i/A] {
			continue
		}
		ps = ps[:0]
		for _, k := range c {
			ps = append(ps, float64(k)/float64(n[i]))
		}
		slices.SortFunc(ps, func(x, y float64) int { return cmp.Compare(y, x) })
		e.Points = append(e.Points, template.Point{P: slices.Clone(ps), R: rewards[i] / float64(n[i])})
		e.Pairs++
		e.Bound = math.Max(e.Bound, weissman(len(c), n[i]))
	}
	e.Leaders = Leaders(e.Points, tau)
	return e, nil
}

// weissman is the L1 deviation bound of an empirical distribution over k outcomes from n samples
// at δ = 0.05.
func weissman(k, n int) float64 {
	return math.Sqrt(2 * (float64(k)*math.Ln2 + math.Log(1/0.05)) / float64(n))
}

// Leaders groups points by leader clustering at distance tau, in order: each point joins the
// first leader within tau or becomes a leader. It returns the leaders.
func Leaders(points []template.Point, tau float64) []template.Point {
	var leaders []template.Point
	for _, g := range points {
		joined := false
		for _, l := range leaders {
			if template.Distance(g, l) <= tau {
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
