package experiment

import (
	"bufio"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sync"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// oracleTolerance is ‖V − V*‖∞ of the discounted optimum the oracle solves for.
const oracleTolerance = 1e-7

// TaskOracle measures one agent on one task against the optimal policy of the task's true model.
//
// Regret is OptimalReward minus the task's reward. With T steps per episode, h_t = T − t steps to
// go at step t and V_h the finite-horizon optimal values, step t's one-step regret is
//
//	d_t = V_{h_t}(s_t) − r_t − V_{h_t−1}(s_{t+1}),
//
// which over an episode telescopes to V_T(s_0) − return (V_0 = 0, and a terminal state is worth 0
// at every horizon), so summed over the task the d_t are exactly the regret. Each d_t is filed
// under the agent's phase in s_t (agent.StepInfo; Unclassified for agents that do not report
// one), so Regret[Unclassified] + … + Regret[KnownModel] is the regret. In expectation d_t is
// the action gap V_h(s_t) − Q_h(s_t,a_t) ≥ 0 of the step; the rest is the outcome's deviation
// from its expectation, with mean zero given the past.
type TaskOracle struct {
	// OptimalReward is Σ over the task's episodes of V_T(s_0), the largest expected total reward
	// from the episodes' start states: the best per-task reward in expectation.
	OptimalReward float64 `json:"optimal_reward"`
	// OptimalDiscountedStart is the mean over the task's episodes of V*(s_0), γ-discounted.
	OptimalDiscountedStart float64 `json:"optimal_discounted_start_value"`
	// Mistakes counts ε-mistakes: steps with Q*(s_t,a_t) < V*(s_t) − ε (γ-discounted, ε =
	// oracle.epsilon·V_max), the non-ε-optimal actions of PAC-MDP analyses judged by Q*.
	Mistakes int64 `json:"eps_mistakes"`
	// Regret[φ] is the sum of d_t over the steps taken in phase φ.
	Regret [agent.Phases]float64 `json:"regret_by_phase"`
	// PolicyMistakes counts Kakade's ε-mistakes, steps with V^{π_t}(s_t) < V*(s_t) − ε for the
	// learner's current policy π_t (oracle.policy_mistakes; nil when not measured).
	PolicyMistakes *int64 `json:"policy_mistakes,omitempty"`
}

// Total is the sum of the decomposition, the task's regret.
func (o *TaskOracle) Total() float64 {
	x := 0.0
	for _, g := range o.Regret {
		x += g
	}
	return x
}

// taskSolution is what the oracle knows of one task's true model: its finite-horizon values, its
// γ-discounted optimum and the pairs whose action is an ε-mistake. It is computed once per task
// and read, never written, by every cell that runs the task (oracleCache).
type taskSolution struct {
	m       *mdp.Model
	horizon mdp.Horizon
	vStar   []float64 // γ-discounted V*
	mistake []bool    // per pair: Q*(s,a) < V*(s) − ε
	eps     float64   // ε in reward units
}

// taskOracle measures one cell on one task against the task's solution; its records are the
// cell's own.
type taskOracle struct {
	*taskSolution
	policy *policyEvaluation
	rec    TaskOracle
}

// policyEvaluation holds V^π of a learner's current policy π_t on the true model, re-evaluated
// whenever the learner's policy version changes.
type policyEvaluation struct {
	info    agent.PolicyInfo
	gamma   float64
	version uint64
	fresh   bool      // v is V^π of version
	tol     float64   // ‖V − V^π‖∞ of an evaluation
	pi      []float64 // π(a|s) at s*A+a
	read    []float64 // π read at a new version, compared with pi
	v       []float64 // V^π, warm start of the next evaluation
	r       []float64 // expected reward of each pair
	// The true model's transitions: pair i's go to next[off[i]:off[i+1]] with probability prob.
	off  []int
	next []int32
	prob []float64
}

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
	eps := epsilon * m.MaxAbsReward() / (1 - gamma)
	o := &taskSolution{m: m, horizon: h, vStar: sol.V, mistake: make([]bool, m.S*m.A), eps: eps}
	for i, q := range sol.Q {
		// The tolerance of the solve keeps ties from counting as mistakes when ε = 0.
		o.mistake[i] = q < sol.V[i/m.A]-eps-2*oracleTolerance
	}
	return o, nil
}

// oracleCache shares each task's solution among the cells of one Run: a task is solved when the
// first cell reaches it and dropped when the last cell that runs it has finished it (or was
// resumed from disk), so the solutions held at once are those of the tasks in progress.
type oracleCache struct {
	mu      sync.Mutex
	entries map[*mdp.Model]*oracleEntry
}

type oracleEntry struct {
	once  sync.Once
	sol   *taskSolution
	err   error
	users int // cells still to finish the task, once per occurrence in a cell's sequence
}

// newOracleCache counts, for every task, the cells of p's shard that will run it.
func newOracleCache(p *Plan) *oracleCache {
	c := &oracleCache{entries: map[*mdp.Model]*oracleEntry{}}
	for run, tasks := range p.Runs {
		for k := range p.Agents {
			if !p.Shard.Has(run*len(p.Agents) + k) {
				continue
			}
			for _, t := range tasks {
				e := c.entries[t.Model]
				if e == nil {
					e = &oracleEntry{}
					c.entries[t.Model] = e
				}
				e.users++
			}
		}
	}
	return c
}

