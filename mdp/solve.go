package mdp

import (
	"fmt"
	"math"
)

// Sparse is the planning form of a tabular MDP: the successors of pair i = s*A+a are
// Next[Start[i]:Start[i+1]] with probabilities Prob[...], and R[i] is the expected reward r(s, a).
// Learners fill one with their own estimates (for instance RMax's optimistic model) and reuse it,
// so planning allocates nothing.
type Sparse struct {
	S, A  int
	Start []int32
	Next  []int32
	Prob  []float64
	R     []float64
}

// Reset empties p for S states and A actions, keeping its buffers.
func (p *Sparse) Reset(S, A int) {
	p.S, p.A = S, A
	p.Start = append(p.Start[:0], 0)
	p.Next, p.Prob = p.Next[:0], p.Prob[:0]
	p.R = p.R[:0]
}

// AppendPair adds the row of the next pair (pairs must be appended in index order): its expected
// reward, then its successors through AppendSuccessor.
func (p *Sparse) AppendPair(reward float64) { p.R = append(p.R, reward) }

// AppendSuccessor adds one successor to the pair appended last.
func (p *Sparse) AppendSuccessor(next int, prob float64) {
	p.Next = append(p.Next, int32(next))
	p.Prob = append(p.Prob, prob)
}

// EndPair closes the row of the pair appended last.
func (p *Sparse) EndPair() { p.Start = append(p.Start, int32(len(p.Next))) }

// Iterate runs in-place (Gauss–Seidel) value-iteration sweeps on q, indexed s*A+a, warm-started from
// its current contents. v is scratch of length S that holds V(s) = max_a q(s,a) on return. It stops
// after the first sweep in which no V(s) moved by more than stop, or after maxSweeps sweeps, and
// reports the number of sweeps and whether it converged.
func (p *Sparse) Iterate(q, v []float64, gamma, stop float64, maxSweeps int) (sweeps int, converged bool) {
	S, A := p.S, p.A
	for s := 0; s < S; s++ {
		v[s] = Max(q[s*A : s*A+A])
	}
	for sweeps < maxSweeps {
		sweeps++
		delta := 0.0
		for s := 0; s < S; s++ {
			best := math.Inf(-1)
			for i := s * A; i < s*A+A; i++ {
				x := 0.0
				for k := p.Start[i]; k < p.Start[i+1]; k++ {
					x += p.Prob[k] * v[p.Next[k]]
				}
				x = p.R[i] + gamma*x
				q[i] = x
				if x > best {
					best = x
				}
			}
			if d := math.Abs(best - v[s]); d > delta {
				delta = d
			}
			v[s] = best
		}
		if delta <= stop {
			return sweeps, true
		}
	}
	return sweeps, false
}

// StopFor returns the per-sweep change below which value iteration with discount gamma is within
// tol of the fixed point in max norm: ‖V − V*‖∞ ≤ γ/(1−γ)·Δ for a γ-contraction.
func StopFor(gamma, tol float64) float64 {
	if gamma == 0 {
		return math.Inf(1)
	}
	return tol * (1 - gamma) / gamma
}

// Solution is an optimal value function with its greedy policy.
type Solution struct {
	V      []float64 // V*(s)
	Q      []float64 // Q*(s,a) at index s*A+a
	Policy []int     // a greedy action per state; ties go to the lowest action index
	Sweeps int       // value-iteration sweeps used
}

// maxSolveSweeps bounds the exact solvers; with γ < 1 they converge long before it.
const maxSolveSweeps = 10_000_000

func checkDiscount(gamma, tol float64) error {
	if !(gamma >= 0 && gamma < 1) {
		return fmt.Errorf("mdp: discount gamma = %v, want 0 <= gamma < 1", gamma)
	}
	if !(tol > 0) || math.IsInf(tol, 0) {
		return fmt.Errorf("mdp: tolerance = %v, want a finite number > 0", tol)
	}
	return nil
}

// ValueIteration solves m for its optimal values with in-place value iteration, stopping when the
// values are within tol of V* in max norm.
func ValueIteration(m *Model, gamma, tol float64) (Solution, error) {
	if err := checkDiscount(gamma, tol); err != nil {
		return Solution{}, err
	}
	q := make([]float64, m.S*m.A)
	v := make([]float64, m.S)
	sweeps, ok := m.Iterate(q, v, gamma, StopFor(gamma, tol), maxSolveSweeps)
	if !ok {
		return Solution{}, fmt.Errorf("mdp: value iteration did not converge in %d sweeps", sweeps)
	}
	return Solution{V: v, Q: q, Policy: GreedyPolicy(q, m.S, m.A), Sweeps: sweeps}, nil
}

// GreedyPolicy returns argmax_a q(s,a) for every state, ties to the lowest action index.
func GreedyPolicy(q []float64, S, A int) []int {
	pi := make([]int, S)
	for s := range pi {
		pi[s] = ArgMax(q[s*A : s*A+A])
	}
	return pi
}

// PolicyEvaluation returns V^π for the deterministic policy pi (one action per state), within tol
// of the true values in max norm.
func PolicyEvaluation(m *Model, pi []int, gamma, tol float64) ([]float64, error) {
	if err := checkDiscount(gamma, tol); err != nil {
		return nil, err
	}
	if len(pi) != m.S {
		return nil, fmt.Errorf("mdp: policy has %d entries, want S = %d", len(pi), m.S)
	}
	for s, a := range pi {
		if a < 0 || a >= m.A {
			return nil, fmt.Errorf("mdp: policy action %d in state %d out of range [0, %d)", a, s, m.A)
		}
	}
	v := make([]float64, m.S)
	stop := StopFor(gamma, tol)
	for sweep := 0; sweep < maxSolveSweeps; sweep++ {
		delta := 0.0
		for s, a := range pi {
			i := s*m.A + a
			x := 0.0
			for k := m.Start[i]; k < m.Start[i+1]; k++ {
				x += m.Prob[k] * v[m.Next[k]]
			}
			x = m.R[i] + gamma*x
			delta = math.Max(delta, math.Abs(x-v[s]))
			v[s] = x
		}
		if delta <= stop {
			return v, nil
		}
	}
	return nil, fmt.Errorf("mdp: policy evaluation did not converge in %d sweeps", maxSolveSweeps)
}

// ArgMax returns the lowest index of a largest element of q.
func ArgMax(q []float64) int {
	best := 0
	for a := 1; a < len(q); a++ {
		if q[a] > q[best] {
			best = a
		}
	}
	return best
}

// Max returns the largest element of q.
func Max(q []float64) float64 { return q[ArgMax(q)] }
