package template

import (
	"math"
	"slices"
	"testing"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

func TestRankingTiesKeepStateOrder(t *testing.T) {
	// Largest first; the two 3s keep ascending state order (paper Definition 7), and the unseen
	// states 1 and 4 follow in ascending order.
	sigma, _ := Ranking([]mdp.Succ{{State: 3, N: 3}, {State: 2, N: 9}, {State: 0, N: 3}}, 5)
	want := []int32{2, 0, 3, 1, 4}
	for k, s := range want {
		if r := sigma.Rank(s); r != int32(k) {
			t.Errorf("σ⁻¹(%d) = %d, want %d", s, r, k)
		}
	}
}

func TestDistanceHandComputed(t *testing.T) {
	a := Point{P: []float64{0.8, 0.2}, R: 0}
	b := Point{P: []float64{0.6, 0.2, 0.2}, R: 0}
	// Zero-padding a: (0.8, 0.2, 0) − (0.6, 0.2, 0.2) = (0.2, 0, −0.2): √0.08.
	if d := Distance(a, b); math.Abs(d-math.Sqrt(0.08)) > 1e-15 || Distance(b, a) != d {
		t.Errorf("ρ = %v, want √0.08 both ways", d)
	}
	c := Point{P: []float64{1}, R: -0.2}
	e := Point{P: []float64{0.9, 0.1}, R: 0.3}
	if d := Distance(c, e); math.Abs(d-(math.Sqrt(0.02)+0.5)) > 1e-15 {
		t.Errorf("ρ = %v, want √0.02 + 0.5", d)
	}
	if d := Distance(a, a); d != 0 {
		t.Errorf("ρ(g, g) = %v", d)
	}
}

func TestTruthAppendixA(t *testing.T) {
	// Paper Appendix A: a 5×5 grid with slip 0.4 and no reward has 100 pairs but two templates,
	// ([0.8, 0.2], 0) and ([0.6, 0.2, 0.2], 0), at distance 0.28.
	slip := make([]float64, 25)
	for i := range slip {
		slip[i] = 0.4
	}
	mz := &env.Maze{Width: 5, Height: 5, Slip: slip, Actions: 4}
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	tr := OfModel(m)
	if len(tr.PairTemplate) != 100 || len(tr.Templates) != 2 {
		t.Fatalf("%d pairs, %d templates; want 100 and 2", len(tr.PairTemplate), len(tr.Templates))
	}
	if math.Abs(tr.Gap-math.Sqrt(0.08)) > 1e-12 {
		t.Errorf("template gap τ = %v, want √0.08 ≈ 0.283", tr.Gap)
	}
	if math.Abs(tr.RankingGap-0.2) > 1e-12 {
		t.Errorf("ranking gap ν = %v, want 0.2", tr.RankingGap)
	}
	// The corner (1,1) pushing down (into the border) keeps 0.8; its template is the first one.
	corner := mz.Index(env.Cell{X: 1, Y: 1})*4 + env.Down
	if g := tr.Templates[tr.PairTemplate[corner]]; !slices.Equal(roundAll(g.P), []float64{0.8, 0.2}) {
		t.Errorf("corner template %v, want [0.8 0.2]", g.P)
	}
	if k, d := tr.Nearest(Point{P: []float64{0.62, 0.2, 0.18}}); tr.Templates[k].P[0] > 0.7 || d > 0.03 {
		t.Errorf("nearest to a noisy interior template: %v at %v", tr.Templates[k], d)
	}
}

func roundAll(p []float64) []float64 {
	out := make([]float64, len(p))
	for i, x := range p {
		out[i] = math.Round(x*1e9) / 1e9
	}
	return out
}
