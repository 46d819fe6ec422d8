package temple

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/mdp"
)

// knownTolerance is ‖V − V*‖∞ of the optimal policy of each known model: the oracle's
// (oracle.Tolerance), so that with one known model the reference acts as the oracle's policy.
const knownTolerance = 1e-7

// KnownModelsType is KnownModels' agent type: the name a config gives it (type: known-models) and
// its errors begin with.
const KnownModelsType = "known-models"

// KnownModels is a reference, not a method: the identification oracle. It is told the distinct
// models of the run's task sequence (transitions and rewards; not which task has which, nor their
// order or how often each recurs), and acts by posterior sampling over that finite set: a
// uniform prior over the known models of the task's size and terminal states (which every learner
// is told), the exact posterior from the task's own transitions and rewards by Bayes' rule,
//
//	P(k | data) ∝ ∏ P_k(s′, r | s, a)   (P_k(s′, r | s, a): the probability of the outcome under model k),
//
// a model drawn from it at the start of the task, at the end of every episode and whenever a
// sample rules the drawn model out, and the optimal policy of the drawn model followed. Nothing
// carries over from one task to the next: the posterior starts uniform again.
//
// It measures the headroom of identification on a family: what a learner that had already learned
// the family's models exactly could gain, when it still has to find out which one it faces. It is
// not a bound: posterior sampling is not the Bayes-optimal way to identify, and with one known
// model it is exactly the oracle's policy. It needs the tasks' models (a simulator has none).
type KnownModels struct {
	models []knownModel // the distinct models, in order of first appearance
	gamma  float64

	// Per task.
	candidates []int     // the models of the task's size and terminal states
	logw       []float64 // per candidate: ln of its posterior weight, unnormalised
	weights    []float64
	drawn      int // the candidate followed
	rng        *rand.Rand
	// unexplained counts the task's samples that no candidate could have produced (left out of
	// the posterior): 0 whenever the task's model is among the known models.
	unexplained int
	draws       int
}

// knownModel is one known model, each pair's outcomes merged by (next state, reward) and sorted,
// and its optimal policy.
type knownModel struct {
	S, A     int
	terminal []bool
	start    []int // pair i's outcomes are out[start[i]:start[i+1]]
	out      []knownOutcome
	policy   []int
}

type knownOutcome struct {
	next   int
	reward float64
	p      float64
}

// Known-Models registers as the identification oracle: it has no parameters.
func init() {
	agenttypes.Register(agenttypes.Type{Name: KnownModelsType, Display: "Known-Models", Summary: "a reference, not a method: the identification oracle, told the distinct models of the run's tasks (not which task has which) and acting by posterior sampling over them, the headroom of identification",
		Defaults: func() agenttypes.Params { return &KnownModelsParams{} }, PairBytes: 120, Rank: 160})
}

// KnownModelsParams are the identification oracle's parameters: none; it is built from the
// distinct models of the run's tasks.
type KnownModelsParams struct{}

// Validate accepts: there is nothing to check.
func (*KnownModelsParams) Validate() error { return nil }

// New builds the oracle from the run's true models.
func (*KnownModelsParams) New(ctx agenttypes.Context) (agent.Agent, error) {
	return NewKnownModels(ctx.Models, ctx.Gamma)
}

// BuiltFromModels: the oracle is built from the run's true models (agenttypes.NeedsModels).
func (*KnownModelsParams) BuiltFromModels() {}

// MemoryBytes is a model per task at most (a distinct model of each), its type's bytes per pair
// each.
func (*KnownModelsParams) MemoryBytes(typeBytes, S, A, tasks int64) int64 {
	return typeBytes * S * A * max(tasks, 1)
}

// NewKnownModels returns the reference told models (a run's tasks' true models, in order; a model
// that equals an earlier one, outcome for outcome and terminal state for terminal state, is the
// same model) with discount gamma, each solved for its optimal policy.
func NewKnownModels(models []*mdp.Model, gamma float64) (*KnownModels, error) {
	kn := &KnownModels{gamma: gamma}
	for t, m := range models {
		if m == nil {
			return nil, fmt.Errorf("known-models: task %d has no stored model (a simulator, or a task computed on demand), and this reference is told the tasks' models", t)
		}
		x := newKnownModel(m)
		if slices.ContainsFunc(kn.models, x.equal) {
			continue
		}
		sol, err := mdp.ValueIteration(m, gamma, knownTolerance)
		if err != nil {
			return nil, fmt.Errorf("known-models: task %d's model: %w", t, err)
		}
		x.policy = sol.Policy
		kn.models = append(kn.models, x)
	}
	if len(kn.models) == 0 {
		return nil, fmt.Errorf("known-models: no task models given")
	}
	return kn, nil
}

