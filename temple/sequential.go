package temple

import (
	"math"

	"github.com/temple-rl/temple/template"
)

// Sequential identification (Params.SeqDelta; not in the paper, off in the paper presets).
//
// The test. At every own sample n of a pair not yet identified, SeqMin ≤ n < m_s, let c_r be its
// own counts ranked by its ranking permutation σ (rank 0 the most frequent next state), as
// Algorithm 1 ranks them at m_s. For each library template g, with visits V_r at its K_g ranks
// and N_g visits in all, the pair's samples have the log-likelihood
//
//	ℓ_g = Σ_r c_r · ln q_g(r) − Σ_i (x_i − r_g)²/(2σ²),
//	q_g(r) = V_r/(N_g+1) at a rank of g, 1/((N_g+1)(S−K_g)) elsewhere:
//
// Laplace's rule of succession, which gives an outcome g has never shown the probability
// 1/(N_g+1), spread evenly over the S−K_g other ranks, so that one unexpected step weighs
// heavily but does not exclude g for good; and for the rewards x_i, with g's mean reward r_g, a
// Gaussian log-likelihood of variance σ² = R²/4 (R = SeqRewardRange; no reward term when R = 0):
// by Hoeffding's lemma a reward within a span R is sub-Gaussian with that variance, so the
// ratio of these Gaussian likelihoods is a supermartingale of mean at most 1 as well. Without
// it, templates that differ in reward only (a deterministic move, and one onto lava) could not
// be told apart. Template j is singled out, and the pair identified with it, when
//
//	(a) ℓ_j − ℓ_g ≥ ln((G−1)/δ) for every other template g of the G in the library, and
//	(b) ρ(ĝ, g_j) ≤ τ̂ + β(n), β(n) = (1 + √ln(1/δ))/√n, ĝ the pair's own estimate:
//
// (a) excludes every other template, (b) keeps j among those the pair's true template may be
// within τ̂ of. β(n) bounds the ℓ₂ part of ρ: E‖p̂ − p‖₂ ≤ 1/√n, one sample moves ‖p̂ − p‖₂ by at
// most √2/n, so by McDiarmid P(‖p̂ − p‖₂ ≥ 1/√n + ε) ≤ exp(−nε²); sorting both vectors does not
// increase their ℓ₂ distance. Unlike Weissman et al.'s ℓ₁ bound (UCRL2's), β does not grow with
// the number of next states. The reward part of ρ is taken at its estimate.
//
// The guarantee. If the pair's true next-state distribution, ranked by its σ, is template g's
// q_g, the likelihood ratio ∏ q_j/q_g over its samples is a non-negative martingale of mean 1,
// and Ville's inequality bounds the chance that it ever reaches (G−1)/δ by δ/(G−1); over the
// G−1 other templates, the pair is identified with a wrong template with probability at most δ
// at any sample — no union bound over times is needed, and over pairs the expected number of
// wrong sequential identifications in a task is at most δ times their number. What it does not
// cover, against Theorem 1 (which asks every pair for m_s = O(ln(·)/τ̂²) own samples): σ is the
// pair's empirical ranking, not its true one; the library templates are estimates, not true
// templates; and a pair whose true template is not in the library is guarded by (b) alone,
// which at confidence δ rejects little below ((1+√ln(1/δ))/τ̂)² samples. Theorem 1's bound is
// therefore not claimed with the option on. A library of fewer than two templates has nothing to
// exclude and waits for m_s; so does a pair whose evidence stays ambiguous.

// seqAttempt reports whether pair i, not identified, may be identified sequentially at this own
// sample: with SeqDelta, from SeqMin own samples on, below m_s.
func (o *OTempLe) seqAttempt(i int) bool {
	n := o.own.At(i)
	return o.p.SeqDelta > 0 && n >= o.p.SeqMin && n < o.p.Ms
}

// identifySequentially identifies pair i with the library template its own samples single out
// (singledOut), and reports whether one was.
func (o *OTempLe) identifySequentially(i int) bool {
	sigma, ranked := template.Ranking(o.pending.Successors(i), o.S)
	reward := o.pending.R(i)
	t := singledOut(o.lib, ranked, reward, o.S, o.p.SeqDelta, o.p.SeqRewardRange)
	if t == nil {
		return false
	}
	o.stats.sequential++
	return o.identifyAs(i, t, sigma, ranked, reward, false)
}

// singledOut is the library template that a pair's own counts, ranked by its σ over S states
// with their reward sum, single out at confidence δ by tests (a) and (b) above, rewards spanning
// R; nil if none.
func singledOut(lib *template.Library, ranked []template.Count, reward float64, S int, delta, R float64) *template.Template {
	ts := lib.Templates()
	if len(ts) < 2 {
		return nil
	}
	n := 0.0
	for _, c := range ranked {
		n += float64(c.N)
	}
	var best *template.Template
	first, second := math.Inf(-1), math.Inf(-1)
	for _, t := range ts {
		l := logLikelihood(t, ranked, S)
		if R > 0 {
			// −Σ(x_i − r_g)²/(2σ²) without Σx_i², the same for every template.
			r := t.Reward / float64(t.N())
			l -= (n*r*r - 2*reward*r) / (2 * R * R / 4)
		}
		switch {
		case l > first:
			best, first, second = t, l, first
		case l > second:
			second = l
		}
	}
	if first-second < math.Log(float64(len(ts)-1)/delta) {
		return nil
	}
	g := pointOf(ranked, reward)
	if template.Distance(g, best.Mean()) > lib.Tau+(1+math.Sqrt(math.Log(1/delta)))/math.Sqrt(n) {
		return nil
	}
	return best
}

// logLikelihood is ℓ_g: the log-probability of counts ranked by a pair's σ over S states under
// template t smoothed by Laplace's rule of succession (see above).
func logLikelihood(t *template.Template, ranked []template.Count, S int) float64 {
	n := float64(t.N() + 1)
	unseen := n * float64(max(S-len(t.Visits), 1)) // 1/unseen: the probability of a rank t lacks
	l, v := 0.0, 0
	for _, c := range ranked {
		for v < len(t.Visits) && t.Visits[v].Rank < c.Rank {
			v++
		}
		if v < len(t.Visits) && t.Visits[v].Rank == c.Rank {
			l += float64(c.N) * math.Log(float64(t.Visits[v].N)/n)
		} else {
			l -= float64(c.N) * math.Log(unseen)
		}
	}
	return l
}
