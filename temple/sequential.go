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
//	(a) ℓ_j − ℓ_g ≥ ln((G−1)/δ) for every other template g of the G in the library,
//	(b) ρ(ĝ, g_j) ≤ τ̂, ĝ the pair's own estimate (Algorithm 1's match criterion), and
//	(c) ℓ_j ≥ ℓ_new − ln(1/δ), ℓ_new = ln Γ(Sα)/Γ(n+Sα) + Σ_r ln Γ(c_r+α)/Γ(α), α = 1/S:
//
// (a) excludes every other template; (c) is the "new template" alternative, which Algorithm 1
// would take at m_s: ℓ_new is the transition log-likelihood of the pair's counts under a sparse
// symmetric Dirichlet mixture over its S next states (a Bayes mixture, hence a sequential
// predictor: under q_j the ratio of the mixture to q_j is a martingale of mean 1 too, so (c)
// rejects a true j with probability at most δ), and samples that j explains worse than an
// unknown distribution would leave the pair to m_s. (b) is a point check, not a confidence
// statement: a confidence ball for ρ would be τ̂ + β(n) with β(n) = (1 + √ln(1/δ))/√n for its ℓ₂
// part (E‖p̂ − p‖₂ ≤ 1/√n, one sample moves ‖p̂ − p‖₂ by at most √2/n, so by McDiarmid
// P(‖p̂ − p‖₂ ≥ 1/√n + ε) ≤ exp(−nε²); sorting does not increase ℓ₂ distances; unlike Weissman
// et al.'s ℓ₁ bound, UCRL2's, β does not grow with S), but below 50 samples at δ ≤ 0.05 β(n)
// exceeds 0.6, so the ball excludes nothing, and on the design runs it let pairs match templates
// whose reward was wrong (docs/experiments/regime-map.md, "Sequential identification").
//
// The guarantee. If the pair's true next-state distribution, ranked by its σ, is template g's
// q_g (and, with R > 0, its reward given the next state does not depend on it), the likelihood
// ratio of j to g over its samples is a non-negative supermartingale of mean at most 1,
// and Ville's inequality bounds the chance that it ever reaches (G−1)/δ by δ/(G−1); over the
// G−1 other templates, the pair is identified with a wrong template with probability at most δ
// at any sample — no union bound over times is needed, and over pairs the expected number of
// wrong sequential identifications in a task is at most δ times their number. What it does not
// cover, against Theorem 1 (which asks every pair for m_s = O(ln(·)/τ̂²) own samples): σ is the
// pair's empirical ranking, not its true one; the library templates are estimates, not true
// templates; and a pair whose true template is not in the library is guarded only by (c), whose
// mixture pays about ln S for every next state it meets, and by the point check (b). Theorem
// 1's bound is therefore not claimed with the option on. A library of fewer than two templates
// has nothing to exclude and waits for m_s; so does a pair whose evidence stays ambiguous.

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
	o.seqIdentified++
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
		l := logLikelihood(t, ranked, S) + rewardTerm(t, n, reward, R)
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
	if first-rewardTerm(best, n, reward, R) < newTemplateLogLikelihood(ranked, n, S)-math.Log(1/delta) {
		return nil
	}
	g := pointOf(ranked, reward)
	if template.Distance(g, best.Mean()) > lib.Tau {
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

// rewardTerm is the reward part of ℓ_g for n rewards summing to reward under template t, rewards
// spanning R: −Σ(x_i − r_g)²/(2σ²), σ² = R²/4, without Σx_i², which is the same for every
// template; 0 when R = 0.
func rewardTerm(t *template.Template, n, reward, R float64) float64 {
	if R == 0 {
		return 0
	}
	r := t.Reward / float64(t.N())
	return -(n*r*r - 2*reward*r) / (2 * R * R / 4)
}

// newTemplateLogLikelihood is ℓ_new of test (c): the log-probability of a pair's n next-state
// counts over S states under a symmetric Dirichlet(1/S) mixture.
func newTemplateLogLikelihood(ranked []template.Count, n float64, S int) float64 {
	alpha := 1 / float64(S)
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	l := lg(1) - lg(n+1) // Γ(Sα)/Γ(n+Sα) with Sα = 1
	for _, c := range ranked {
		l += lg(float64(c.N)+alpha) - lg(alpha)
	}
	return l
}
