// Package discretize turns a continuous environment into a tabular simulator: each observation
// falls into a cell of a grid of per-dimension bins, each discrete action is one action vector of
// the environment, and a step of the simulator is a step of the environment. The cell alone does
// not determine the next one — the continuous state inside the simulator does — so the
// simulator is stateful, like a Gymnasium environment, and has no transition table.
//
// Bins are uniform within given bounds (observations outside fall into the outer bins), or
// quantiles of the observations a uniformly random policy visits in a seeded run. A terminating
// environment gets one extra state, the terminal state, which every terminating step leads to;
// it is the last state. An observation that is not a number (NaN) ends the episode with
// ErrNaNState instead of falling into some bin.
package discretize

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/temple-rl/temple/continuous"
)

// ErrNaNState is the error of a step or reset whose observation holds a NaN.
var ErrNaNState = errors.New("discretize: the environment returned a NaN state")

// Config says how to discretize an environment.
type Config struct {
	// Bins is the number of bins of each observation dimension, or one number for all of them.
	Bins []int
	// Low and High bound uniform bins, one value per dimension. Leave both empty to fit quantile
	// bins instead.
	Low, High []float64
	// FitSteps > 0 fits quantile bins: the edges of dimension i are the 1/n, …, (n−1)/n quantiles
	// of dimension i of the observations met in FitSteps steps of the uniformly random policy
	// (episodes chained), drawn from rand.NewPCG(FitSeed, 0).
	FitSteps int
	FitSeed  uint64
	// Actions are the discrete actions, each an action vector of the environment. Empty: the
	// environment's own discrete actions (it must implement continuous.Discrete); use Grid for a
	// set over a continuous range.
	Actions [][]float64
}

// Grid is the action set of n evenly spaced values from low to high (both included) of a
// one-dimensional continuous action, for instance n torques of Pendulum.
func Grid(low, high float64, n int) ([][]float64, error) {
	switch {
	case n < 1:
		return nil, fmt.Errorf("discretize: action grid of n = %d values, want n >= 1", n)
	case math.IsNaN(low) || math.IsNaN(high) || low > high || math.IsInf(low, 0) || math.IsInf(high, 0):
		return nil, fmt.Errorf("discretize: action grid from low = %v to high = %v, want finite low <= high", low, high)
	case n == 1:
		return [][]float64{{(low + high) / 2}}, nil
	}
	out := make([][]float64, n)
	for k := range out {
		out[k] = []float64{low + (high-low)*float64(k)/float64(n-1)}
	}
	out[n-1][0] = high
	return out, nil
}

// Sim is the tabular simulator of one environment. It is not safe for concurrent use: give each
// worker its own.
type Sim struct {
	env     continuous.Env
	dims    int
	bins    []int
	uniform bool
	low     []float64 // uniform: lower bound of dimension i
	scale   []float64 // uniform: bins[i] / (high[i] − low[i])
	edges   [][]float64
	actions [][]float64
	cells   int // number of grid cells; the terminal state, if any, is state cells
	term    bool
	obs     []float64
	visits  []int64
	live    bool
}

// New discretizes env by c; errors name the field (bins, low, high, fit_steps, actions) and value.
func New(env continuous.Env, c Config) (*Sim, error) {
	dims := env.StateDim()
	d := &Sim{env: env, dims: dims, obs: make([]float64, dims), term: true}
	if ep, ok := env.(continuous.Episodic); ok {
		d.term = ep.Terminates()
	}
	switch len(c.Bins) {
	case 1:
		d.bins = slices.Repeat([]int{c.Bins[0]}, dims)
	case dims:
		d.bins = slices.Clone(c.Bins)
	default:
		return nil, fmt.Errorf("discretize: bins = %v for %d observation dimensions, want 1 or %d values", c.Bins, dims, dims)
	}
	d.cells = 1
	for i, n := range d.bins {
		if n < 1 || n > 1<<20 {
			return nil, fmt.Errorf("discretize: bins[%d] = %d, want 1 <= bins <= %d", i, n, 1<<20)
		}
		if d.cells > (1<<31)/n {
			return nil, fmt.Errorf("discretize: bins = %v make more than 2^31 cells", c.Bins)
		}
		d.cells *= n
	}
	if err := d.setBins(c); err != nil {
		return nil, err
	}
	if err := d.setActions(c.Actions); err != nil {
		return nil, err
	}
	return d, nil
}

