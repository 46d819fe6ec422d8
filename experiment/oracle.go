package experiment

import (
	"math"
	"slices"
	"sync"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/episode"
	"github.com/temple-rl/temple/mdp"
)

// oracleTolerance is ‖V − V*‖∞ of the discounted optimum the oracle solves for.
const oracleTolerance = 1e-7

// taskSolution is what the oracle knows of one task's true model: its finite-horizon values, its
// γ-discounted optimum and the pairs whose action is an ε-mistake. It is computed once per task
// and read, never written, by every cell that runs the task (oracleCache). A stored model is
// solved whole; a task computed on demand only around the start states of its run (solveLocal).
type taskSolution struct {
	m       *mdp.Model  // the stored model, nil on demand (policy evaluation needs it)
	region  *mdp.Region // the states solved, by local index; nil: every state, by itself
	A       int
	horizon mdp.Horizon
	vStar   []float64 // γ-discounted V*
	mistake []bool    // per pair: Q*(s,a) < V*(s) − ε
	eps     float64   // ε in reward units
}

// local is the index of state s in the solution's arrays.
func (o *taskSolution) local(s int) int {
	if o.region == nil {
		return s
	}
	return o.region.Index(s)
}

// taskOracle measures one cell on one task against the task's solution; its records are the
// cell's own.
type taskOracle struct {
	*taskSolution
	policy *policyEvaluation
	rec    TaskOracle
}

// policyEvaluation holds V^π of a learner's current policy π_t on the true model, brought up to
// date whenever the learner's policy version changes, in one of two ways.
//
// On tasks of at most denseStates states it keeps M = (I − γP_π)⁻¹ and V^π = M r_π exactly (to
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

// denseStates is the largest task whose policies are evaluated exactly through (I − γP_π)⁻¹.
const denseStates = 256

// solveTask solves m for its finite-horizon values over T steps and its γ-discounted optimum, and
// flags the pairs whose action is an ε-mistake.
func solveTask(m *mdp.Model, T int, gamma, epsilon float64) (*taskSolution, error) {
	h, err := mdp.FiniteHorizon(m, T)
	if err != nil {
		return nil, err
	}
	sol, err := mdp.ValueIteration(m, gamma, oracleTolerance)
	if err != nil {
		return nil, err
	}
	return newSolution(m, nil, m.A, h, sol, epsilon*m.MaxAbsReward()/(1-gamma)), nil
}

// solveLocal solves a task computed on demand where the cells of one run can be: its
// finite-horizon values on the states within T steps of the run's start states (exactly those of
// a whole solve), and V* on a region around them wide enough (mdp.RadiusFor) that the values
// there are within oracleTolerance of V*, the tolerance of a whole solve.
func solveLocal(d mdp.Dynamics, starts []int, T int, gamma, epsilon float64) (*taskSolution, error) {
	vmax := d.MaxAbsReward() / (1 - gamma)
	r := mdp.Around(d, starts, mdp.RadiusFor(T, gamma, vmax, oracleTolerance/2))
	h, err := r.FiniteHorizon(d, T)
	if err != nil {
		return nil, err
	}
	sol, err := r.ValueIteration(d, gamma, oracleTolerance/2)
	if err != nil {
		return nil, err
	}
	_, A := d.Size()
	return newSolution(nil, r, A, h, sol, epsilon*d.MaxAbsReward()/(1-gamma)), nil
}

// newSolution flags the ε-mistakes of sol.
func newSolution(m *mdp.Model, r *mdp.Region, A int, h mdp.Horizon, sol mdp.Solution, eps float64) *taskSolution {
	o := &taskSolution{m: m, region: r, A: A, horizon: h, vStar: sol.V, mistake: make([]bool, len(sol.Q)), eps: eps}
	for i, q := range sol.Q {
		// The tolerance of the solve keeps ties from counting as mistakes when ε = 0.
		o.mistake[i] = q < sol.V[i/A]-eps-2*oracleTolerance
	}
	return o
}

// oracleCache shares each task's solution among the cells of one Run: a task is solved when the
// first cell reaches it and dropped when the last cell that runs it has finished it (or was
// resumed from disk), so the solutions held at once are those of the tasks in progress.
type oracleCache struct {
	mu      sync.Mutex
	entries map[oracleKey]*oracleEntry
}

// oracleKey names a solution: a stored model's is shared by every run and task that draws it; one
// computed on demand is solved around the start states of one task of one run.
type oracleKey struct {
	task   mdp.Dynamics
	run, k int // −1 for a stored model
}

type oracleEntry struct {
	once  sync.Once
	sol   *taskSolution
	err   error
	users int // cells still to finish the task, once per occurrence in a cell's sequence
}

// solutionKey is the key of the solution of t, task k of run.
func solutionKey(run, k int, t Task) oracleKey {
	if t.Model != nil {
		return oracleKey{task: t.Dynamics(), run: -1, k: -1}
	}
	return oracleKey{task: t.Dynamics(), run: run, k: k}
}

