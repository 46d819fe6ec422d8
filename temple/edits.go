package temple

import "math"

// HybridPrior's edits (edit_share β and change_rate ρ, decision 57): a new model may be an
// earlier model of the task's size, k, with some of its pairs changed. Under the edit of k each
// pair at which k holds a dish keeps that dish with probability 1 − ρ, independently, and is
// otherwise drawn from G₀ (the dishes of every model and the template library, dishes.go); a
// pair k never saw is drawn from G₀. The prior of a new model, α/(T + α), is split: the edit of
// k has β·T_k/T of it, a fresh model (every pair from G₀) 1 − β. The term of pair i under the
// edit of k is then
//
//	ln[(1 − ρ)·DM(D_i | 1/S + N_d)·R_d(D_i) + ρ·G₀(D_i)]    (d = k's dish at i)
//
// so that an edit is refuted pair by pair (by a factor ρ for each pair its dish does not
// explain) while a fresh model pays for every pair; an edit of the right model is as likely as
// the model itself up to a factor (1 − ρ) a pair. Drawn, it places k's dish on a visited pair
// by the dish's share of that term, and on a pair the task has not reached with probability
// 1 − ρ: a coherent earlier map where the task has not refuted it, which a fresh model, drawn
// pair by pair, lacks. When a task ends with an edit most probable, the task starts a model
// that holds k's dish at every pair where the dish's share is the larger, and at every pair the
// task did not reach.
//
// The candidates of a task, in the order of logPrior and of each pair's terms, are the K
// models of its size, then with edits on the edit of each of them, then a fresh model.

// edits reports whether edit_share β is set.
func (p HybridParams) edits() bool { return p.EditShare > 0 }

// freshIndex is the index of a fresh model among the candidates: the last.
func (h *HybridPrior) freshIndex() int { return len(h.logPrior) - 1 }

// editOf is the candidate whose edit candidate j is, or −1 where j is a model or fresh.
func (h *HybridPrior) editOf(j int) int {
	if j >= len(h.cand) && j < h.freshIndex() {
		return j - len(h.cand)
	}
	return -1
}

// editTerm is pair i's term under the edit of a model that holds a dish there whose term is
// dish, G₀'s term being g0: ln[(1 − ρ)·e^dish + ρ·e^g0].
func (h *HybridPrior) editTerm(dish, g0 float64) float64 {
	a, b := math.Log1p(-h.p.ChangeRate)+dish, math.Log(h.p.ChangeRate)+g0
	top := math.Max(a, b)
	return top + math.Log(math.Exp(a-top)+math.Exp(b-top))
}

// keepShare is the probability that the edit of candidate j's model (j < K) keeps its dish at
// pair i: 1 − ρ on a pair with no own samples, else its share of the edit's term.
func (h *HybridPrior) keepShare(j, i int) float64 {
	if h.own.N(i) == 0 {
		return 1 - h.p.ChangeRate
	}
	terms := h.pairTerms(i)
	return math.Exp(math.Log1p(-h.p.ChangeRate) + terms[j] - terms[len(h.cand)+j])
}

// keepDish places, under the edit of candidate j's model, that model's dish on pair i with
// probability keepShare (one random number), and reports whether it did; false, with no random
// number, where the model holds no dish.
func (h *HybridPrior) keepDish(j, i int) bool {
	d := h.dishOf(h.cand[j], i)
	if d == nil || h.rng.Float64() >= h.keepShare(j, i) {
		return false
	}
	h.placeSamples(i, d.succ, d.r)
	return true
}

// inherit gives model m, new, started by a task whose most probable candidate was the edit of
// candidate j's model, that model's dish at every pair where the dish's share is at least a
// half (the mode) and at every pair the task did not reach; its other visited pairs are seated
// by EndTask.
func (h *HybridPrior) inherit(m *hybridModel, j int) {
	donor := &h.models[h.cand[j]]
	pairs := h.tables[h.tab].pairs
	for i, d := range donor.dish {
		if d >= 0 && h.keepShare(j, i) >= 0.5 {
			m.dish[i] = d
			pairs[i][d].models++
		}
	}
}
