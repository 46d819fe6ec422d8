// Package oracle measures an agent against the optimum of a task's true model, step by step: the
// finite-horizon and γ-discounted optimum of each task (Solution, solved once and shared by every
// cell that runs the task through Cache), and for one cell on one task (Measure, a Watcher of
// the episode loop) the optimal reward of its episodes, its ε-mistakes, its regret by phase and,
// for agents that give their policy, Kakade's ε-mistakes of that policy (policy evaluation,
// exact or incremental).
//
// It draws no random numbers, so measuring a cell leaves it unchanged. It may import the
// learner interface (agent) and the tabular model and its solvers (mdp); nothing of the runner,
// nor of the results directory, which stores the record it fills (Record) as a task's.
package oracle

import (
	"github.com/temple-rl/temple/mdp"
)

// Tolerance is ‖V − V*‖∞ of the discounted optimum the oracle solves for.
const Tolerance = 1e-7

// Solution is what the oracle knows of one task's true model: its finite-horizon values, its
// γ-discounted optimum and the pairs whose action is an ε-mistake. It is computed once per task
// and read, never written, by every cell that runs the task (Cache). A stored model is
// solved whole (Solve); a task computed on demand only around the start states of its run
// (SolveLocal).
type Solution struct {
	m       *mdp.Model  // the stored model, nil on demand (policy evaluation needs it)
	region  *mdp.Region // the states solved, by local index; nil: every state, by itself
	A       int
	horizon mdp.Horizon
	vStar   []float64 // γ-discounted V*
	mistake []bool    // per pair: Q*(s,a) < V*(s) − ε
	eps     float64   // ε in reward units
}

// Local reports whether the solution covers only a region of the task's states (SolveLocal on a
// task larger than the region its cells can reach).
func (o *Solution) Local() bool { return o.region != nil && !o.region.Whole() }

// local is the index of state s in the solution's arrays.
func (o *Solution) local(s int) int {
	if o.region == nil {
		return s
	}
	return o.region.Index(s)
}

// Solve solves m for its finite-horizon values over T steps and its γ-discounted optimum, and
// flags the pairs whose action is an ε-mistake.
func Solve(m *mdp.Model, T int, gamma, epsilon float64) (*Solution, error) {
	h, err := mdp.FiniteHorizon(m, T)
	if err != nil {
		return nil, err
	}
	sol, err := mdp.ValueIteration(m, gamma, Tolerance)
	if err != nil {
		return nil, err
	}
	return newSolution(m, nil, m.A, h, sol, epsilon*m.MaxAbsReward()/(1-gamma)), nil
}

// SolveLocal solves a task computed on demand where the cells of one run can be: its
// finite-horizon values on the states within T steps of the run's start states (exactly those of
// a whole solve), and V* on a region around them wide enough (mdp.RadiusFor) that the values
// there are within Tolerance of V*, the tolerance of a whole solve.
func SolveLocal(d mdp.Dynamics, starts []int, T int, gamma, epsilon float64) (*Solution, error) {
	vmax := d.MaxAbsReward() / (1 - gamma)
	r := mdp.Around(d, starts, mdp.RadiusFor(T, gamma, vmax, Tolerance/2))
	h, err := r.FiniteHorizon(d, T)
	if err != nil {
		return nil, err
	}
	sol, err := r.ValueIteration(d, gamma, Tolerance/2)
	if err != nil {
		return nil, err
	}
	_, A := d.Size()
	return newSolution(nil, r, A, h, sol, epsilon*d.MaxAbsReward()/(1-gamma)), nil
}

// newSolution flags the ε-mistakes of sol.
func newSolution(m *mdp.Model, r *mdp.Region, A int, h mdp.Horizon, sol mdp.Solution, eps float64) *Solution {
	o := &Solution{m: m, region: r, A: A, horizon: h, vStar: sol.V, mistake: make([]bool, len(sol.Q)), eps: eps}
	for i, q := range sol.Q {
		// The tolerance of the solve keeps ties from counting as mistakes when ε = 0.
		o.mistake[i] = q < sol.V[i/A]-eps-2*Tolerance
	}
	return o
}
