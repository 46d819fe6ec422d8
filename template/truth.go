package template

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"

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
	// Gap is the template gap τ: the smallest distance between two distinct templates
	// (+Inf when there is only one).
	Gap float64
	// RankingGap is ν (paper Definition 8): the smallest difference between two adjacent, unequal
	// elements of a template's probability vector over all S states (+Inf when there is none).
	RankingGap float64
}

// OfModel computes the ground-truth templates and gaps of m — a stored model or one computed on
// demand — from each pair's outcomes only (a pair's reward is mdp.RowReward of its row, the
// expected reward a stored model holds).
func OfModel(m mdp.Dynamics) Truth {
	S, A := m.Size()
	t := Truth{S: S, A: A, PairTemplate: make([]int, S*A), RankingGap: math.Inf(1)}
	// Pairs with bit-identical templates get the same index and the same ν terms: index(g) only
	// appends, so its first match for g never changes. Most pairs of a model repeat a few rows.
	seen := map[string]int{}
	var key []byte
	var transitions []mdp.Transition
	var row []outcome
	for s := 0; s < S; s++ {
		if m.Terminal(s) {
			for a := 0; a < A; a++ {
				t.PairTemplate[s*A+a] = -1
			}
			continue
		}
		t.Pairs += A
		for a := 0; a < A; a++ {
			i := s*A + a
			// p(·|s,a) in descending order, equal probabilities by ascending state (Definition 7).
			transitions = m.AppendRow(transitions[:0], i)
			row = row[:0]
			for _, tr := range transitions {
				row = append(row, outcome{tr.Prob, int32(tr.Next)})
			}
			r := mdp.RowReward(transitions)
			slices.SortFunc(row, outcome.compare)
			key = binary.LittleEndian.AppendUint64(key[:0], math.Float64bits(r))
			for _, o := range row {
				key = binary.LittleEndian.AppendUint64(key, math.Float64bits(o.p))
			}
			if k, ok := seen[string(key)]; ok {
				t.PairTemplate[i] = k
				continue
			}
			g := Point{P: make([]float64, len(row)), R: r}
			for k, o := range row {
				g.P[k] = o.p
			}
			t.PairTemplate[i] = t.index(g)
			seen[string(key)] = t.PairTemplate[i]
			// ν over all S states: adjacent outcomes, then the smallest outcome against the zeros
			// of the unreachable states, if there are any.
			for k := 0; k < len(g.P); k++ {
				next := 0.0
				if k+1 < len(g.P) {
					next = g.P[k+1]
				} else if len(g.P) == S {
					break
				}
				if d := g.P[k] - next; d > sameTemplate && d < t.RankingGap {
					t.RankingGap = d
				}
			}
		}
	}
	t.Gap = MinDistance(t.Templates)
	return t
}

// outcome is one next state of a pair with its probability.
type outcome struct {
	p    float64
	next int32
}

// compare orders outcomes by descending probability, then ascending state.
func (x outcome) compare(y outcome) int {
	if c := cmp.Compare(y.p, x.p); c != 0 {
		return c
	}
	return cmp.Compare(x.next, y.next)
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

// Include adds to t.Templates those of gs that are not already there (within rounding), in
// order: the cost grows with len(gs) × len(t.Templates), not with the square of all templates.
func (t *Truth) Include(gs ...Point) {
	for _, g := range gs {
		t.index(g)
	}
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
	t.Include(gs...)
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