// MaxFitSteps is the largest fit_steps: the random-policy steps of a quantile fit are stored,
// and a million already places every edge of a thousand bins within a few hundred observations.
const MaxFitSteps = 1_000_000

func (d *Sim) setBins(c Config) error {
	if c.FitSteps < 0 || c.FitSteps > MaxFitSteps {
		return fmt.Errorf("discretize: fit_steps = %d, want 0 <= fit_steps <= %d", c.FitSteps, MaxFitSteps)
	}
	if c.FitSteps > 0 {
		if len(c.Low) > 0 || len(c.High) > 0 {
			return fmt.Errorf("discretize: fit_steps = %d with low/high: give either bounds (uniform bins) or fit_steps (quantile bins)", c.FitSteps)
		}
		return d.fitQuantiles(c.FitSteps, c.FitSeed)
	}
	if len(c.Low) != d.dims || len(c.High) != d.dims {
		return fmt.Errorf("discretize: low has %d and high %d values, want %d each (or fit_steps > 0 for quantile bins)", len(c.Low), len(c.High), d.dims)
	}
	d.uniform = true
	d.low, d.scale = slices.Clone(c.Low), make([]float64, d.dims)
	for i := range d.dims {
		lo, hi := c.Low[i], c.High[i]
		if math.IsNaN(lo) || math.IsInf(lo, 0) {
			return fmt.Errorf("discretize: low[%d] = %v, want a finite number", i, lo)
		}
		if math.IsNaN(hi) || math.IsInf(hi, 0) || hi <= lo {
			return fmt.Errorf("discretize: high[%d] = %v, want a finite number > low[%d] = %v", i, hi, i, lo)
		}
		d.scale[i] = float64(d.bins[i]) / (hi - lo)
	}
	return nil
}

// fitQuantiles sets the inner edges of every dimension to the quantiles of random-policy
// observations (every state and successor of the collected transitions).
func (d *Sim) fitQuantiles(steps int, seed uint64) error {
	tr, err := continuous.CollectRandom(d.env, rand.New(rand.NewPCG(seed, 0)), steps)
	if err != nil {
		return fmt.Errorf("discretize: fitting quantile bins: %w", err)
	}
	d.edges = make([][]float64, d.dims)
	col := make([]float64, 0, 2*steps)
	for i := range d.dims {
		col = col[:0]
		for r := range tr.Len() {
			s, _, next := tr.Row(r)
			col = append(col, s[i], next[i])
		}
		if slices.ContainsFunc(col, math.IsNaN) {
			return fmt.Errorf("discretize: fitting quantile bins: dimension %d: %w", i, ErrNaNState)
		}
		slices.Sort(col)
		n := d.bins[i]
		d.edges[i] = make([]float64, n-1)
		for k := 1; k < n; k++ {
			d.edges[i][k-1] = col[k*len(col)/n]
		}
	}
	return nil
}

func (d *Sim) setActions(actions [][]float64) error {
	ad := d.env.ActionDim()
	if len(actions) == 0 {
		disc, ok := d.env.(continuous.Discrete)
		if !ok {
			return fmt.Errorf("discretize: actions: none given, and %s has no discrete actions of its own (give a grid)", d.env.Name())
		}
		for a := range disc.NumActions() {
			d.actions = append(d.actions, []float64{float64(a)})
		}
		return nil
	}
	for k, a := range actions {
		if len(a) != ad {
			return fmt.Errorf("discretize: actions[%d] = %v, want %d numbers", k, a, ad)
		}
		if slices.ContainsFunc(a, math.IsNaN) {
			return fmt.Errorf("discretize: actions[%d] = %v, want numbers", k, a)
		}
	}
	d.actions = slices.Clone(actions)
	return nil
}

// Size is the number of states (grid cells, and the terminal state when the environment can
// terminate) and of actions.
func (d *Sim) Size() (states, actions int) {
	if d.term {
		return d.cells + 1, len(d.actions)
	}
	return d.cells, len(d.actions)
}

// RewardRange is the range of the environment's rewards when it states one
// (continuous.RewardRanger); ok is false when it does not.
func (d *Sim) RewardRange() (lo, hi float64, ok bool) {
	r, ok := d.env.(continuous.RewardRanger)
	if !ok {
		return 0, 0, false
	}
	lo, hi = r.RewardRange()
	return lo, hi, true
}

