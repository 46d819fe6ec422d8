package measures

import (
	"math"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// chainWith is the chain of chain() with its state-1 "go" falling back with probability q.
func chainWith(t *testing.T, q float64) *mdp.Model {
	t.Helper()
	m, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1}}, {{Next: 1, Prob: 0.5}, {Next: 0, Prob: 0.5}},
		{{Next: 1, Prob: 1, Reward: 1}}, {{Next: 0, Prob: q}, {Next: 1, Prob: 1 - q}},
	}, []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The sequence chain, ring, chain by hand.
// Models: 2 (the ring has 3 states, the chain 2), the chain twice: occurrences [2 1], one task of
// 3 recurring. No two distinct models have the same size: Γ = +Inf, and no consecutive tasks
// either: not the same size, index agreement NaN.
// Templates (probabilities by rank; reward): the chain has g1 = ([1]; 0) for (0, stay),
// g2 = ([½ ½]; 0) for (0, go), g3 = ([1]; 1) for (1, stay), g4 = ([¾ ¼]; 0) for (1, go). The
// ring's stays are g3 in state 0 and g1 elsewhere; its clockwise moves are ([½ ½]; ½) in states 0
// and 2 (half the moves land in 0) — a fifth template g5 — and g2 in state 1. G = 5.
// τ: ρ(g1, g4) = ρ(g2, g4) = ‖(¼, −¼)‖₂ = √2/4 = 0.353553 is the least (ρ(g2, g5) = ½,
// ρ(g1, g2) = √2/2, ρ(g1, g3) = 1, …).
// ν: the chain's [1 0] and [¾ ¼] give 1 and ½, [½ ½] nothing; the ring's [½ ½ 0] gives ½: ν = ½.
// S·A/G: the tasks have 4, 6 and 4 pairs, 14/3 on average, over 5 templates: 14/15.
func TestTransferOfChainRingChainByHand(t *testing.T) {
	tr := TransferOf([]*mdp.Model{chain(t), ring(t), chain(t)})
	if tr.Tasks != 3 || tr.Models != 2 || len(tr.Occurrences) != 2 || tr.Occurrences[0] != 2 || tr.Occurrences[1] != 1 {
		t.Errorf("%d tasks, %d models, occurrences %v; want 3, 2, [2 1]", tr.Tasks, tr.Models, tr.Occurrences)
	}
	if !near(tr.Recurring, 1.0/3, 1e-15) || !math.IsInf(tr.ModelGap, 1) || tr.SameSize || !math.IsNaN(tr.IndexAgreement) {
		t.Errorf("recurring %v, Γ %v, same size %v, index agreement %v; want 1/3, +Inf, false, NaN",
			tr.Recurring, tr.ModelGap, tr.SameSize, tr.IndexAgreement)
	}
	if tr.Templates != 5 || !near(tr.TemplateGap, math.Sqrt2/4, 1e-12) || !near(tr.RankingGap, 0.5, 1e-12) ||
		!near(tr.PairsPerTemplate, 14.0/15, 1e-12) {
		t.Errorf("G = %d, τ = %v, ν = %v, S·A/G = %v; want 5, √2/4, 1/2, 14/15", tr.Templates, tr.TemplateGap, tr.RankingGap, tr.PairsPerTemplate)
	}
}