// oracle returns a fresh oracle of one cell on task m, on the task's shared solution (p.oracles,
// set by Run) or, for a cell run on its own, on a solution of its own.
func (p *Plan) oracle(m *mdp.Model) (*taskOracle, error) {
	if p.oracles == nil {
		sol, err := solveTask(m, p.Steps, p.Gamma, p.Epsilon)
		return &taskOracle{taskSolution: sol}, err
	}
	p.oracles.mu.Lock()
	e := p.oracles.entries[m]
	p.oracles.mu.Unlock()
	e.once.Do(func() { e.sol, e.err = solveTask(m, p.Steps, p.Gamma, p.Epsilon) })
	return &taskOracle{taskSolution: e.sol}, e.err
}

// release tells the cache that one cell is done with task m.
func (c *oracleCache) release(m *mdp.Model) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[m]; e != nil {
		if e.users--; e.users == 0 {
			delete(c.entries, m)
		}
	}
}

// trackPolicy makes the oracle count Kakade's ε-mistakes of the learner behind info.
func (o *taskOracle) trackPolicy(info agent.PolicyInfo, gamma float64) {
	m := o.m
	pe := &policyEvaluation{info: info, gamma: gamma, tol: max(oracleTolerance, policyTolerance*o.eps),
		pi: make([]float64, m.S*m.A), read: make([]float64, m.S*m.A), v: make([]float64, m.S), r: make([]float64, m.S*m.A),
		off: make([]int, 0, m.S*m.A+1)}
	for i := range pe.r {
		pe.r[i] = m.ExpectedReward(i/m.A, i%m.A)
		pe.off = append(pe.off, len(pe.next))
		for _, t := range m.Row(i/m.A, i%m.A) {
			pe.next, pe.prob = append(pe.next, int32(t.Next)), append(pe.prob, t.Prob)
		}
	}
	pe.off = append(pe.off, len(pe.next))
	o.policy = pe
	o.rec.PolicyMistakes = new(int64)
}

// policyStep counts step t in s as a policy mistake when V^{π_t}(s) < V*(s) − ε, evaluating
// π_t first if the learner's policy changed since the last evaluation.
func (o *taskOracle) policyStep(s int) {
	pe := o.policy
	if pe == nil {
		return
	}
	if v := pe.info.PolicyVersion(); !pe.fresh || v != pe.version {
		pe.evaluate(o.m)
		pe.version, pe.fresh = v, true
	}
	if pe.v[s] < o.vStar[s]-o.eps-2*pe.tol {
		*o.rec.PolicyMistakes++
	}
}

// evaluate reads π from the learner and, unless it is the policy already evaluated, solves
// V^π = r_π + γ P_π V^π by Gauss–Seidel sweeps, warm-started from the last V^π, to
// ‖V − V^π‖∞ ≤ tol.
func (pe *policyEvaluation) evaluate(m *mdp.Model) {
	for s := 0; s < m.S; s++ {
		pe.info.Policy(s, pe.read[s*m.A:s*m.A+m.A])
	}
	if pe.fresh && slices.Equal(pe.read, pe.pi) {
		return
	}
	pe.pi, pe.read = pe.read, pe.pi
	stop := pe.tol * (1 - pe.gamma) / pe.gamma
	for sweep := 0; sweep < maxEvaluationSweeps; sweep++ {
		delta := 0.0
		for s := 0; s < m.S; s++ {
			x := 0.0
			for a := 0; a < m.A; a++ {
				p := pe.pi[s*m.A+a]
				if p == 0 {
					continue
				}
				i := s*m.A + a
				q := 0.0
				for k := pe.off[i]; k < pe.off[i+1]; k++ {
					q += pe.prob[k] * pe.v[pe.next[k]]
				}
				x += p * (pe.r[i] + pe.gamma*q)
			}
			delta = max(delta, math.Abs(x-pe.v[s]))
			pe.v[s] = x
		}
		if delta <= stop {
			return
		}
	}
}

// policyTolerance is the accuracy of V^π as a fraction of ε (oracleTolerance when ε = 0): a step
// is a policy mistake when V^π(s) < V*(s) − ε − 2·tolerance.
const policyTolerance = 1e-4

// maxEvaluationSweeps bounds one policy evaluation; with γ < 1 it converges long before.
const maxEvaluationSweeps = 1_000_000

// episode records the optimum of an episode that starts in s.
func (o *taskOracle) episode(s int) {
	o.rec.OptimalReward += o.horizon.Values(o.horizon.T)[s]
	o.rec.OptimalDiscountedStart += o.vStar[s]
}

// step measures the transition (s, a, r, next) taken with h steps to go in phase ph.
func (o *taskOracle) step(s, a int, r float64, next, h int, ph agent.Phase) {
	if o.mistake[s*o.m.A+a] {
		o.rec.Mistakes++
	}
	o.rec.Regret[ph] += o.horizon.Value(h, s) - r - o.horizon.Value(h-1, next)
}

