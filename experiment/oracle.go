package experiment

import (
	"bufio"
	"fmt"
	"path/filepath"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// oracleTolerance is ‖V − V*‖∞ of the discounted optimum the oracle solves for.
const oracleTolerance = 1e-9

// TaskOracle measures one agent on one task against the optimal policy of the task's true model.
//
// Regret is OptimalReward minus the task's reward. With T steps per episode, h_t = T − t steps to
// go at step t, V_h and Q_h the finite-horizon optimal values, each step's share of the regret is
// d_t = V_{h_t}(s_t) − r_t − V_{h_t−1}(s_{t+1}); over an episode these telescope to
// V_T(s_0) − return (V_0 = 0, and a terminal state is worth 0), so summed over the task they are
// exactly the regret. Each d_t splits into the action gap V_h(s_t) − Q_h(s_t,a_t) ≥ 0, the
// expected loss of the agent's choice, filed under the agent's phase in s_t (agent.StepInfo), and
// the luck Q_h(s_t,a_t) − r_t − V_{h−1}(s_{t+1}), the outcome's deviation from its expectation
// (mean zero given the past). So Gap[Unclassified] + … + Gap[KnownModel] + Luck = regret.
type TaskOracle struct {
	// OptimalReward is Σ over the task's episodes of V_T(s_0), the largest expected total reward
	// from the episodes' start states: the best per-task reward in expectation.
	OptimalReward float64 `json:"optimal_reward"`
	// OptimalDiscountedStart is the mean over the task's episodes of V*(s_0), γ-discounted.
	OptimalDiscountedStart float64 `json:"optimal_discounted_start_value"`
	// Mistakes counts ε-mistakes: steps with Q*(s_t,a_t) < V*(s_t) − ε (γ-discounted, ε =
	// oracle.epsilon·V_max), the non-ε-optimal actions of PAC-MDP analyses judged by Q*.
	Mistakes int64 `json:"eps_mistakes"`
	// Gap[φ] is the sum of the action gaps of the steps taken in phase φ.
	Gap [agent.Phases]float64 `json:"gap_by_phase"`
	// Luck is the sum of the steps' deviations from their expected outcomes.
	Luck float64 `json:"luck"`
}

// Regret is the total of the decomposition: the sum of the gaps of every phase and the luck.
func (o *TaskOracle) Regret() float64 {
	x := o.Luck
	for _, g := range o.Gap {
		x += g
	}
	return x
}

// taskOracle holds what the runner needs to measure steps against the optimum of one task.
type taskOracle struct {
	m       *mdp.Model
	horizon mdp.Horizon
	vStar   []float64 // γ-discounted V*
	mistake []bool    // per pair: Q*(s,a) < V*(s) − ε
	rec     TaskOracle
}

// newTaskOracle solves m for its finite-horizon values over T steps and its γ-discounted
// optimum, and flags the pairs whose action is an ε-mistake.
func newTaskOracle(m *mdp.Model, T int, gamma, epsilon float64) (*taskOracle, error) {
	h, err := mdp.FiniteHorizon(m, T)
	if err != nil {
		return nil, err
	}
	sol, err := mdp.ValueIteration(m, gamma, oracleTolerance)
	if err != nil {
		return nil, err
	}
	eps := epsilon * m.MaxAbsReward() / (1 - gamma)
	o := &taskOracle{m: m, horizon: h, vStar: sol.V, mistake: make([]bool, m.S*m.A)}
	for i, q := range sol.Q {
		// The tolerance of the solve keeps ties from counting as mistakes when ε = 0.
		o.mistake[i] = q < sol.V[i/m.A]-eps-2*oracleTolerance
	}
	return o, nil
}

// episode records the optimum of an episode that starts in s.
func (o *taskOracle) episode(s int) {
	o.rec.OptimalReward += o.horizon.Values(o.horizon.T)[s]
	o.rec.OptimalDiscountedStart += o.vStar[s]
}

// step measures the transition (s, a, r, next) taken with h steps to go in phase ph.
func (o *taskOracle) step(s, a int, r float64, next, h int, ph agent.Phase) {
	i := s*o.m.A + a
	if o.mistake[i] {
		o.rec.Mistakes++
	}
	after := o.horizon.Values(h - 1)
	q := o.m.Backup(i, after, 1)
	o.rec.Gap[ph] += o.horizon.Values(h)[s] - q
	o.rec.Luck += q - r - after[next]
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
	var share, regret, mistakes []float64
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
		for ph := range agent.Phases {
			parts[ph.String()] = append(parts[ph.String()], meanOver(c.Tasks, func(t TaskRecord) float64 { return t.Oracle.Gap[ph] }))
		}
		parts[luckColumn] = append(parts[luckColumn], meanOver(c.Tasks, func(t TaskRecord) float64 { return t.Oracle.Luck }))
	}
	a := &AgentOracle{MeanRegret: estimate(regret), MeanEpsMistakes: estimate(mistakes), RegretByPhase: map[string]Estimate{}}
	if shareOK {
		e := estimate(share)
		a.ShareOfOptimal = &e
	}
	for k, v := range parts {
		a.RegretByPhase[k] = estimate(v)
	}
	return a
}

// luckColumn names the luck part of the regret decomposition in regret.csv and summary.json.
const luckColumn = "luck"

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
		header += ",gap_" + ph.String()
	}
	header += "," + luckColumn
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
				for _, g := range o.Gap {
					fmt.Fprintf(w, ",%s", num(g))
				}
				fmt.Fprintf(w, ",%s\n", num(o.Luck))
			}
		}
	})
}