// The sequence chain, chain′, chain, where chain′ falls back from state 1 with probability ½
// instead of ¼, by hand.
// Models: 2, occurrences [2 1]. Γ: only (1, go) differs, ‖(¼, −¼)‖₂ = √2/4, rewards equal.
// Same size; consecutive tasks agree on 3 of their 4 pairs, both times: index agreement ¾.
// Templates: chain′'s (1, go) is ([½ ½]; 0) = g2, so G = 4 and τ = √2/4 (ρ(g1, g4)); S·A/G = 1;
// ν: [1 0] gives 1, [¾ ¼] gives ½, [½ ½] nothing: ½.
func TestTransferOfTwoChainsByHand(t *testing.T) {
	models := []*mdp.Model{chain(t), chainWith(t, 0.5), chain(t)}
	tr := TransferOf(models)
	if tr.Models != 2 || tr.Occurrences[0] != 2 || tr.Occurrences[1] != 1 || !tr.SameSize || !near(tr.IndexAgreement, 0.75, 1e-15) {
		t.Errorf("%d models %v, same size %v, index agreement %v; want 2 [2 1], true, 3/4", tr.Models, tr.Occurrences, tr.SameSize, tr.IndexAgreement)
	}
	if !near(tr.ModelGap, math.Sqrt2/4, 1e-12) || tr.ModelGap != mdp.ModelGap(models) {
		t.Errorf("Γ = %v, want √2/4 and exactly mdp.ModelGap's %v", tr.ModelGap, mdp.ModelGap(models))
	}
	if tr.Templates != 4 || !near(tr.TemplateGap, math.Sqrt2/4, 1e-12) || !near(tr.PairsPerTemplate, 1, 1e-15) || !near(tr.RankingGap, 0.5, 1e-12) {
		t.Errorf("G = %d, τ = %v, S·A/G = %v, ν = %v; want 4, √2/4, 1, 1/2", tr.Templates, tr.TemplateGap, tr.PairsPerTemplate, tr.RankingGap)
	}
}

// The chain with its two states' indices swapped is another model with the same templates: a
// template learner transfers everything, an index-based one half. By hand: the stays are
// self-loops in both (they agree; rewards aside), the two "go" rows differ: agreement ½.
func TestTransferOfAShuffledChain(t *testing.T) {
	swapped, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1, Reward: 1}}, {{Next: 1, Prob: 0.25}, {Next: 0, Prob: 0.75}},
		{{Next: 1, Prob: 1}}, {{Next: 0, Prob: 0.5}, {Next: 1, Prob: 0.5}},
	}, []float64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	tr := TransferOf([]*mdp.Model{chain(t), swapped})
	if tr.Models != 2 || tr.Templates != 4 || !near(tr.IndexAgreement, 0.5, 1e-15) || !near(tr.Recurring, 0, 0) {
		t.Errorf("%d models, G = %d, index agreement %v, recurring %v; want 2, 4, 1/2, 0", tr.Models, tr.Templates, tr.IndexAgreement, tr.Recurring)
	}
}

func TestTransferOfNoTasks(t *testing.T) {
	if tr := TransferOf(nil); tr.Tasks != 0 || tr.Models != 0 || !math.IsNaN(tr.IndexAgreement) {
		t.Errorf("no tasks: %+v", tr)
	}
}

// A family's measures: the chain's hardness is computed once for its two tasks, and the
// summaries are over the three tasks (spans 4/3, 14/9, 4/3: mean 38/27).
func TestFamilyOfChainRingChain(t *testing.T) {
	f, err := FamilyOf([]*mdp.Model{chain(t), ring(t), chain(t)}, 0.5, DiameterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tasks) != 3 || f.Tasks[0] != f.Tasks[2] || f.Transfer.Models != 2 || f.DiameterSampled {
		t.Fatalf("family %+v", f)
	}
	if s := f.ValueSpan; !near(s.Mean, 38.0/27, 1e-8) || !near(s.Min, 4.0/3, 1e-8) || !near(s.Max, 14.0/9, 1e-8) {
		t.Errorf("span %+v, want mean 38/27, least 4/3, largest 14/9", s)
	}
	if d := f.Diameter; !near(d.Mean, 4, 1e-6) || !near(d.Max, 4, 1e-6) {
		t.Errorf("diameter %+v, want 4 for every task", d)
	}
	if s := f.MinGap; !near(s.Min, 2.0/9, 1e-8) || !near(s.Max, 1.0/3, 1e-8) {
		t.Errorf("least gap %+v, want 2/9 (the ring) to 1/3 (the chain)", s)
	}
	if _, err := FamilyOf(nil, 0.5, DiameterOptions{}); err == nil {
		t.Error("a family of no tasks accepted")
	}
	if _, err := FamilyOf([]*mdp.Model{chain(t), corridor(t, ExactStates+1)}, 0.5, DiameterOptions{}); err == nil || err.Error()[:7] != "task 1:" {
		t.Errorf("a task too large for the exact diameter: %v, want an error naming task 1", err)
	}
}