// newOracleCache counts, for every task, the cells of p's shard that will run it.
func newOracleCache(p *Plan) *oracleCache {
	c := &oracleCache{entries: map[oracleKey]*oracleEntry{}}
	for run, tasks := range p.Runs {
		for a := range p.Agents {
			if !p.Shard.Has(run*len(p.Agents) + a) {
				continue
			}
			for k, t := range tasks {
				key := solutionKey(run, k, t)
				e := c.entries[key]
				if e == nil {
					e = &oracleEntry{}
					c.entries[key] = e
				}
				e.users++
			}
		}
	}
	return c
}

// solve solves task k of run: whole when it is stored, around its start states when it is
// computed on demand.
func (p *Plan) solve(run, k int, t Task) (*taskSolution, error) {
	if t.Model != nil {
		return solveTask(t.Model, p.Steps, p.Gamma, p.Epsilon)
	}
	return solveLocal(t.Dynamics(), p.starts(run, k, t), p.Steps, p.Gamma, p.Epsilon)
}

// starts are the start states of every episode of task k of run, drawn as the episodes draw
// them (the start stream is the same for every agent).
func (p *Plan) starts(run, k int, t Task) []int {
	return episode.TableStarts(episode.Task{Table: t.Dynamics(), Fixed: t.Start}, p.episodes(), episode.StreamsOf(p.Seed, run, "", k))
}

// oracle returns a fresh oracle of one cell on task k of run, on the task's shared solution
// (p.oracles, set by Run) or, for a cell run on its own, on a solution of its own.
func (p *Plan) oracle(run, k int, t Task) (*taskOracle, error) {
	if p.oracles == nil {
		sol, err := p.solve(run, k, t)
		return &taskOracle{taskSolution: sol}, err
	}
	sol, err := p.oracles.entry(solutionKey(run, k, t)).solution(p, run, k, t)
	return &taskOracle{taskSolution: sol}, err
}

// entry is the entry of key, nil once every cell that runs its task is done with it.
func (c *oracleCache) entry(key oracleKey) *oracleEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[key]
}

// solution is the solution of the entry's task, task k of run in p, solved by the first caller
// while the others wait for it.
func (e *oracleEntry) solution(p *Plan, run, k int, t Task) (*taskSolution, error) {
	e.once.Do(func() { e.sol, e.err = p.solve(run, k, t) })
	return e.sol, e.err
}

// prepareOracles starts solving every table task of run in a goroutine of its own, so that the
// tasks of a run are solved side by side while its first cells wait for the first task; a
// solution solved already, or being solved, is left alone (sync.Once).
func (p *Plan) prepareOracles(run int) {
	if p.oracles == nil {
		return
	}
	for k, t := range p.Runs[run] {
		if e := p.oracles.entry(solutionKey(run, k, t)); e != nil && t.Dynamics() != nil { // a simulator has no oracle
			go e.solution(p, run, k, t)
		}
	}
}

// release tells the cache that one cell is done with the task of key.
func (c *oracleCache) release(key oracleKey) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[key]; e != nil {
		if e.users--; e.users == 0 {
			delete(c.entries, key)
		}
	}
}

// trackPolicy makes the oracle count Kakade's ε-mistakes of the learner behind info.
func (o *taskOracle) trackPolicy(info agent.PolicyInfo, gamma float64) {
	o.policy = newPolicyEvaluation(o.m, info, gamma, max(oracleTolerance, policyTolerance*o.eps), o.m.S <= denseStates)
	o.rec.PolicyMistakes = new(int64)
}

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

// Acting counts step t in s as a policy mistake when V^{π_t}(s) < V*(s) − ε, evaluating
// π_t first if the learner's policy changed since the last evaluation.
func (o *taskOracle) Acting(s int) {
	pe := o.policy
	if pe == nil {
		return
	}
	if v := pe.info.PolicyVersion(); !pe.fresh || v != pe.version {
		pe.evaluate()
		pe.version, pe.fresh = v, true
	}
	if pe.v[s] < o.vStar[s]-o.eps-2*pe.tol {
		*o.rec.PolicyMistakes++
	}
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

// policyTolerance is the accuracy of V^π as a fraction of ε (oracleTolerance when ε = 0): a step
// is a policy mistake when V^π(s) < V*(s) − ε − 2·tolerance.
const policyTolerance = 1e-4

// Episode records the optimum of an episode that starts in s.
func (o *taskOracle) Episode(s int) {
	k := o.local(s)
	o.rec.OptimalReward += o.horizon.Values(o.horizon.T)[k]
	o.rec.OptimalDiscountedStart += o.vStar[k]
}

// Stepped measures the transition (s, a, r, next) taken with h steps to go in phase ph.
func (o *taskOracle) Stepped(s, a int, r float64, next, h int, ph agent.Phase) {
	k := o.local(s)
	if o.mistake[k*o.A+a] {
		o.rec.Mistakes++
	}
	o.rec.Regret[ph] += o.horizon.Value(h, k) - r - o.horizon.Value(h-1, o.local(next))
	o.rec.StepsByPhase[ph]++
}

// finish returns the task's record, the discounted start value averaged over its episodes.
func (o *taskOracle) finish(episodes int) *TaskOracle {
	rec := o.rec
	rec.OptimalDiscountedStart /= float64(episodes)
	return &rec
}
