package measures

import (
	"fmt"
	"math"
	"slices"

	"github.com/temple-rl/temple/mdp"
)

// GapRegularization is the constant Colosseum adds to each gap in its sum of reciprocals,
// Σ 1/(Δ(s,a) + 0.1), so that optimal pairs (Δ = 0) count 10 each instead of infinity.
const GapRegularization = 0.1

// valueTolerance is how close to V* the optimal values are computed (mdp.ValueIteration); a gap
// within zeroGap of 0 is an optimal action's.
const (
	valueTolerance = 1e-10
	zeroGap        = 1e-8
)

// Hardness are Colosseum's hardness measures of one task (Conserva & Rauber, NeurIPS 2022), on
// the optimal values with discount γ over the reachable states that are not terminal (a terminal
// state has no action and value 0).
type Hardness struct {
	// Diameter is the diameter D with the pair that attains it (DiameterOf).
	Diameter Diameter
	// ValueSpan is sp(V*) = max_s V*(s) − min_s V*(s): the range of the optimal values, the
	// quantity of span-based regret bounds (Bartlett & Tewari 2009, with the bias there in place
	// of V* here).
	ValueSpan float64
	// ValueNorm is the environmental value norm (Maillard, Mann & Mannor 2014; Colosseum's
	// value_norm): the largest, over the pairs, of the standard deviation of V*(s′) for s′ drawn
	// from p(·|s,a), max_{s,a} √(Σ_s′ p(s′|s,a)·(V*(s′) − Σ_x p(x|s,a)·V*(x))²). 0 for a
	// deterministic model.
	ValueNorm float64
	// SumReciprocalGaps is Colosseum's Σ_{s,a} 1/(Δ(s,a) + GapRegularization) over the pairs, of
	// the suboptimality gaps Δ(s,a) = V*(s) − Q*(s,a); optimal pairs included.
	SumReciprocalGaps float64
	// MinGap is the least positive gap Δ_min of gap-dependent regret bounds; +Inf when every
	// action of every state is optimal. MedianGap is the median of the positive gaps (+Inf when
	// there is none); SuboptimalPairs the share of the pairs with a positive gap.
	MinGap, MedianGap, SuboptimalPairs float64
	// Pairs is the number of pairs measured: the reachable states that are not terminal, times A.
	Pairs int
}

// HardnessOf computes the hardness measures of m with discount gamma; the diameter with opt.
func HardnessOf(m *mdp.Model, gamma float64, opt DiameterOptions) (Hardness, error) {
	d, err := DiameterOf(m, opt)
	if err != nil {
		return Hardness{}, err
	}
	sol, err := mdp.ValueIteration(m, gamma, valueTolerance)
	if err != nil {
		return Hardness{}, fmt.Errorf("measures: %w", err)
	}
	h := Hardness{Diameter: d}
	lo, hi := math.Inf(1), math.Inf(-1)
	var gaps []float64
	for s, r := range reachable(m) {
		if !r || m.Terminal(s) {
			continue
		}
		lo, hi = math.Min(lo, sol.V[s]), math.Max(hi, sol.V[s])
		for a := 0; a < m.A; a++ {
			i := s*m.A + a
			h.Pairs++
			h.ValueNorm = math.Max(h.ValueNorm, nextValueSD(m, i, sol.V))
			gap := sol.V[s] - sol.Q[i]
			if gap <= zeroGap {
				gap = 0
			}
			h.SumReciprocalGaps += 1 / (gap + GapRegularization)
			if gap > 0 {
				gaps = append(gaps, gap)
			}
		}
	}
	if h.Pairs > 0 {
		h.ValueSpan = hi - lo
		h.SuboptimalPairs = float64(len(gaps)) / float64(h.Pairs)
	}
	h.MinGap, h.MedianGap = math.Inf(1), math.Inf(1)
	if len(gaps) > 0 {
		slices.Sort(gaps)
		h.MinGap = gaps[0]
		h.MedianGap = median(gaps)
	}
	return h, nil
}

// nextValueSD is the standard deviation of V*(s′) for s′ ~ p(·|s,a) of pair i.
func nextValueSD(m *mdp.Model, i int, v []float64) float64 {
	mean := 0.0
	for k := m.Start[i]; k < m.Start[i+1]; k++ {
		mean += m.Prob[k] * v[m.Next[k]]
	}
	variance := 0.0
	for k := m.Start[i]; k < m.Start[i+1]; k++ {
		d := v[m.Next[k]] - mean
		variance += m.Prob[k] * d * d
	}
	return math.Sqrt(variance)
}

// median is the median of sorted xs (the mean of the middle two when their number is even).
func median(xs []float64) float64 {
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