// Terminates says whether episodes can end in the terminal state (the last state).
func (d *Sim) Terminates() bool { return d.term }

// TerminalState is the terminal state, or −1 when the environment never terminates.
func (d *Sim) TerminalState() int {
	if d.term {
		return d.cells
	}
	return -1
}

// Cell is the grid cell of observation obs: dimension i falls into bin b_i, and the cell is
// Σ b_i·Π_{j>i} bins_j. It returns ErrNaNState when obs holds a NaN.
func (d *Sim) Cell(obs []float64) (int, error) {
	cell := 0
	for i, x := range obs {
		if x != x {
			return 0, fmt.Errorf("%w (dimension %d of %v)", ErrNaNState, i, obs)
		}
		var b int
		if d.uniform {
			f := (x - d.low[i]) * d.scale[i]
			switch {
			case f < 0:
				b = 0
			case f >= float64(d.bins[i]):
				b = d.bins[i] - 1
			default:
				b = int(f)
			}
		} else {
			// The number of inner edges ≤ x.
			e := d.edges[i]
			lo, hi := 0, len(e)
			for lo < hi {
				m := int(uint(lo+hi) >> 1)
				if e[m] <= x {
					lo = m + 1
				} else {
					hi = m
				}
			}
			b = lo
		}
		cell = cell*d.bins[i] + b
	}
	return cell, nil
}

// Reset starts an episode of the environment with rng and returns the cell it lands in.
func (d *Sim) Reset(rng *rand.Rand) (int, error) {
	d.env.Reset(rng, d.obs)
	s, err := d.Cell(d.obs)
	if err != nil {
		d.live = false
		return 0, fmt.Errorf("reset of %s: %w", d.env.Name(), err)
	}
	d.live = true
	if d.visits == nil { // allocated at the first episode, so that validating a spec stays cheap
		S, _ := d.Size()
		d.visits = make([]int64, S)
	}
	d.visits[s]++
	return s, nil
}

// Step takes discrete action a and returns the next state — the terminal state when the step
// terminated — its reward, and whether the episode terminated or was truncated by the
// environment's time limit. A NaN observation ends the episode with ErrNaNState.
func (d *Sim) Step(a int) (next int, reward float64, terminated, truncated bool, err error) {
	if a < 0 || a >= len(d.actions) {
		return 0, 0, false, false, fmt.Errorf("discretize: action %d, want 0 <= action < %d", a, len(d.actions))
	}
	if !d.live {
		return 0, 0, false, false, errors.New("discretize: step outside an episode (call Reset first)")
	}
	reward, terminated, truncated, err = d.env.Step(d.actions[a], d.obs)
	if err != nil {
		d.live = false
		return 0, 0, false, false, err
	}
	if terminated {
		if !d.term {
			d.live = false
			return 0, 0, false, false, fmt.Errorf("discretize: %s terminated an episode but says it never terminates", d.env.Name())
		}
		next = d.cells
	} else if next, err = d.Cell(d.obs); err != nil {
		d.live = false
		return 0, 0, false, false, fmt.Errorf("step of %s: %w", d.env.Name(), err)
	}
	d.live = !terminated && !truncated
	d.visits[next]++
	return next, reward, terminated, truncated, nil
}

// Visits is how often each state was landed in (by a reset or a step) since the simulator was
// made (nil before its first episode).
func (d *Sim) Visits() []int64 { return d.visits }

// Unvisited is the number of grid cells never landed in — cells the random data of a quantile
// fit or the bounds put where the dynamics never go, or that an agent never reached. The
// terminal state is not counted.
func (d *Sim) Unvisited() int {
	if d.visits == nil {
		return d.cells
	}
	n := 0
	for _, v := range d.visits[:d.cells] {
		if v == 0 {
			n++
		}
	}
	return n
}

// Edges are the inner bin edges of dimension i: n−1 increasing values for n bins.
func (d *Sim) Edges(i int) []float64 {
	if !d.uniform {
		return slices.Clone(d.edges[i])
	}
	out := make([]float64, d.bins[i]-1)
	for k := range out {
		out[k] = d.low[i] + float64(k+1)/d.scale[i]
	}
	return out
}
