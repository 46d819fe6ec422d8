package oracle

import "github.com/temple-rl/temple/agent"

// Record is what the oracle measured of one agent on one task against the optimal policy of the
// task's true model (Measure.Finish): a task's record in a cell (results.TaskRecord's Oracle).
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
type Record struct {
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
	// StepsByPhase[φ] counts the steps taken in phase φ.
	StepsByPhase [agent.Phases]int64 `json:"steps_by_phase"`
	// PolicyMistakes counts Kakade's ε-mistakes, steps with V^{π_t}(s_t) < V*(s_t) − ε for the
	// learner's current policy π_t (oracle.policy_mistakes; nil when not measured).
	PolicyMistakes *int64 `json:"policy_mistakes,omitempty"`
}

// Total is the sum of the decomposition, the task's regret.
func (o *Record) Total() float64 {
	x := 0.0
	for _, g := range o.Regret {
		x += g
	}
	return x
}
