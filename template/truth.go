package template

import (
	"math"

	"github.com/temple-rl/temple/mdp"
)

// sameTemplate is the distance below which two exact templates are one: it absorbs rounding in
// probabilities built by different sums (1−0.2 against 0.6+0.2).
const sameTemplate = 1e-9

// Truth is the ground-truth template structure of a known model. Pairs of terminal states are
// left out: an episode ends there, so they are never experienced.
type Truth struct {
	S, A int
	// Pairs is the number of state-action pairs of states that are not terminal.
	Pairs int
	// Templates are the distinct templates G, in order of first appearance by pair index.
	Templates []Point
	// PairTemplate[s*A+a] is the index in Templates of the template of (s, a), −1 for a terminal
	// state.
	PairTemplate []int
	// Sigma[s*A+a] is the ranking permutation of p(·|s,a) over all S states (nil for a terminal
	// state).
	Sigma [][]int
	// Gap is the template gap τ: the smallest distance between two distinct templates
	// (+Inf when there is only one).
	Gap float64
	// RankingGap is ν (paper Definition 8): the smallest difference between two adjacent, unequal
	// elements of a template's probability vector over all S states (+Inf when there is none).
	RankingGap float64
}

// OfModel computes the ground-truth templates, permutations and gaps of m.
func OfModel(m *mdp.Model) Truth {
	t := Truth{S: m.S, A: m.A, PairTemplate: make([]int, m.S*m.A), Sigma: make([][]int, m.S*m.A),
		RankingGap: math.Inf(1)}
	dense := make([]float64, m.S)
	for s := 0; s < m.S; s++ {
		if m.Terminal(s) {
			for a := 0; a < m.A; a++ {
				t.PairTemplate[s*m.A+a] = -1
			}
			continue
		}
		t.Pairs += m.A
		for a := 0; a < m.A; a++ {
			clear(dense)
			for _, tr := range m.Row(s, a) {
				dense[tr.Next] = tr.Prob
			}
			i := s*m.A + a
			t.Sigma[i] = Ranking(dense)
			g := Point{R: m.ExpectedReward(s, a)}
			for _, j := range t.Sigma[i] {
				if dense[j] == 0 {
					break
				}
				g.P = append(g.P, dense[j])
			}
			t.PairTemplate[i] = t.index(g)
			for k := 0; k+1 < m.S; k++ {
				if d := dense[t.Sigma[i][k]] - dense[t.Sigma[i][k+1]]; d > sameTemplate && d < t.RankingGap {
					t.RankingGap = d
				}
			}
		}
	}
	t.Gap = MinDistance(t.Templates)
	return t
}

// index returns the index of g among the known templates, adding it if it is new.
func (t *Truth) index(g Point) int {
	for k, h := range t.Templates {
		if Distance(g, h) <= sameTemplate {
			return k
		}
	}
	t.Templates = append(t.Templates, g)
	return len(t.Templates) - 1
}

// Nearest returns the index of the template in t closest to g and its distance; ties go to the
// lowest index.
func (t *Truth) Nearest(g Point) (int, float64) {
	best, bestD := -1, math.Inf(1)
	for k, h := range t.Templates {
		if d := Distance(g, h); d < bestD {
			best, bestD = k, d
		}
	}
	return best, bestD
}

// Distinct returns the distinct templates among gs — equal within rounding — in order of first
// appearance.
func Distinct(gs []Point) []Point {
	var t Truth
	for _, g := range gs {
		t.index(g)
	}
	return t.Templates
}

// MinDistance is the smallest distance between two of gs (the template gap τ when gs are
// distinct), +Inf with fewer than two.
func MinDistance(gs []Point) float64 {
	gap := math.Inf(1)
	for i := range gs {
		for j := i + 1; j < len(gs); j++ {
			gap = math.Min(gap, Distance(gs[i], gs[j]))
		}
	}
	return gap
}
