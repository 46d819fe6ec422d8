package temple

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// twoStates is a model of 2 states and 1 action: from state 0 to state 1 with probability p
// (reward r1), else back to 0 (reward 0); from state 1 to state 0 (reward 0).
func twoStates(t *testing.T, p, r1 float64) *mdp.Model {
	t.Helper()
	m, err := mdp.New(2, 1, [][]mdp.Transition{
		{{Next: 1, Prob: p, Reward: r1}, {Next: 0, Prob: 1 - p}},
		{{Next: 0, Prob: 1}},
	}, []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func beginKnown(t *testing.T, kn *KnownModels, S, A int) {
	t.Helper()
	if err := kn.BeginTask(agent.Task{S: S, A: A, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, 2))}); err != nil {
		t.Fatal(err)
	}
}

// TestKnownModelsPosteriorByHand: told X (0 → 1 with 0.8), Y (0.3), X again and Z (X with reward
// 1 on 0 → 1), the reference holds 3 models. After 0→1 (reward 0), 1→0, 0→1, 0→0, Bayes' rule from
// the uniform prior gives X ∝ 0.8·1·0.8·0.2 = 0.128, Y ∝ 0.3·1·0.3·0.7 = 0.063, and Z 0 (it pays 1 on
// 0 → 1): X 0.128/0.191, Y 0.063/0.191. A sample no model explains is left out and counted.
func TestKnownModelsPosteriorByHand(t *testing.T) {
	x, y, z := twoStates(t, 0.8, 0), twoStates(t, 0.3, 0), twoStates(t, 0.8, 1)
	kn, err := NewKnownModels([]*mdp.Model{x, y, twoStates(t, 0.8, 0), z}, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if kn.Models() != 3 {
		t.Fatalf("Models() = %d, want 3 (X twice is one model)", kn.Models())
	}
	beginKnown(t, kn, 2, 1)
	post := make([]float64, 3)
	kn.Posterior(post)
	for k, p := range post {
		if math.Abs(p-1.0/3) > 1e-15 {
			t.Errorf("prior of model %d = %v, want 1/3", k, p)
		}
	}
	for _, s := range [][3]int{{0, 0, 1}, {1, 0, 0}, {0, 0, 1}, {0, 0, 0}} {
		kn.Observe(s[0], s[1], 0, s[2])
	}
	kn.Posterior(post)
	want := []float64{0.128 / 0.191, 0.063 / 0.191, 0}
	for k := range want {
		if math.Abs(post[k]-want[k]) > 1e-12 {
			t.Errorf("posterior %v, want %v", post, want)
			break
		}
	}
	kn.Observe(0, 0, 5, 1) // no model pays 5
	after := make([]float64, 3)
	kn.Posterior(after)
	metrics := map[string]float64{}
	for _, m := range kn.TaskMetrics() {
		metrics[m.Name] = m.Value
	}
	if !slices.Equal(after, post) || metrics["unexplained_samples"] != 1 || metrics["known_models"] != 3 ||
		math.Abs(metrics["posterior_max"]-want[0]) > 1e-12 {
		t.Errorf("after an unexplained sample: posterior %v (want %v), metrics %v", after, post, metrics)
	}
}

// chain is a 3-state, 2-action chain: action right moves one state right, left one state left
// (walls hold); state goal pays 1 for every action taken in it, the others 0.
func chain(t *testing.T, goal int) *mdp.Model {
	t.Helper()
	var rows [][]mdp.Transition
	for s := range 3 {
		r := 0.0
		if s == goal {
			r = 1
		}
		rows = append(rows, []mdp.Transition{{Next: max(s-1, 0), Prob: 1, Reward: r}}, []mdp.Transition{{Next: min(s+1, 2), Prob: 1, Reward: r}})
	}
	m, err := mdp.New(3, 2, rows, []float64{0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestKnownModelsOneModelIsTheOptimalPolicy: told one model, the reference acts as that model's
// optimal policy, which is, by hand on the chain with the goal at the right end, "right" in every
// state (staying at the goal by the wall), in every episode.
func TestKnownModelsOneModelIsTheOptimalPolicy(t *testing.T) {
	m := chain(t, 2)
	kn, err := NewKnownModels([]*mdp.Model{m}, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := mdp.ValueIteration(m, 0.9, knownTolerance)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sol.Policy, []int{1, 1, 1}) {
		t.Fatalf("the chain's optimal policy %v, want right everywhere", sol.Policy)
	}
	beginKnown(t, kn, 3, 2)
	for episode := range 5 {
		for s := range 3 {
			if a := kn.Act(s); a != sol.Policy[s] {
				t.Errorf("episode %d, state %d: action %d, want the optimal %d", episode, s, a, sol.Policy[s])
			}
		}
		kn.Observe(1, 1, 0, 2)
		kn.EndEpisode()
	}
}

// TestKnownModelsFollowsTheModelLeft: told the chain with the goal left and with the goal right,
// the reference draws either at first; once a reward rules one out (1 for an action in state 0:
// the left goal), it follows the other's optimal policy (left everywhere) from the next step on,
// in every later episode.
func TestKnownModelsFollowsTheModelLeft(t *testing.T) {
	kn, err := NewKnownModels([]*mdp.Model{chain(t, 2), chain(t, 0)}, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	beginKnown(t, kn, 3, 2)
	kn.Observe(0, 0, 1, 0) // only the left goal pays in state 0
	post := make([]float64, 2)
	kn.Posterior(post)
	if !slices.Equal(post, []float64{0, 1}) {
		t.Fatalf("posterior %v, want [0 1]", post)
	}
	for episode := range 5 {
		for s := range 3 {
			if a := kn.Act(s); a != 0 {
				t.Errorf("episode %d, state %d: action %d, want left (0)", episode, s, a)
			}
		}
		kn.EndEpisode()
	}
}

// TestKnownModelsCandidatesBySize: a known model of another size is never a candidate, and a task
// of a size no known model has, or a task without a model, is refused with the reason.
func TestKnownModelsCandidatesBySize(t *testing.T) {
	kn, err := NewKnownModels([]*mdp.Model{twoStates(t, 0.5, 0), chain(t, 2)}, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	beginKnown(t, kn, 3, 2)
	post := make([]float64, 2)
	kn.Posterior(post)
	if !slices.Equal(post, []float64{0, 1}) {
		t.Errorf("posterior on a 3-state task %v, want [0 1]", post)
	}
	if err := kn.BeginTask(agent.Task{Index: 4, S: 5, A: 2, Rand: rand.New(rand.NewPCG(1, 2))}); err == nil || !strings.Contains(err.Error(), "task 4") {
		t.Errorf("a 5-state task: %v, want a refusal naming task 4", err)
	}
	if _, err := NewKnownModels([]*mdp.Model{chain(t, 2), nil}, 0.9); err == nil || !strings.Contains(err.Error(), "task 1 has no stored model") {
		t.Errorf("a task without a model: %v, want a refusal naming task 1", err)
	}
}
