package oracle

import (
	"math"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// policyEvaluation holds V^π of a learner's current policy π_t on the true model, brought up to
// date whenever the learner's policy version changes, in one of two ways.
//
// On tasks of at most DenseStates states it keeps M = (I − γP_π)⁻¹ and V^π = M r_π exactly (to
// rounding). A change of π in state s changes row s of I − γP_π by −wᵀ, w = γ(P_π′(s,·) −
// P_π(s,·)), and r_π(s) by Δr; with c = M e_s the Sherman–Morrison formula gives
//
//	M′ = M + c (wᵀM) / (1 − wᵀc),   V′ = V + c (Δr + wᵀV) / (1 − wᵀc),
//
// O(S²) per changed state instead of a solve; M is recomputed from scratch after S updates so
// that rounding cannot accumulate.
//
// On larger tasks it keeps every state's Bellman residual |(T^π v)(s) − v(s)| at most θ =
// tol·(1−γ), so ‖v − V^π‖∞ ≤ θ/(1−γ) = tol (T^π is a γ-contraction). When π changes in some
// states only their residuals are checked; a state whose residual exceeds θ is updated, v(s) ←
// (T^π v)(s), and the states with an action leading to s are checked in turn, until no residual
// exceeds θ: the cost grows with the states whose values move.
type policyEvaluation struct {
	info    agent.PolicyInfo
	m       *mdp.Model
	gamma   float64
	version uint64
	fresh   bool      // v is V^π of version
	tol     float64   // ‖V − V^π‖∞ of an evaluation
	pi      []float64 // π(a|s) at s*A+a
	read    []float64 // π read at a new version, compared with pi
	v       []float64 // V^π (within tol)
	// Dense evaluation: M row-major, w and wᵀM scratch, updates since M was computed.
	dense     bool
	inv, w, u []float64
	updates   int
	// Residual evaluation: θ, pred[s′] the states with some action leading to s′ (each once),
	// the states whose residual may exceed θ.
	theta  float64
	pred   [][]int32
	queue  []int32
	queued []bool
}

// DenseStates is the largest task whose policies are evaluated exactly through (I − γP_π)⁻¹.
const DenseStates = 256

// newPolicyEvaluation evaluates the policies of info on m to tol, densely or by residuals.
func newPolicyEvaluation(m *mdp.Model, info agent.PolicyInfo, gamma, tol float64, dense bool) *policyEvaluation {
	pe := &policyEvaluation{info: info, m: m, gamma: gamma, tol: tol, theta: tol * (1 - gamma),
		pi: make([]float64, m.S*m.A), read: make([]float64, m.S*m.A), v: make([]float64, m.S), dense: dense}
	if pe.dense {
		pe.inv, pe.w, pe.u = make([]float64, m.S*m.S), make([]float64, m.S), make([]float64, m.S)
	} else {
		pe.pred, pe.queued = make([][]int32, m.S), make([]bool, m.S)
		for s := 0; s < m.S; s++ {
			for i := s * m.A; i < s*m.A+m.A; i++ {
				for k := m.Start[i]; k < m.Start[i+1]; k++ {
					if next := m.Next[k]; len(pe.pred[next]) == 0 || pe.pred[next][len(pe.pred[next])-1] != int32(s) {
						pe.pred[next] = append(pe.pred[next], int32(s))
					}
				}
			}
		}
	}
	return pe
}

// evaluate reads π from the learner and brings V^π up to date from the states whose π changed
// (all of them the first time).
func (pe *policyEvaluation) evaluate() {
	m := pe.m
	for s := 0; s < m.S; s++ {
		pe.info.Policy(s, pe.read[s*m.A:s*m.A+m.A])
	}
	first := !pe.fresh
	pe.pi, pe.read = pe.read, pe.pi // read: the previous π
	switch {
	case pe.dense && (first || pe.updates >= m.S):
		pe.invert()
	case pe.dense:
		for s := 0; s < m.S; s++ {
			if !slices.Equal(pe.pi[s*m.A:s*m.A+m.A], pe.read[s*m.A:s*m.A+m.A]) {
				pe.shermanMorrison(s)
			}
		}
	default:
		for s := 0; s < m.S; s++ {
			if first || !slices.Equal(pe.pi[s*m.A:s*m.A+m.A], pe.read[s*m.A:s*m.A+m.A]) {
				pe.enqueue(s)
			}
		}
		pe.sweepResiduals()
	}
}

// invert computes M = (I − γP_π)⁻¹ by Gauss–Jordan elimination with partial pivoting (the matrix
// is strictly diagonally dominant by rows for γ < 1) and V^π = M r_π.
func (pe *policyEvaluation) invert() {
	m, S := pe.m, pe.m.S
	a := make([]float64, S*S)
	r := make([]float64, S)
	for s := 0; s < S; s++ {
		a[s*S+s] = 1
		for act := 0; act < m.A; act++ {
			p := pe.pi[s*m.A+act]
			if p == 0 {
				continue
			}
			i := s*m.A + act
			r[s] += p * m.R[i]
			for k := m.Start[i]; k < m.Start[i+1]; k++ {
				a[s*S+int(m.Next[k])] -= pe.gamma * p * m.Prob[k]
			}
		}
	}
	inv := pe.inv
	clear(inv)
	for s := 0; s < S; s++ {
		inv[s*S+s] = 1
	}
	for col := 0; col < S; col++ {
		piv := col
		for row := col + 1; row < S; row++ {
			if math.Abs(a[row*S+col]) > math.Abs(a[piv*S+col]) {
				piv = row
			}
		}
		if piv != col {
			for k := 0; k < S; k++ {
				a[col*S+k], a[piv*S+k] = a[piv*S+k], a[col*S+k]
				inv[col*S+k], inv[piv*S+k] = inv[piv*S+k], inv[col*S+k]
			}
		}
		d := 1 / a[col*S+col]
		for k := 0; k < S; k++ {
			a[col*S+k] *= d
			inv[col*S+k] *= d
		}
		for row := 0; row < S; row++ {
			if f := a[row*S+col]; row != col && f != 0 {
				for k := 0; k < S; k++ {
					a[row*S+k] -= f * a[col*S+k]
					inv[row*S+k] -= f * inv[col*S+k]
				}
			}
		}
	}
	for s := 0; s < S; s++ {
		x := 0.0
		for k := 0; k < S; k++ {
			x += inv[s*S+k] * r[k]
		}
		pe.v[s] = x
	}
	pe.updates = 0
}

// shermanMorrison updates M and V^π for the change of π in state s from pe.read to pe.pi.
func (pe *policyEvaluation) shermanMorrison(s int) {
	m, S := pe.m, pe.m.S
	w := pe.w
	clear(w)
	dr := 0.0
	for act := 0; act < m.A; act++ {
		i := s*m.A + act
		d := pe.pi[i] - pe.read[i]
		if d == 0 {
			continue
		}
		dr += d * m.R[i]
		for k := m.Start[i]; k < m.Start[i+1]; k++ {
			w[m.Next[k]] += pe.gamma * d * m.Prob[k]
		}
	}
	inv, u := pe.inv, pe.u
	wc, wv := 0.0, 0.0 // wᵀc and wᵀV
	clear(u)           // u = wᵀM
	for j, x := range w {
		if x == 0 {
			continue
		}
		wc += x * inv[j*S+s]
		wv += x * pe.v[j]
		for k := 0; k < S; k++ {
			u[k] += x * inv[j*S+k]
		}
	}
	denom := 1 - wc
	f := (dr + wv) / denom
	for row := 0; row < S; row++ {
		c := inv[row*S+s]
		if c == 0 {
			continue
		}
		pe.v[row] += c * f
		g := c / denom
		for k := 0; k < S; k++ {
			inv[row*S+k] += g * u[k]
		}
	}
	pe.updates++
}

// sweepResiduals updates states until no residual exceeds θ.
func (pe *policyEvaluation) sweepResiduals() {
	for head := 0; head < len(pe.queue); head++ {
		s := int(pe.queue[head])
		pe.queued[s] = false
		x := pe.backup(s)
		if math.Abs(x-pe.v[s]) <= pe.theta {
			continue
		}
		pe.v[s] = x
		for _, t := range pe.pred[s] {
			pe.enqueue(int(t))
		}
	}
	pe.queue = pe.queue[:0]
}

func (pe *policyEvaluation) enqueue(s int) {
	if !pe.queued[s] {
		pe.queued[s] = true
		pe.queue = append(pe.queue, int32(s))
	}
}

// backup is (T^π v)(s) = Σ_a π(a|s) (r(s,a) + γ Σ_s′ p(s′|s,a) v(s′)) on the true model.
func (pe *policyEvaluation) backup(s int) float64 {
	m := pe.m
	x := 0.0
	for a := 0; a < m.A; a++ {
		if p := pe.pi[s*m.A+a]; p != 0 {
			x += p * m.Backup(s*m.A+a, pe.v, pe.gamma)
		}
	}
	return x
}
