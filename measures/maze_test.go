package measures

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

func slipperyMaze(t testing.TB, w int, slip float64) *mdp.Model {
	t.Helper()
	maze := env.Maze{Width: w, Height: w, Slip: env.UniformSlip(w*w, slip), Goals: []env.Cell{{X: w, Y: w}},
		Actions: 4}.WithRewards(env.PaperRewards)
	m, err := maze.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// On a maze that never slips the diameter is the longest shortest path: corner to corner,
// 2(w − 1) moves.
func TestDiameterOfADeterministicMaze(t *testing.T) {
	d, err := DiameterOf(slipperyMaze(t, 6, 0), DiameterOptions{})
	if err != nil || d.D != 10 {
		t.Errorf("6×6 maze without slips: %+v (%v), want 10", d, err)
	}
}

// On a slippery maze every hitting time is checked against an exact solve: the greedy policy of
// the times found, evaluated by solving (I − P_π)·T = 1 over the states other than the target,
// gives the same times (so they are a policy's, an upper bound on the least), and no action
// improves on them by more than the tolerance (the Bellman optimality equation, so they are the
// least).
func TestHittingTimesMatchAnExactSolve(t *testing.T) {
	m := slipperyMaze(t, 4, 0.3)
	h := newHitting(m, reachable(m))
	for g := 0; g < m.S; g++ {
		if _, err := h.solve(g, 1e-9); err != nil {
			t.Fatal(err)
		}
		n := m.S
		a := mat.NewDense(n, n, nil)
		b := mat.NewVecDense(n, nil)
		for s := 0; s < n; s++ {
			a.Set(s, s, 1)
			if s == g {
				continue
			}
			best, bestI := math.Inf(1), -1
			for i := s * m.A; i < (s+1)*m.A; i++ {
				q := 1.0
				for k := m.Start[i]; k < m.Start[i+1]; k++ {
					q += m.Prob[k] * h.v[m.Next[k]]
				}
				if q < best {
					best, bestI = q, i
				}
			}
			if math.Abs(best-h.v[s]) > 1e-8 {
				t.Errorf("into %d from %d: time %v, but the best action gives %v", g, s, h.v[s], best)
			}
			b.SetVec(s, 1)
			for k := m.Start[bestI]; k < m.Start[bestI+1]; k++ {
				if x := int(m.Next[k]); x != g {
					a.Set(s, x, a.At(s, x)-m.Prob[k])
				}
			}
		}
		var exact mat.VecDense
		if err := exact.SolveVec(a, b); err != nil {
			t.Fatal(err)
		}
		for s := 0; s < n; s++ {
			if math.Abs(exact.AtVec(s)-h.v[s]) > 1e-7 {
				t.Errorf("into %d from %d: value iteration %v, exact solve of its policy %v", g, s, h.v[s], exact.AtVec(s))
			}
		}
	}
}
