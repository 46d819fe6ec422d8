package template

import (
	"fmt"
	"math"
	"slices"

	"github.com/temple-rl/temple/mdp"
)

// Count is a template's visits at one rank.
type Count struct {
	Rank int32 `json:"rank"`
	N    int64 `json:"n"`
}

// Template is a learned transition template with its accumulated visits o_g = (o^(N), o^(R)):
// next-state counts by rank and the reward sum (Algorithm 2). Visits lists the non-zero ranks in
// ascending order; every other rank holds 0.
type Template struct {
	// ID identifies the template for its whole life; it survives consolidation of other templates.
	ID     int     `json:"id"`
	Visits []Count `json:"visits"`
	Reward float64 `json:"reward"`
}

// N is the number of samples the template holds, ‖o^(N)‖₁.
func (t *Template) N() int64 {
	var n int64
	for _, x := range t.Visits {
		n += x.N
	}
	return n
}

// Mean is the template g = o_g / ‖o^(N)‖₁.
func (t *Template) Mean() Point {
	n := float64(t.N())
	g := Point{Rank: make([]int32, len(t.Visits)), P: make([]float64, len(t.Visits)), R: t.Reward / n}
	for j, x := range t.Visits {
		g.Rank[j], g.P[j] = x.Rank, float64(x.N)/n
	}
	return g
}

// Update is TT-update: it adds visits already in rank order (ascending ranks), and their reward
// sum, to the template.
func (t *Template) Update(ranked []Count, reward float64) {
	t.Visits = addCounts(t.Visits, ranked)
	t.Reward += reward
}

// addCounts returns x + y, both in ascending rank order, with the ranks of both.
func addCounts(x, y []Count) []Count {
	out := make([]Count, 0, len(x)+len(y))
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case j == len(y) || i < len(x) && x[i].Rank < y[j].Rank:
			out = append(out, x[i])
			i++
		case i == len(x) || y[j].Rank < x[i].Rank:
			out = append(out, y[j])
			j++
		default:
			out = append(out, Count{Rank: x[i].Rank, N: x[i].N + y[j].N})
			i, j = i+1, j+1
		}
	}
	return out
}

// Augmentation returns σ⁻¹(o^(N)) as successor counts in rank order: the template's k-th rank goes
// to state σ[k] (AUGMENT) — a state the pair has seen, or past those the unseen states in
// ascending order. Ranks beyond the pair's S states cannot be placed and are left out, so the
// counts a pair receives always sum to its added n.
func (t *Template) Augmentation(sigma Sigma) []mdp.Succ {
	state := sigma.stateOf()
	out := make([]mdp.Succ, 0, len(t.Visits))
	for _, x := range t.Visits {
		s, ok := state(x.Rank)
		if !ok {
			break
		}
		out = append(out, mdp.Succ{State: s, N: x.N})
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
func (l *Library) Add(ranked []Count, reward float64) *Template {
	t := &Template{ID: l.nextID, Visits: slices.Clone(ranked), Reward: reward}
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

// Snapshotter is an agent with a template library (O-TempLe, FM-TempLe): the runner writes its
// snapshots to templates/, the C ABI hands them to Python.
type Snapshotter interface {
	TemplateSnapshot() Snapshot
}

// Snapshot is the state of an agent's templates at the end of a task, for pictures and analysis:
// the template each pair was identified with and the library.
type Snapshot struct {
	// Pairs[s*A+a] is the ID of the library template of pair (s, a), −1 if it was not identified.
	Pairs []int `json:"pairs"`
	// Library lists the templates in library order.
	Library []Template `json:"library"`
}
