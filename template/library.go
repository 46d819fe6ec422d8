package template

import (
	"fmt"
	"math"

	"github.com/temple-rl/temple/mdp"
)

// Template is a learned transition template with its accumulated visits o_g = (o^(N), o^(R)):
// next-state counts in rank order (trailing zeros dropped) and the reward sum (Algorithm 2).
type Template struct {
	// ID identifies the template for its whole life; it survives consolidation of other templates.
	ID     int     `json:"id"`
	Visits []int64 `json:"visits"`
	Reward float64 `json:"reward"`
}

// N is the number of samples the template holds, ‖o^(N)‖₁.
func (t *Template) N() int64 {
	var n int64
	for _, x := range t.Visits {
		n += x
	}
	return n
}

// Mean is the template g = o_g / ‖o^(N)‖₁.
func (t *Template) Mean() Point {
	n := float64(t.N())
	g := Point{P: make([]float64, len(t.Visits)), R: t.Reward / n}
	for k, x := range t.Visits {
		g.P[k] = float64(x) / n
	}
	return g
}

// Update is TT-update: it adds visits already in rank order, and their reward sum, to the template.
func (t *Template) Update(ranked []int64, reward float64) {
	for len(t.Visits) < len(ranked) {
		t.Visits = append(t.Visits, 0)
	}
	for k, x := range ranked {
		t.Visits[k] += x
	}
	t.Reward += reward
}

// Ranked returns counts reordered by σ (rank k holds counts[σ[k]]), trailing zeros dropped.
// With σ = Ranking(counts) this is GEN-TT's descending visit vector.
func Ranked(counts []int64, sigma []int) []int64 {
	out := make([]int64, 0, 4)
	last := 0
	for k, i := range sigma {
		out = append(out, counts[i])
		if counts[i] != 0 {
			last = k + 1
		}
	}
	return out[:last]
}

// Augmentation returns σ⁻¹(o^(N)) as successor counts: the template's k-th rank goes to state σ[k]
// (AUGMENT). Ranks beyond the pair's S states cannot be placed and are left out, so the counts a
// pair receives always sum to its added n.
func (t *Template) Augmentation(sigma []int) []mdp.Succ {
	out := make([]mdp.Succ, 0, len(t.Visits))
	for k, x := range t.Visits {
		if k >= len(sigma) {
			break
		}
		if x != 0 {
			out = append(out, mdp.Succ{State: int32(sigma[k]), N: x})
		}
	}
	return out
}

// Library is the template set G with its visit set O, matched with the user's template gap τ̂.
type Library struct {
	Tau       float64 // τ̂: a template matches within distance τ̂
	templates []*Template
	nextID    int
	absorbed  map[int]int // ID of a consolidated-away template → ID of the template it joined
}

// NewLibrary returns an empty library; τ̂ must be a finite number ≥ 0.
func NewLibrary(tau float64) (*Library, error) {
	if !(tau >= 0) || math.IsInf(tau, 0) {
		return nil, fmt.Errorf("template: tau = %v, want a finite number >= 0", tau)
	}
	return &Library{Tau: tau, absorbed: map[int]int{}}, nil
}

// Len is the number of templates.
func (l *Library) Len() int { return len(l.templates) }

// Templates lists the templates in library order; the slice is owned by the library.
func (l *Library) Templates() []*Template { return l.templates }

// Match returns the template closest to g among those within τ̂ (ρ ≤ τ̂), with its distance; ties
// go to the lowest library index (decision 5). It returns nil when no template is τ̂-close.
func (l *Library) Match(g Point) (*Template, float64) {
	var best *Template
	bestD := math.Inf(1)
	for _, t := range l.templates {
		if d := Distance(g, t.Mean()); d <= l.Tau && d < bestD {
			best, bestD = t, d
		}
	}
	return best, bestD
}

// Add appends a new template holding the given ranked visits and reward sum.
func (l *Library) Add(ranked []int64, reward float64) *Template {
	t := &Template{ID: l.nextID, Visits: append([]int64(nil), ranked...), Reward: reward}
	l.nextID++
	l.templates = append(l.templates, t)
	return t
}

// Get returns the template with the given ID, following consolidation to the template that
// absorbed it; nil if there is none.
func (l *Library) Get(id int) *Template {
	for {
		if to, ok := l.absorbed[id]; ok {
			id = to
			continue
		}
		break
	}
	for _, t := range l.templates {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// Consolidate merges templates closer than τ̂ (ρ < τ̂, decision 4) and returns how many were
// absorbed. Distances are taken between the templates as they were before any merge; visiting i
// in library order, every later template j within τ̂ that is still on its own is added to i once
// and removed. A template that was absorbed absorbs nothing, so every visit stays counted once.
func (l *Library) Consolidate() int {
	n := len(l.templates)
	means := make([]Point, n)
	for i, t := range l.templates {
		means[i] = t.Mean()
	}
	gone := make([]bool, n)
	merged := 0
	for i := 0; i < n; i++ {
		if gone[i] {
			continue
		}
		for j := i + 1; j < n; j++ {
			if gone[j] || Distance(means[i], means[j]) >= l.Tau {
				continue
			}
			l.templates[i].Update(l.templates[j].Visits, l.templates[j].Reward)
			l.absorbed[l.templates[j].ID] = l.templates[i].ID
			gone[j] = true
			merged++
		}
	}
	kept := l.templates[:0]
	for i, t := range l.templates {
		if !gone[i] {
			kept = append(kept, t)
		}
	}
	clear(l.templates[len(kept):])
	l.templates = kept
	return merged
}

// TotalVisits is the number of samples held by all templates together.
func (l *Library) TotalVisits() int64 {
	var n int64
	for _, t := range l.templates {
		n += t.N()
	}
	return n
}

// Snapshot is the state of an agent's templates at the end of a task, for pictures and analysis:
// the template each pair was identified with and the library.
type Snapshot struct {
	// Pairs[s*A+a] is the ID of the library template of pair (s, a), −1 if it was not identified.
	Pairs []int `json:"pairs"`
	// Library lists the templates in library order.
	Library []Template `json:"library"`
}