// finish returns the task's record, the discounted start value averaged over its episodes.
func (o *taskOracle) finish(episodes int) *TaskOracle {
	rec := o.rec
	rec.OptimalDiscountedStart /= float64(episodes)
	return &rec
}

// firstAgentCells returns, in run order, the cells of the spec's first agent: the oracle's
// optimal values depend on the run's tasks and start states only, which all agents share.
func firstAgentCells(s Spec, results []CellResult) []CellResult {
	var out []CellResult
	for _, c := range results {
		if c.Agent == s.Agents[0].Name {
			out = append(out, c)
		}
	}
	return out
}

// optimalPerRun is, per run, the mean over tasks of f of the task's oracle.
func optimalPerRun(s Spec, results []CellResult, f func(*TaskOracle) float64) []float64 {
	var out []float64
	for _, c := range firstAgentCells(s, results) {
		out = append(out, meanOver(c.Tasks, func(t TaskRecord) float64 { return f(t.Oracle) }))
	}
	return out
}

func meanOver(tasks []TaskRecord, f func(TaskRecord) float64) float64 {
	x := 0.0
	for _, t := range tasks {
		x += f(t)
	}
	return x / float64(len(tasks))
}

// agentOracle summarises the named agent against the optimum across runs.
func agentOracle(results []CellResult, name string) *AgentOracle {
	var share, regret, mistakes, policy []float64
	parts := map[string][]float64{}
	shareOK := true
	for _, c := range results {
		if c.Agent != name {
			continue
		}
		got, best := 0.0, 0.0
		for _, t := range c.Tasks {
			got += t.Reward
			best += t.Oracle.OptimalReward
		}
		shareOK = shareOK && best > 0
		share = append(share, got/best)
		regret = append(regret, meanOver(c.Tasks, func(t TaskRecord) float64 { return t.Oracle.OptimalReward - t.Reward }))
		mistakes = append(mistakes, meanOver(c.Tasks, func(t TaskRecord) float64 { return float64(t.Oracle.Mistakes) }))
		if len(c.Tasks) > 0 && c.Tasks[0].Oracle.PolicyMistakes != nil {
			policy = append(policy, meanOver(c.Tasks, func(t TaskRecord) float64 { return float64(*t.Oracle.PolicyMistakes) }))
		}
		for ph := range agent.Phases {
			parts[ph.String()] = append(parts[ph.String()], meanOver(c.Tasks, func(t TaskRecord) float64 { return t.Oracle.Regret[ph] }))
		}
	}
	a := &AgentOracle{MeanRegret: estimate(regret), MeanEpsMistakes: estimate(mistakes), RegretByPhase: map[string]Estimate{}}
	if shareOK {
		e := estimate(share)
		a.ShareOfOptimal = &e
	}
	if len(policy) > 0 {
		e := estimate(policy)
		a.MeanPolicyMistakes = &e
	}
	for k, v := range parts {
		a.RegretByPhase[k] = estimate(v)
	}
	return a
}

// writeOracle writes oracle.csv (the optimum of every task of every run) and regret.csv (every
// agent against it, with the regret decomposition).
func writeOracle(dir string, s Spec, results []CellResult) error {
	if err := writeCSV(filepath.Join(dir, "oracle.csv"), "run,task,start,optimal_reward,optimal_discounted_start_value", func(w *bufio.Writer) {
		for _, c := range firstAgentCells(s, results) {
			for _, t := range c.Tasks {
				fmt.Fprintf(w, "%d,%d,%d,%s,%s\n", c.Run, t.Task, t.Start, num(t.Oracle.OptimalReward), num(t.Oracle.OptimalDiscountedStart))
			}
		}
	}); err != nil {
		return err
	}
	header := "run,agent,task,reward,optimal_reward,regret,share_of_optimal,eps_mistakes"
	for ph := range agent.Phases {
		header += ",regret_" + ph.String()
	}
	policy := s.Oracle.PolicyMistakes // a last column, empty for agents that give no policy
	if policy {
		header += ",policy_mistakes"
	}
	return writeCSV(filepath.Join(dir, "regret.csv"), header, func(w *bufio.Writer) {
		for _, c := range results {
			for _, t := range c.Tasks {
				o := t.Oracle
				share := ""
				if o.OptimalReward > 0 {
					share = num(t.Reward / o.OptimalReward)
				}
				fmt.Fprintf(w, "%d,%s,%d,%s,%s,%s,%s,%d", c.Run, csvField(c.Agent), t.Task, num(t.Reward), num(o.OptimalReward),
					num(o.OptimalReward-t.Reward), share, o.Mistakes)
				for _, g := range o.Regret {
					fmt.Fprintf(w, ",%s", num(g))
				}
				if policy {
					w.WriteByte(',')
					if o.PolicyMistakes != nil {
						fmt.Fprintf(w, "%d", *o.PolicyMistakes)
					}
				}
				w.WriteByte('\n')
			}
		}
	})
}
