package mdp

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// chain is a two-state MDP solved by hand in TestValueIterationHandSolved.
//
//	state 0: action 0 stays and pays 1; action 1 moves to state 1 and pays 0.
//	state 1: both actions stay and pay 2.
func chain(t *testing.T) *Model {
	t.Helper()
	m, err := New(2, 2, [][]Transition{
		{{Next: 0, Prob: 1, Reward: 1}},
		{{Next: 1, Prob: 1, Reward: 0}},
		{{Next: 1, Prob: 1, Reward: 2}},
		{{Next: 1, Prob: 1, Reward: 2}},
	}, []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestNewRejectsBadInput(t *testing.T) {
	ok := []Transition{{Next: 0, Prob: 1}}
	cases := []struct {
		name  string
		row   []Transition
		start []float64
		want  string
	}{
		{"negative", []Transition{{Next: 0, Prob: 1.5}, {Next: 1, Prob: -0.5}}, nil, "state 1 action 0: probability of next state 1 is negative (-0.5)"},
		{"nan", []Transition{{Next: 0, Prob: math.NaN()}}, nil, "state 1 action 0: probability of next state 0 is NaN, not finite"},
		{"sum", []Transition{{Next: 0, Prob: 0.5}, {Next: 1, Prob: 0.4}}, nil, "state 1 action 0: probabilities sum to 0.9, want 1"},
		{"range", []Transition{{Next: 2, Prob: 1}}, nil, "state 1 action 0: next state 2 out of range [0, 2)"},
		{"reward", []Transition{{Next: 0, Prob: 1, Reward: math.Inf(1)}}, nil, "state 1 action 0: reward of next state 0 is +Inf, not finite"},
		{"duplicate", []Transition{{Next: 0, Prob: 0.5}, {Next: 0, Prob: 0.5}}, nil, "state 1 action 0: next state 0 listed twice"},
		{"start", ok, []float64{0.5, 0.6}, "start probabilities sum to 1.1"},
		{"start negative", ok, []float64{1.5, -0.5}, "start probability of state 1 is -0.5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := c.start
			if start == nil {
				start = []float64{1, 0}
			}
			_, err := New(2, 1, [][]Transition{ok, c.row}, start)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", err, c.want)
			}
		})
	}
	if _, err := New(2, 1, [][]Transition{ok}, []float64{1, 0}); err == nil {
		t.Fatal("a missing row was accepted")
	}
}

func TestValueIterationHandSolved(t *testing.T) {
	// V(1) = 2/(1−0.9) = 20; Q(0,1) = 0.9·20 = 18; staying in 0 is worth Q(0,0) = 1 + 0.9·18 = 17.2.
	sol, err := ValueIteration(chain(t), 0.9, 1e-10)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{17.2, 18, 20, 20}
	for i, q := range sol.Q {
		if math.Abs(q-want[i]) > 1e-9 {
			t.Errorf("Q[%d] = %v, want %v", i, q, want[i])
		}
	}
	if sol.Policy[0] != 1 || sol.Policy[1] != 0 {
		t.Errorf("policy = %v, want [1 0] (ties to the lowest action)", sol.Policy)
	}
	v, err := PolicyEvaluation(chain(t), []int{0, 0}, 0.9, 1e-10)
	if err != nil {
		t.Fatal(err)
	}
	// Always staying in 0 pays 1 per step: V = 1/(1−0.9) = 10.
	if math.Abs(v[0]-10) > 1e-9 || math.Abs(v[1]-20) > 1e-9 {
		t.Errorf("V^pi = %v, want [10 20]", v)
	}
}

