package oracle

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// randomPolicies is a PolicyInfo whose policy changes in a few random states at every version:
// a random action, or a random mix of two.
type randomPolicies struct {
	S, A    int
	rng     *rand.Rand
	pi      []float64
	version uint64
}

func (r *randomPolicies) change() {
	for range 1 + r.rng.IntN(3) {
		s := r.rng.IntN(r.S)
		row := r.pi[s*r.A : s*r.A+r.A]
		clear(row)
		a, b := r.rng.IntN(r.A), r.rng.IntN(r.A)
		if r.rng.IntN(2) == 0 {
			row[a] = 1
		} else {
			row[a] += 0.5
			row[b] += 0.5
		}
	}
	r.version++
}

func (r *randomPolicies) PolicyVersion() uint64       { return r.version }
func (r *randomPolicies) Policy(s int, dst []float64) { copy(dst, r.pi[s*r.A:s*r.A+r.A]) }

// referenceEvaluation is V^π by Gauss–Seidel sweeps from zero to ‖V − V^π‖∞ ≤ tol, as the
// oracle evaluated every policy before it became incremental.
func referenceEvaluation(m *mdp.Model, pi []float64, gamma, tol float64) []float64 {
	v := make([]float64, m.S)
	stop := tol * (1 - gamma) / gamma
	for {
		delta := 0.0
		for s := 0; s < m.S; s++ {
			x := 0.0
			for a := 0; a < m.A; a++ {
				if p := pi[s*m.A+a]; p != 0 {
					x += p * m.Backup(s*m.A+a, v, gamma)
				}
			}
			delta = max(delta, math.Abs(x-v[s]))
			v[s] = x
		}
		if delta <= stop {
			return v
		}
	}
}

// TestIncrementalPolicyEvaluation: on random small tasks and random sequences of policies, both
// incremental evaluations (dense Sherman–Morrison updates and residual sweeps) stay within the
// tolerance of V^π, and count the same policy mistakes, state by state, as evaluating every
// policy from scratch.
func TestIncrementalPolicyEvaluation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 40; trial++ {
		S, A := 2+rng.IntN(12), 1+rng.IntN(4)
		gamma := []float64{0, 0.5, 0.9, 0.95}[rng.IntN(4)]
		rows := make([][]mdp.Transition, S*A)
		for i := range rows {
			for _, next := range rng.Perm(S)[:1+rng.IntN(min(S, 3))] {
				rows[i] = append(rows[i], mdp.Transition{Next: next, Prob: 1, Reward: rng.Float64()*2 - 1})
			}
			for k := range rows[i] {
				rows[i][k].Prob = 1 / float64(len(rows[i]))
			}
		}
		start := make([]float64, S)
		start[0] = 1
		m, err := mdp.New(S, A, rows, start)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := mdp.ValueIteration(m, gamma, Tolerance)
		if err != nil {
			t.Fatal(err)
		}
		eps := 0.1 * m.MaxAbsReward() / (1 - gamma)
		tol := max(Tolerance, policyTolerance*eps)
		for _, dense := range []bool{true, false} {
			info := &randomPolicies{S: S, A: A, rng: rand.New(rand.NewPCG(uint64(trial), 9)), pi: make([]float64, S*A)}
			for s := 0; s < S; s++ {
				info.pi[s*A] = 1
			}
			pe := newPolicyEvaluation(m, info, gamma, tol, dense)
			for change := 0; change < 200; change++ {
				info.change()
				pe.evaluate()
				pe.fresh = true
				ref := referenceEvaluation(m, info.pi, gamma, tol)
				for s := 0; s < S; s++ {
					if math.Abs(pe.v[s]-ref[s]) > 2*tol {
						t.Fatalf("trial %d (dense %v), change %d: V^π(%d) = %v, from scratch %v", trial, dense, change, s, pe.v[s], ref[s])
					}
					thr := sol.V[s] - eps - 2*tol
					if (pe.v[s] < thr) != (ref[s] < thr) {
						t.Errorf("trial %d (dense %v), change %d, state %d: mistake %v, from scratch %v", trial, dense, change, s, pe.v[s] < thr, ref[s] < thr)
					}
				}
			}
		}
	}
}
