package template

import (
	"slices"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// desc is dense visits by rank (zeros allowed) as the sparse visits a template holds.
func desc(visits ...int64) []Count {
	var out []Count
	for k, n := range visits {
		if n != 0 {
			out = append(out, Count{Rank: int32(k), N: n})
		}
	}
	return out
}

func newLib(t *testing.T, tau float64) *Library {
	t.Helper()
	l, err := NewLibrary(tau)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLibraryMatchClosestWithinTau(t *testing.T) {
	l := newLib(t, 0.15)
	a := l.Add(desc(80, 20), 0)     // (0.8, 0.2)
	b := l.Add(desc(60, 20, 20), 0) // (0.6, 0.2, 0.2)
	_ = l.Add(desc(100), -20)       // (1), reward −0.2
	if got, _ := l.Match(Point{P: []float64{0.78, 0.22}}); got != a {
		t.Errorf("match = %v, want template %d", got, a.ID)
	}
	// (0.5, 0.375, 0.125) is exactly as far from (0.5, 0.5) as from (0.5, 0.25, 0.25) (binary
	// fractions, no rounding): the lower library index wins.
	ties := newLib(t, 0.5)
	first := ties.Add(desc(2, 2), 0)
	ties.Add(desc(2, 1, 1), 0)
	if got, _ := ties.Match(Point{P: []float64{0.5, 0.375, 0.125}}); got != first {
		t.Errorf("tie went to %v, want the lowest index %d", got, first.ID)
	}
	// Exactly τ̂ away still matches (ρ ≤ τ̂); farther does not.
	if got, _ := l.Match(Point{P: []float64{0.6, 0.2, 0.2}, R: 0.15}); got != b {
		t.Errorf("a template exactly τ̂ away did not match: %v", got)
	}
	if got, _ := l.Match(Point{P: []float64{0.6, 0.2, 0.2}, R: 0.2}); got != nil {
		t.Errorf("a template 0.2 away matched %v", got)
	}
	if _, err := NewLibrary(-1); err == nil {
		t.Error("negative τ̂ accepted")
	}
}

func TestRankedAndAugmentationConserveCounts(t *testing.T) {
	counts := []mdp.Succ{{State: 3, N: 3}, {State: 0, N: 3}, {State: 2, N: 9}}
	sigma, ranked := Ranking(counts, 5)
	if !slices.Equal(sigma.Top, []int32{2, 0, 3}) || !slices.Equal(ranked, desc(9, 3, 3)) {
		t.Errorf("GEN-TT σ %v visits %v, want [2 0 3] and [9 3 3]", sigma.Top, ranked)
	}
	// The remainder of a pair is ranked by the pair's own σ even if it is not descending; state 1
	// was not seen, so it ranks first among the unseen states 1 and 4.
	if got := sigma.Ranked([]mdp.Succ{{State: 3, N: 4}, {State: 0, N: 1}, {State: 1, N: 2}}); !slices.Equal(got, desc(0, 1, 4, 2)) {
		t.Errorf("remainder by σ = %v, want [0 1 4 2]", got)
	}
	tm := &Template{Visits: desc(90, 7, 3, 0, 1), Reward: -4}
	aug := tm.Augmentation(sigma)
	want := []mdp.Succ{{State: 2, N: 90}, {State: 0, N: 7}, {State: 3, N: 3}, {State: 4, N: 1}}
	if !slices.Equal(aug, want) {
		t.Errorf("σ⁻¹(o) = %v, want %v", aug, want)
	}
	// A template longer than the pair's state space loses only ranks that cannot be placed.
	long := &Template{Visits: desc(5, 4, 3)}
	two, _ := Ranking([]mdp.Succ{{State: 1, N: 1}}, 2)
	if got := long.Augmentation(two); !slices.Equal(got, []mdp.Succ{{State: 1, N: 5}, {State: 0, N: 4}}) {
		t.Errorf("truncated augmentation %v", got)
	}
}

func TestTTUpdateExtendsAndAdds(t *testing.T) {
	tm := &Template{Visits: desc(8, 2), Reward: 1}
	tm.Update(desc(5, 3, 2), 0.5)
	if !slices.Equal(tm.Visits, desc(13, 5, 2)) || tm.Reward != 1.5 || tm.N() != 20 {
		t.Errorf("after TT-update %v reward %v", tm.Visits, tm.Reward)
	}
	g := tm.Mean()
	if !slices.Equal(g.P, []float64{0.65, 0.25, 0.1}) || g.R != 0.075 {
		t.Errorf("mean %v", g)
	}
}

func TestConsolidateConservesVisits(t *testing.T) {
	l := newLib(t, 0.15)
	a := l.Add(desc(80, 20), 0)
	b := l.Add(desc(60, 20, 20), 0)
	c := l.Add(desc(78, 22), 0)        // 0.028 from a
	d := l.Add(desc(84, 16), 0)        // close to a and c
	e := l.Add(desc(600, 200, 199), 0) // close to b
	before := l.TotalVisits()
	if merged := l.Consolidate(); merged != 3 {
		t.Fatalf("merged %d templates, want 3", merged)
	}
	if l.TotalVisits() != before {
		t.Fatalf("consolidation changed the visits: %d → %d", before, l.TotalVisits())
	}
	if l.Len() != 2 || l.Templates()[0] != a || l.Templates()[1] != b {
		t.Fatalf("library after consolidation: %v", l.Templates())
	}
	if !slices.Equal(a.Visits, desc(242, 58)) || !slices.Equal(b.Visits, desc(660, 220, 219)) {
		t.Errorf("merged visits a=%v b=%v", a.Visits, b.Visits)
	}
	for _, gone := range []*Template{c, d} {
		if l.Get(gone.ID) != a {
			t.Errorf("template %d does not resolve to the one that absorbed it", gone.ID)
		}
	}
	if l.Get(e.ID) != b || l.Get(99) != nil {
		t.Error("Get does not follow consolidation")
	}
}