func TestValueIterationStochasticHandSolved(t *testing.T) {
	// From 0 the only action reaches 1 (paying 1) or stays (paying 0) with probability ½ each; 1 is
	// absorbing with reward 0. V(0) = 0.5 + 0.9·0.5·V(0) = 0.5/0.55.
	m, err := New(2, 1, [][]Transition{
		{{Next: 0, Prob: 0.5}, {Next: 1, Prob: 0.5, Reward: 1}},
		{{Next: 1, Prob: 1}},
	}, []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if r := m.ExpectedReward(0, 0); r != 0.5 {
		t.Errorf("r(0,0) = %v, want 0.5", r)
	}
	sol, err := ValueIteration(m, 0.9, 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	if want := 0.5 / 0.55; math.Abs(sol.V[0]-want) > 1e-11 || sol.V[1] != 0 {
		t.Errorf("V* = %v, want [%v 0]", sol.V, want)
	}
}

// randomModel is a dense random MDP for property tests.
func randomModel(t *testing.T, rng *rand.Rand, S, A int) *Model {
	t.Helper()
	rows := make([][]Transition, S*A)
	for i := range rows {
		w := make([]float64, S)
		sum := 0.0
		for j := range w {
			w[j] = rng.Float64()
			sum += w[j]
		}
		for j := range w {
			rows[i] = append(rows[i], Transition{Next: j, Prob: w[j] / sum, Reward: rng.Float64()*2 - 1})
		}
	}
	return startingIn0(t, S, A, rows)
}

// startingIn0 is the model of rows whose episodes start in state 0.
func startingIn0(t *testing.T, S, A int, rows [][]Transition) *Model {
	t.Helper()
	start := make([]float64, S)
	start[0] = 1
	m, err := New(S, A, rows, start)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// solveLinear returns V^π from the linear system (I − γP_π)V = r_π by Gaussian elimination.
func solveLinear(m *Model, pi []int, gamma float64) []float64 {
	S := m.S
	a := make([][]float64, S)
	for s := range a {
		a[s] = make([]float64, S+1)
		a[s][s] = 1
		for _, tr := range m.Row(s, pi[s]) {
			a[s][tr.Next] -= gamma * tr.Prob
		}
		a[s][S] = m.ExpectedReward(s, pi[s])
	}
	for c := 0; c < S; c++ {
		p := c
		for r := c + 1; r < S; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := 0; r < S; r++ {
			if r != c {
				f := a[r][c] / a[c][c]
				for k := c; k <= S; k++ {
					a[r][k] -= f * a[c][k]
				}
			}
		}
	}
	v := make([]float64, S)
	for s := range v {
		v[s] = a[s][S] / a[s][s]
	}
	return v
}

func TestSolversAgreeWithLinearAlgebra(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		m := randomModel(t, rng, 2+rng.IntN(6), 1+rng.IntN(3))
		gamma := 0.5 + 0.45*rng.Float64()
		sol, err := ValueIteration(m, gamma, 1e-10)
		if err != nil {
			t.Fatal(err)
		}
		exact := solveLinear(m, sol.Policy, gamma)
		for s := range exact {
			if math.Abs(sol.V[s]-exact[s]) > 1e-8 {
				t.Fatalf("trial %d: V*(%d) = %v, but its greedy policy is worth %v", trial, s, sol.V[s], exact[s])
			}
		}
		// V* dominates every other deterministic policy.
		pi := make([]int, m.S)
		for s := range pi {
			pi[s] = rng.IntN(m.A)
		}
		v, err := PolicyEvaluation(m, pi, gamma, 1e-10)
		if err != nil {
			t.Fatal(err)
		}
		exactPi := solveLinear(m, pi, gamma)
		for s := range v {
			if math.Abs(v[s]-exactPi[s]) > 1e-8 {
				t.Fatalf("trial %d: policy evaluation V(%d) = %v, linear solve %v", trial, s, v[s], exactPi[s])
			}
			if v[s] > sol.V[s]+1e-8 {
				t.Fatalf("trial %d: a policy beats V* in state %d", trial, s)
			}
		}
	}
}

func TestSolverParameterErrors(t *testing.T) {
	m := chain(t)
	for _, c := range []struct {
		gamma, tol float64
		want       string
	}{{1, 1e-6, "gamma = 1"}, {-0.1, 1e-6, "gamma = -0.1"}, {0.9, 0, "tolerance = 0"}, {0.9, math.NaN(), "tolerance = NaN"}} {
		if _, err := ValueIteration(m, c.gamma, c.tol); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ValueIteration(%v, %v) error = %v, want %q", c.gamma, c.tol, err, c.want)
		}
	}
	if _, err := PolicyEvaluation(m, []int{0, 2}, 0.9, 1e-6); err == nil || !strings.Contains(err.Error(), "action 2 in state 1") {
		t.Errorf("bad policy accepted: %v", err)
	}
}

func TestStepFrequencies(t *testing.T) {
	m, err := New(3, 1, [][]Transition{
		{{Next: 0, Prob: 0.6, Reward: -1}, {Next: 1, Prob: 0.3}, {Next: 2, Prob: 0.1, Reward: 5}},
		{{Next: 1, Prob: 1}}, {{Next: 2, Prob: 1}},
	}, []float64{1, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 200_000
	var count [3]int
	for i := 0; i < n; i++ {
		next, r := m.Step(0, 0, rng)
		count[next]++
		if want := []float64{-1, 0, 5}[next]; r != want {
			t.Fatalf("reward of next state %d = %v, want %v", next, r, want)
		}
	}
	for s, p := range []float64{0.6, 0.3, 0.1} {
		if got := float64(count[s]) / n; math.Abs(got-p) > 0.005 {
			t.Errorf("next state %d drawn with frequency %v, want %v", s, got, p)
		}
	}
}

// episodicChain is a 3-state chain: from 0, action 0 pays 1 and moves to the terminal state 2;
// action 1 pays 0 and moves to state 1, whose single action pays 5 and moves to state 2.
func episodicChain(t *testing.T) *Model {
	t.Helper()
	m, err := NewEpisodic(3, 2, [][]Transition{
		{{Next: 2, Prob: 1, Reward: 1}}, {{Next: 1, Prob: 1}},
		{{Next: 2, Prob: 1, Reward: 5}}, {{Next: 2, Prob: 1, Reward: 5}},
		nil, nil,
	}, []float64{1, 0, 0}, []bool{false, false, true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTerminalStatesAreAbsorbingWithValueZero(t *testing.T) {
	m := episodicChain(t)
	if !m.Terminal(2) || m.Terminal(0) || m.Terminal(1) {
		t.Fatalf("terminal flags %v", m.TerminalStates())
	}
	if row := m.Row(2, 1); len(row) != 1 || row[0] != (Transition{Next: 2, Prob: 1}) {
		t.Fatalf("terminal row %v, want the self-loop with reward 0", row)
	}
	sol, err := ValueIteration(m, 0.9, 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing is bootstrapped past the terminal state: V(2) = 0, V(1) = 5, V(0) = max(1, 0.9·5).
	for s, want := range []float64{4.5, 5, 0} {
		if math.Abs(sol.V[s]-want) > 1e-9 {
			t.Errorf("V(%d) = %v, want %v", s, sol.V[s], want)
		}
	}
	if plain, _ := New(2, 1, [][]Transition{{{Next: 1, Prob: 1}}, {{Next: 0, Prob: 1}}}, []float64{1, 0}); plain.TerminalStates() != nil || plain.Terminal(1) {
		t.Error("a model built with New has terminal states")
	}
}

func TestNewEpisodicRejectsBadTerminals(t *testing.T) {
	rows := [][]Transition{{{Next: 1, Prob: 1}}, {{Next: 0, Prob: 1, Reward: 1}}}
	cases := []struct {
		name     string
		start    []float64
		terminal []bool
		want     string
	}{
		{"length", []float64{1, 0}, []bool{true}, "terminal flags have length 1, want S = 2"},
		{"outcomes", []float64{1, 0}, []bool{false, true}, "state 1 action 0: state 1 is terminal, so its outcomes must be empty"},
		{"start", []float64{1, 0}, []bool{true, false}, "state 0 action 0: state 0 is terminal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewEpisodic(2, 1, rows, c.start, c.terminal)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", err, c.want)
			}
		})
	}
	_, err := NewEpisodic(2, 1, [][]Transition{{{Next: 1, Prob: 1}}, nil}, []float64{0, 1}, []bool{false, true})
	if err == nil || !strings.Contains(err.Error(), "state 1 is terminal but has start probability 1") {
		t.Fatalf("start mass on a terminal state: error = %v", err)
	}
}
