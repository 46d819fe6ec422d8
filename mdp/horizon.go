package mdp

import (
	"fmt"
	"math"
)

// Horizon holds the finite-horizon optimal values of a model: V_h(s), the largest expected
// undiscounted return of h steps from s, for h = 0 … T. It is what an episode of T steps can earn
// at best, so it is the yardstick of a learner's per-task reward. V_0 = 0; a terminal state has
// V_h = 0 for every h because the model makes it absorbing with reward 0 (an episode ends there).
type Horizon struct {
	S, T int
	v    []float64 // v[h*S+s] = V_h(s)
}

// FiniteHorizon computes V_h for h = 0 … T by backward induction:
//
//	V_0(s) = 0,   V_h(s) = max_a r(s,a) + Σ_s′ p(s′|s,a) V_{h−1}(s′).
func FiniteHorizon(m *Model, T int) (Horizon, error) {
	if T < 0 {
		return Horizon{}, fmt.Errorf("mdp: horizon T = %d, want T >= 0", T)
	}
	h := Horizon{S: m.S, T: T, v: make([]float64, (T+1)*m.S)}
	for k := 1; k <= T; k++ {
		prev, cur := h.Values(k-1), h.Values(k)
		for s := 0; s < m.S; s++ {
			best := math.Inf(-1)
			for i := s * m.A; i < s*m.A+m.A; i++ {
				best = math.Max(best, m.Backup(i, prev, 1))
			}
			cur[s] = best
		}
	}
	return h, nil
}

// Values returns V_h as a slice over states (shared, not a copy); 0 <= h <= T.
func (h Horizon) Values(steps int) []float64 { return h.v[steps*h.S : (steps+1)*h.S] }

// Value is V_h(s), for 0 <= h <= T.
func (h *Horizon) Value(steps, s int) float64 { return h.v[steps*h.S+s] }

// Backup is the one-step look-ahead of pair i on the values v: r(s,a) + γ Σ_s′ p(s′|s,a) v(s′).
// With v = V_{h−1} and γ = 1 it is the finite-horizon Q_h(s,a); with v = V* and the task's γ it
// is Q*(s,a).
func (p *Sparse) Backup(i int, v []float64, gamma float64) float64 {
	x := 0.0
	for k := p.Start[i]; k < p.Start[i+1]; k++ {
		x += p.Prob[k] * v[p.Next[k]]
	}
	return p.R[i] + gamma*x
}
