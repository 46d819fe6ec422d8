package temple

import (
	"math"
	"slices"

	"github.com/temple-rl/temple/mdp"
)

// HybridPrior's whole-task models hold their pairs as dishes, in the words of the Chinese
// restaurant franchise of the hierarchical Dirichlet process (Teh, Jordan, Beal & Blei 2006): a
// dish is one pair's distribution of next states and rewards, a model (a restaurant) holds one
// dish at each pair its tasks visited, and the dish's samples are those of every task, of every
// model holding it, at that pair. With pair_concentration γ unset no dish is shared: each model's
// pair is its own tasks' samples there. With γ set, a model's pair that has no dish yet takes one
// of the pair's dishes or a new one when its first task ends (seat).

// dish is one pair's distribution as the models holding it share it: their tasks' samples of the
// pair pooled.
type dish struct {
	succ   []mdp.Succ // next states and their counts
	n      int64      // samples
	r, sq  float64    // the sum of their rewards and of their squares
	models int        // models holding it: m_d
}

// add pools a task's samples of the pair (n of them, next states succ, reward sum r, squares sq),
// in the order mdp.Counts.Merge would: a state not yet among the dish's appended.
func (d *dish) add(succ []mdp.Succ, n int64, r, sq float64) {
	for _, x := range succ {
		if j := slices.IndexFunc(d.succ, func(y mdp.Succ) bool { return y.State == x.State }); j >= 0 {
			d.succ[j].N += x.N
		} else {
			d.succ = append(d.succ, x)
		}
	}
	d.n += n
	d.r += r
	d.sq += sq
}

// dishTable is every dish of the pairs of tasks of S states and A actions.
type dishTable struct {
	S, A  int
	pairs [][]dish // per pair
}

// hybridModel is a whole-task model: its size's table, the dish it holds at each pair (−1: none,
// no task of it visited the pair) and T_k, the tasks it had.
type hybridModel struct {
	table int
	dish  []int32
	tasks int
}

// tableOf is the index of the dish table of tasks of S states and A actions, or −1.
func (h *HybridPrior) tableOf(S, A int) int {
	return slices.IndexFunc(h.tables, func(t dishTable) bool { return t.S == S && t.A == A })
}

// table is tableOf, starting a table if there is none.
func (h *HybridPrior) table(S, A int) int {
	if j := h.tableOf(S, A); j >= 0 {
		return j
	}
	h.tables = append(h.tables, dishTable{S: S, A: A, pairs: make([][]dish, S*A)})
	return len(h.tables) - 1
}

// dishOf is the dish model k holds at pair i, or nil.
func (h *HybridPrior) dishOf(k, i int) *dish {
	m := &h.models[k]
	if m.dish[i] < 0 {
		return nil
	}
	return &h.tables[m.table].pairs[i][m.dish[i]]
}

// dishesAt are the dishes of pair i of the task's size (none before its first model).
func (h *HybridPrior) dishesAt(i int) []dish {
	if h.tab < 0 {
		return nil
	}
	return h.tables[h.tab].pairs[i]
}

// dishTerm is ln of the marginal likelihood of pair i's own samples under dish d: the
// Dirichlet(1/S + N_d) – multinomial marginal of the own next states, and the rewards' under the
// dish's reward posterior in the weights' reward model.
func (h *HybridPrior) dishTerm(i int, d *dish) float64 {
	n, sum, succ := h.own.Pair(i)
	alpha := 1 / float64(h.S)
	t := lgamma(1+float64(d.n)) - lgamma(1+float64(d.n+n))
	for _, x := range succ {
		a := alpha + float64(succCount(d.succ, int(x.State)))
		t += lgamma(a+float64(x.N)) - lgamma(a)
	}
	if h.w.LearnedNoise { // the Normal–Gamma posterior given the dish's rewards
		ng := h.w.normalGamma(nil, 0)
		return t + ng.logML(d.n+n, d.r+sum, d.sq+h.ownSq[i]) - ng.logML(d.n, d.r, d.sq)
	}
	return t + h.w.rewardData(n, sum, h.ownSq[i], d.n, d.r) - h.w.rewardNorm(d.n, d.r)
}

// dishShares are, as logs, the terms of G₀(D_i) with γ set: per dish of pair i, m_d/(M_i + γ)
// times its term, and last the library's mixture, γ/(M_i + γ)·M(D_i) (M_i = Σ_d m_d, the models
// holding a dish of the pair), from the terms of the pair's last reweighing; for a pair with no
// own samples, whose terms are all 1, the prior shares.
func (h *HybridPrior) dishShares(i int) []float64 {
	dishes := h.dishesAt(i)
	total := h.p.PairConcentration
	for _, d := range dishes {
		total += float64(d.models)
	}
	seen := h.own.N(i) > 0
	h.shares = h.shares[:0]
	for d := range dishes {
		w := math.Log(float64(dishes[d].models) / total)
		if seen {
			w += h.dishTerms[i][d]
		}
		h.shares = append(h.shares, w)
	}
	w := math.Log(h.p.PairConcentration / total)
	if seen {
		w += h.mixTerm[i]
	}
	return append(h.shares, w)
}

// seat is the dish a model that has none at pair i takes when its task ends: with γ set, the
// pair's dish or the library of largest posterior share given the task's samples of the pair
// (the mode, as a task joins one model), a new dish when that is the library or on equal
// shares; with γ unset always a new one.
func (h *HybridPrior) seat(i int) int32 {
	pairs := h.tables[h.tab].pairs
	if h.p.sharesPairs() && len(pairs[i]) > 0 {
		shares := h.dishShares(i)
		best := len(shares) - 1
		for j, w := range shares {
			if w > shares[best] {
				best = j
			}
		}
		if best < len(pairs[i]) {
			return int32(best)
		}
	}
	pairs[i] = append(pairs[i], dish{})
	return int32(len(pairs[i]) - 1)
}