func newKnownModel(m *mdp.Model) knownModel {
	x := knownModel{S: m.S, A: m.A, terminal: terminalStates(m.TerminalStates()), start: make([]int, 0, m.S*m.A+1)}
	for i := range m.S * m.A {
		x.start = append(x.start, len(x.out))
		row := x.out[len(x.out):]
		for _, t := range m.Row(i/m.A, i%m.A) {
			k := slices.IndexFunc(row, func(o knownOutcome) bool { return o.next == t.Next && o.reward == t.Reward })
			if k < 0 {
				row = append(row, knownOutcome{next: t.Next, reward: t.Reward})
				k = len(row) - 1
			}
			row[k].p += t.Prob
		}
		slices.SortFunc(row, func(a, b knownOutcome) int {
			return cmp.Or(cmp.Compare(a.next, b.next), cmp.Compare(a.reward, b.reward))
		})
		x.out = append(x.out, row...)
	}
	x.start = append(x.start, len(x.out))
	return x
}

// equal reports whether y is the same model as x: the same size, terminal states and outcomes.
func (x knownModel) equal(y knownModel) bool {
	return x.S == y.S && x.A == y.A && slices.Equal(x.terminal, y.terminal) && slices.Equal(x.start, y.start) && slices.Equal(x.out, y.out)
}

// likelihood is P(next, r | pair i) under x.
func (x knownModel) likelihood(i, next int, r float64) float64 {
	for _, o := range x.out[x.start[i]:x.start[i+1]] {
		if o.next == next && o.reward == r {
			return o.p
		}
	}
	return 0
}

// Models is the number of distinct models the reference was told.
func (kn *KnownModels) Models() int { return len(kn.models) }

// BeginTask makes the posterior uniform over the known models of the task's size and terminal
// states, and draws one.
func (kn *KnownModels) BeginTask(t agent.Task) error {
	kn.candidates = kn.candidates[:0]
	for k, m := range kn.models {
		if m.S == t.S && m.A == t.A && slices.Equal(m.terminal, terminalStates(t.Terminal)) {
			kn.candidates = append(kn.candidates, k)
		}
	}
	if len(kn.candidates) == 0 {
		return fmt.Errorf("known-models: task %d (%d states, %d actions) has none of the %d known models' size and terminal states", t.Index, t.S, t.A, len(kn.models))
	}
	kn.logw = slices.Grow(kn.logw[:0], len(kn.candidates))[:len(kn.candidates)]
	for k := range kn.logw {
		kn.logw[k] = 0
	}
	kn.rng, kn.unexplained, kn.draws = t.Rand, 0, 0
	kn.draw()
	return nil
}

// terminalStates is terminal, nil when no state is terminal (a task's or a model's flags).
func terminalStates(terminal []bool) []bool {
	if !slices.Contains(terminal, true) {
		return nil
	}
	return terminal
}

// Act follows the drawn model's optimal policy.
func (kn *KnownModels) Act(s int) int { return kn.models[kn.candidates[kn.drawn]].policy[s] }

// Observe multiplies every candidate's weight by the sample's probability under it (Bayes'
// rule), and draws again when the drawn model is ruled out.
func (kn *KnownModels) Observe(s, a int, r float64, next int) {
	i, explained := s*kn.models[kn.candidates[0]].A+a, false
	for k, c := range kn.candidates {
		if !math.IsInf(kn.logw[k], -1) && kn.models[c].likelihood(i, next, r) > 0 {
			explained = true
		}
	}
	if !explained {
		kn.unexplained++
		return
	}
	for k, c := range kn.candidates {
		kn.logw[k] += math.Log(kn.models[c].likelihood(i, next, r))
	}
	if math.IsInf(kn.logw[kn.drawn], -1) {
		kn.draw()
	}
}

// Posterior writes the posterior probability of every known model into dst (length Models): 0
// for a model that is not a candidate of the task or was ruled out.
func (kn *KnownModels) Posterior(dst []float64) {
	kn.weights = append(kn.weights[:0], kn.logw...)
	normalize(kn.weights)
	clear(dst)
	for k, c := range kn.candidates {
		dst[c] = kn.weights[k]
	}
}

// draw draws a candidate from the posterior (no random number when only one is left).
func (kn *KnownModels) draw() {
	kn.draws++
	kn.weights = append(kn.weights[:0], kn.logw...)
	normalize(kn.weights)
	live := 0
	for _, w := range kn.weights {
		if w > 0 {
			live++
		}
	}
	if live == 1 {
		kn.drawn = slices.IndexFunc(kn.weights, func(w float64) bool { return w > 0 })
		return
	}
	kn.drawn = drawIndex(kn.weights, kn.rng.Float64())
	for kn.weights[kn.drawn] == 0 { // drawIndex's last index, reached by rounding
		kn.drawn--
	}
}

// EndEpisode draws a model from the posterior.
func (kn *KnownModels) EndEpisode() { kn.draw() }

// EndTask keeps nothing: the reference is told, it learns nothing across tasks.
func (kn *KnownModels) EndTask() {}

// TaskMetrics are the candidates of the task, the largest posterior probability at its end, the
// draws and the samples no candidate explains (0 whenever the task's model is known).
func (kn *KnownModels) TaskMetrics() []agent.Metric {
	kn.weights = append(kn.weights[:0], kn.logw...)
	normalize(kn.weights)
	return []agent.Metric{
		{Name: "known_models", Value: float64(len(kn.candidates))},
		{Name: "posterior_max", Value: slices.Max(kn.weights)},
		{Name: "model_draws", Value: float64(kn.draws)},
		{Name: "unexplained_samples", Value: float64(kn.unexplained)},
	}
}
