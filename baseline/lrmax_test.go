package baseline

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

func TestLRMaxValidation(t *testing.T) {
	for _, c := range []struct {
		edit func(*LRMaxParams)
		want string
	}{
		{func(p *LRMaxParams) { p.M = 0 }, "lrmax: m = 0, want at least 1"},
		{func(p *LRMaxParams) { p.RMax = math.Inf(1) }, "lrmax: r_max = +Inf"},
		{func(p *LRMaxParams) { p.ActionRule = "greedy" }, `lrmax: action_rule "greedy"`},
		{func(p *LRMaxParams) { p.PlanTolerance = 0 }, "lrmax: plan_tolerance = 0"},
		{func(p *LRMaxParams) { p.Planning = "lazy" }, `lrmax: planning "lazy"`},
		{func(p *LRMaxParams) { p.RMin = 2 }, "lrmax: r_min = 2, want a finite number <= r_max = 1"},
		{func(p *LRMaxParams) { p.RMin = math.NaN() }, "lrmax: r_min = NaN"},
		{func(p *LRMaxParams) { p.DMax = -0.1 }, "lrmax: d_max = -0.1, want a finite number >= 0"},
		{func(p *LRMaxParams) { p.DMax = math.NaN() }, "lrmax: d_max = NaN"},
		{func(p *LRMaxParams) { p.EpsilonM = -1 }, "lrmax: epsilon_m = -1"},
		{func(p *LRMaxParams) { p.MaxMemory = -1 }, "lrmax: max_memory = -1"},
		{func(p *LRMaxParams) { p.PMin = 0.6 }, "lrmax: p_min = 0.6, want 0 (no online estimation) <= p_min <= 0.5"},
		{func(p *LRMaxParams) { p.Delta = 0 }, "lrmax: delta = 0, want 0 < delta < 1"},
		{func(p *LRMaxParams) { p.PMin, p.Delta = 1e-9, 1e-9 }, "lrmax: p_min = 1e-09 and delta = 1e-09 need more than 1000000 tasks"},
	} {
		p := DefaultLRMax()
		c.edit(&p)
		if _, err := NewLRMax(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	x, err := NewLRMax(DefaultLRMax())
	if err != nil {
		t.Fatal(err)
	}
	if err := x.BeginTask(agent.Task{Index: 0, S: 4, A: 2, Gamma: 0.9}); err == nil || !strings.Contains(err.Error(), "task 0 has no random stream") {
		t.Errorf("no random stream: error %v", err)
	}
	if err := x.BeginTask(newTask(0, 4, 2, 1, 1)); err == nil || !strings.Contains(err.Error(), "task 0 has discount 1") {
		t.Errorf("discount 1: error %v", err)
	}
	if err := x.BeginTask(newTask(0, 4, 2, 0.9, 1)); err != nil {
		t.Fatal(err)
	}
	x.EndTask()
	for _, c := range []struct {
		task agent.Task
		want string
	}{
		{newTask(1, 5, 2, 0.9, 1), "task 1 has S=5 A=2, the earlier tasks have S=4 A=2"},
		{newTask(1, 4, 2, 0.95, 1), "task 1 has discount 0.95, the earlier tasks 0.9"},
		{func() agent.Task {
			k := newTask(1, 4, 2, 0.9, 1)
			k.Terminal = []bool{false, true, false, false}
			return k
		}(),
			"task 1 has other terminal states"},
	} {
		if err := x.BeginTask(c.task); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// handTasks are the two tasks of the hand-worked case: states 0 and 1 with two actions each and
// a terminal state 2. In both, (0,0) moves to 1 paying 0, (0,1) ends in 2 paying 0.2, (1,1) ends
// in 2 paying 0; (1,0) ends in 2 paying goal (1 in the stored task M̄, 0.8 in the new task M).
// With γ = 0.5: Q*_M̄ = (0.5, 0.2, 1, 0) and Q*_M = (0.4, 0.2, 0.8, 0).
func handTask(t testing.TB, goal float64) *mdp.Model {
	t.Helper()
	end := func(r float64) []mdp.Transition { return []mdp.Transition{{Next: 2, Prob: 1, Reward: r}} }
	rows := [][]mdp.Transition{{{Next: 1, Prob: 1}}, end(0.2), end(goal), end(0), nil, nil}
	m, err := mdp.NewEpisodic(3, 2, rows, []float64{0.5, 0.5, 0}, []bool{false, false, true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// exactPartial is the partial model of m whose known pairs carry m's exact R and T, with bound u.
func exactPartial(m *mdp.Model, known []bool, u []float64) *partialModel {
	pm := &partialModel{known: known, u: u}
	pm.model.Reset(m.S, m.A)
	for i := 0; i < m.S*m.A; i++ {
		if known[i] {
			pm.model.AppendPair(m.R[i])
			for k := m.Start[i]; k < m.Start[i+1]; k++ {
				pm.model.AppendSuccessor(int(m.Next[k]), m.Prob[k])
			}
		} else {
			pm.model.AppendPair(0)
		}
		pm.model.EndPair()
	}
	return pm
}

func exactParams(dMax float64) LRMaxParams {
	p := DefaultLRMax()
	p.DMax, p.EpsilonM, p.PlanTolerance = dMax, 0, 1e-12
	return p
}

// TestLRMaxHandWorked checks the bound on the hand-worked case against the values computed by
// hand. D_max = 0.25 holds: the tasks differ only in R(1,0), by 0.2. γ = 0.5, so d_far =
// D_max/(1−γ) = 0.5; the stored Ū is Q*_M̄, the current one is 0.8 on the known pair (1,0) and
// V_max = 2 elsewhere. Weights (r_min = 0): w_M̄ = γ·max_a Ū_M̄ = (0.25, 0.5, 0), w_M = (1, 1, 0).
// D̂ = 0.2 on (1,0), known in both (same successor: only |ΔR| counts), D_max = 0.25 elsewhere.
// d̂_{MM̄} on the pairs unknown in M: 0.25 + γ·0.5 = 0.5.
// d̂_{M̄M} through M̄ (all known): (1,0) 0.2, (0,1) and (1,1) 0.25, (0,0) 0.25 + γ·max(0.2, 0.25) =
// 0.375. U = Ū_M̄ + min: (0.5+0.375, 0.2+0.25, 1+0.2, 0+0.25) = (0.875, 0.45, 1.2, 0.25), the known
// pair (1,0) through d̂_{M̄M} alone.
func TestLRMaxHandWorked(t *testing.T) {
	mBar, m := handTask(t, 1), handTask(t, 0.8)
	const gamma = 0.5
	p := exactParams(0.25)
	z := newLipschitz(p, 3, 2, gamma, []bool{false, false, true})
	mem := z.remember(*exactPartial(mBar, []bool{true, true, true, true, false, false}, []float64{0.5, 0.2, 1, 0, 0, 0}))
	cur := exactPartial(m, []bool{false, false, true, false, false, false}, []float64{2, 2, 0.8, 2, 0, 0})
	got := make([]float64, 6)
	if !z.bound(cur, mem, got) {
		t.Fatal("no bound below V_max")
	}
	want := []float64{0.875, 0.45, 1.2, 0.25, 0, 0}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("bound = %v, want %v", got, want)
		}
	}

	// The same through the agent, under every planning mode: task M̄ learned with m = 1
	// (deterministic, so its estimates and final plan are exact), then at the start of task M
	// nothing is known: d̂_{MM̄} = 0.5 everywhere and d̂_{M̄M}(1,0) = D_max = 0.25 as well, so the
	// start values are (0.875, 0.45, 1.25, 0.25).
	for _, planning := range []learners.Planning{learners.PlanFull, learners.PlanIncremental, learners.PlanDelta} {
		p.M, p.Planning = 1, planning
		x, err := NewLRMax(p)
		if err != nil {
			t.Fatal(err)
		}
		runEpisodes(t, x, mBar, 0, 20, 10, gamma, 1)
		if x.Memory() != 1 || !slices.Equal(x.memory[0].known[:4], []bool{true, true, true, true}) {
			t.Fatalf("%s: memory %d after one task, want 1 with every pair known", planning, x.Memory())
		}
		if err := x.BeginTask(agent.Task{Index: 1, S: 3, A: 2, Gamma: gamma, Rand: rand.New(rand.NewPCG(1, 1)), Terminal: m.TerminalStates()}); err != nil {
			t.Fatal(err)
		}
		start := x.UnknownValues()[:4]
		for i, w := range []float64{0.875, 0.45, 1.25, 0.25} {
			if math.Abs(start[i]-w) > 1e-9 {
				t.Fatalf("%s: start values %v, want (0.875, 0.45, 1.25, 0.25)", planning, start)
			}
		}
		ms := x.TaskMetrics()
		if v, _ := metric(ms, "tight_pairs_start"); v != 4 {
			t.Errorf("%s: tight_pairs_start = %v, want 4", planning, v)
		}
		if v, _ := metric(ms, "mean_bound_start"); math.Abs(v-(0.875+0.45+1.25+0.25)/4) > 1e-9 {
			t.Errorf("%s: mean_bound_start = %v", planning, v)
		}
		// Acting on the bounds: (1,1), bounded by 0.25, is never worth trying once (1,0) is
		// known at 0.8, and the plan of state 1 is (0.8, 0.25).
		for range 30 {
			s := 1
			a := x.Act(s)
			next, r := m.Step(s, a, rand.New(rand.NewPCG(0, 0)))
			x.Observe(s, a, r, next)
		}
		if q := x.Learner().Q()[2:4]; x.Learner().Stats().Known(3) || math.Abs(q[0]-0.8) > 1e-3 || math.Abs(q[1]-0.25) > 1e-3 {
			t.Errorf("%s: state 1 planned at %v, (1,1) known %v; want (0.8, 0.25), never tried", planning, q, x.Learner().Stats().Known(3))
		}
		dst := make([]float64, 2)
		if x.Policy(1, dst); !slices.Equal(dst, []float64{1, 0}) || x.Phase(1) != agent.Exploring {
			t.Errorf("%s: policy in state 1 %v, phase %v; want (1, 0), exploring ((1,1) stays unknown)", planning, dst, x.Phase(1))
		}
	}
}

// TestLRMaxNegativeTransferCounted: a prior D_max = 0 that does not hold makes the bound of a
// stored task with goal 0.8 its own Q̄* = (0.4, 0.2, 0.8, 0), below the new task's Q* =
// (0.5, 0.2, 1, 0) on (0,0) and (1,0): the metric counts these 2 pairs.
func TestLRMaxNegativeTransferCounted(t *testing.T) {
	p := exactParams(0)
	p.M = 1
	x, err := NewLRMax(p)
	if err != nil {
		t.Fatal(err)
	}
	runEpisodes(t, x, handTask(t, 0.8), 0, 20, 10, 0.5, 1)
	runEpisodes(t, x, handTask(t, 1), 1, 20, 10, 0.5, 1)
	if v, _ := metric(x.TaskMetrics(), "start_bound_violations"); v != 2 {
		t.Errorf("start_bound_violations = %v, want 2", v)
	}
}

// TestLRMaxConfidentTasks checks the number of tasks of the online estimation against the
// inclusion–exclusion bound computed by hand: with the published experiment's p_min = 1/5 and
// δ = 0.1, 1 − 2·0.8^13 + 0.6^13 = 0.891 < 0.9 ≤ 1 − 2·0.8^14 + 0.6^14 = 0.913, so 14 tasks; the
// code's default p_min = 0.1 needs 29 (0.897 at 28, 0.907 at 29); p_min = 1/2 and δ = 1/4 need
// 1 − 2·2^−n ≥ 3/4, so 3.
func TestLRMaxConfidentTasks(t *testing.T) {
	for _, c := range []struct {
		pMin, delta float64
		want        int
	}{{0.2, 0.1, 14}, {0.1, 0.1, 29}, {0.5, 0.25, 3}} {
		if got := confidentTasks(c.pMin, c.delta); got != c.want {
			t.Errorf("confidentTasks(%v, %v) = %d, want %d", c.pMin, c.delta, got, c.want)
		}
	}
}

// TestLRMaxOnlineEstimate runs the hand-worked tasks with goals 1, 0.8, 1, then 1 again, with a
// useless prior D_max = 10 and the online estimation at p_min = 1/2, δ = 1/4: 3 tasks. After the
// third task every pair is known in 3 tasks of memory and gets its estimate: 0.2 = |1 − 0.8| on
// (1,0), 0 on the others. At the start of the fourth task d̂_{MM̄} = est + γ·D_max/(1−γ) is large,
// d̂_{M̄M} through the stored tasks is (0.1, 0, 0.2, 0) ((0,0): 0 + γ·max(0.2, 0)), so the bounds
// are Q̄* + (0.1, 0, 0.2, 0): (0.6, 0.2, 1.2, 0) from the goal-1 tasks and (0.5, 0.2, 1, 0) from
// the goal-0.8 task, whose minimum is exactly the new task's Q*.
func TestLRMaxOnlineEstimate(t *testing.T) {
	p := exactParams(10)
	p.M, p.PMin, p.Delta = 1, 0.5, 0.25
	x, err := NewLRMax(p)
	if err != nil {
		t.Fatal(err)
	}
	for k, goal := range []float64{1, 0.8, 1} {
		runEpisodes(t, x, handTask(t, goal), k, 20, 10, 0.5, 1)
		if v, _ := metric(x.TaskMetrics(), "estimated_pairs_start"); v != 0 {
			t.Fatalf("task %d: estimated_pairs_start = %v before 3 tasks are in memory", k, v)
		}
		if !slices.Equal(x.memory[k].known[:4], []bool{true, true, true, true}) {
			t.Fatalf("task %d: not every pair known", k)
		}
	}
	m := handTask(t, 1)
	if err := x.BeginTask(agent.Task{Index: 3, S: 3, A: 2, Gamma: 0.5, Rand: rand.New(rand.NewPCG(1, 3)), Terminal: m.TerminalStates(), Truth: m}); err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5, 0.2, 1, 0}
	for i, w := range want {
		if math.Abs(x.UnknownValues()[i]-w) > 1e-9 {
			t.Fatalf("start values %v, want %v", x.UnknownValues()[:4], want)
		}
	}
	ms := x.TaskMetrics()
	if v, _ := metric(ms, "estimated_pairs_start"); v != 4 {
		t.Errorf("estimated_pairs_start = %v, want 4", v)
	}
	if v, _ := metric(ms, "start_bound_violations"); v != 0 {
		t.Errorf("start_bound_violations = %v, want 0", v)
	}
}

// runEpisodes runs ag on task index of m for the given episodes of at most steps steps, each from
// m's start distribution and ending early on a terminal state.
func runEpisodes(t testing.TB, ag agent.Agent, m *mdp.Model, index, episodes, steps int, gamma float64, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(index)))
	envRng := rand.New(rand.NewPCG(seed, 1000+uint64(index)))
	if err := ag.BeginTask(agent.Task{Index: index, S: m.S, A: m.A, Gamma: gamma, Rand: rng, Terminal: m.TerminalStates(), Truth: m}); err != nil {
		t.Fatal(err)
	}
	loop := agenttest.Loop{Agent: ag, Task: m, Rand: envRng, StopAtTerminal: true}
	for range episodes {
		loop.Episode(m.SampleStart(envRng), steps)
	}
	ag.EndTask()
}

// randomRow draws a row of 1 to 3 distinct successors among S states with random probabilities
// and rewards in [lo, hi].
func randomRow(rng *rand.Rand, S int, lo, hi float64) []mdp.Transition {
	k := 1 + rng.IntN(min(3, S))
	perm := rng.Perm(S)[:k]
	row := make([]mdp.Transition, k)
	sum := 0.0
	for j := range row {
		row[j] = mdp.Transition{Next: perm[j], Prob: 0.1 + rng.Float64(), Reward: lo + (hi-lo)*rng.Float64()}
		sum += row[j].Prob
	}
	for j := range row {
		row[j].Prob /= sum
	}
	return row
}

// randomPair draws a stored task M̄ on S states (the last one terminal) and A actions and a new
// task M that keeps each row of M̄ with probability 1/2 and otherwise moves a fraction of up to
// 0.1 of its probability to a random row and its rewards by up to ±0.05.
func randomPair(t testing.TB, rng *rand.Rand, S, A int, lo, hi float64) (mBar, m *mdp.Model) {
	t.Helper()
	terminal := make([]bool, S)
	terminal[S-1] = true
	start := make([]float64, S)
	for s := 0; s < S-1; s++ {
		start[s] = 1 / float64(S-1)
	}
	rowsBar := make([][]mdp.Transition, S*A)
	rows := make([][]mdp.Transition, S*A)
	for i := 0; i < (S-1)*A; i++ {
		rowsBar[i] = randomRow(rng, S, lo, hi)
		rows[i] = rowsBar[i]
		if rng.IntN(2) == 0 {
			mix := 0.1 * rng.Float64()
			rows[i] = nil
			for _, x := range rowsBar[i] {
				x.Prob *= 1 - mix
				x.Reward = max(lo, min(hi, x.Reward+0.1*(rng.Float64()-0.5)))
				rows[i] = append(rows[i], x)
			}
			for _, x := range randomRow(rng, S, lo, hi) {
				x.Prob *= mix
				j := slices.IndexFunc(rows[i], func(y mdp.Transition) bool { return y.Next == x.Next })
				if j < 0 {
					rows[i] = append(rows[i], x)
					continue
				}
				y := &rows[i][j] // one outcome per successor, paying the mixture's mean reward
				y.Reward = (y.Prob*y.Reward + x.Prob*x.Reward) / (y.Prob + x.Prob)
				y.Prob += x.Prob
			}
		}
	}
	var err error
	if mBar, err = mdp.NewEpisodic(S, A, rowsBar, start, terminal); err != nil {
		t.Fatal(err)
	}
	if m, err = mdp.NewEpisodic(S, A, rows, start, terminal); err != nil {
		t.Fatal(err)
	}
	return mBar, m
}

// localDistance is D^{sa}_{xy}(γ(V*_y − vLo)) of pair i from the true models.
func localDistance(x, y *mdp.Model, vy []float64, gamma, vLo float64, i int) float64 {
	diff := make([]float64, x.S)
	for k := x.Start[i]; k < x.Start[i+1]; k++ {
		diff[x.Next[k]] += x.Prob[k]
	}
	for k := y.Start[i]; k < y.Start[i+1]; k++ {
		diff[y.Next[k]] -= y.Prob[k]
	}
	d := math.Abs(x.R[i] - y.R[i])
	for s, p := range diff {
		d += gamma * (vy[s] - vLo) * math.Abs(p)
	}
	return d
}

// TestLRMaxBoundIsUpperBound checks the property the paper proves: with D_max at least every
// local model distance of the two tasks and exact estimates of the known pairs, the Lipschitz
// bound is at least the new task's true Q* on every pair — on random pairs of tasks with random
// known sets, optimistic Ū, rewards in [0, 1] (r_min = 0) and in [−1, 1] (r_min = −1).
func TestLRMaxBoundIsUpperBound(t *testing.T) {
	const S, A, gamma, trials = 6, 3, 0.9, 300
	rng := rand.New(rand.NewPCG(7, 7))
	tightened, pairs := 0, 0
	for trial := range trials {
		lo := 0.0
		if trial%2 == 1 {
			lo = -1
		}
		mBar, m := randomPair(t, rng, S, A, lo, 1)
		solBar, err := mdp.ValueIteration(mBar, gamma, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := mdp.ValueIteration(m, gamma, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		vLo := math.Min(0, lo/(1-gamma))
		dMax := 0.0
		for i := 0; i < (S-1)*A; i++ {
			dMax = math.Max(dMax, localDistance(m, mBar, solBar.V, gamma, vLo, i))
			dMax = math.Max(dMax, localDistance(mBar, m, sol.V, gamma, vLo, i))
		}
		p := exactParams(dMax)
		p.RMin = lo
		z := newLipschitz(p, S, A, gamma, m.TerminalStates())
		upper := func(q []float64) []float64 { // an optimistic bound: Q* plus random slack
			u := slices.Clone(q)
			for i := 0; i < (S-1)*A; i++ {
				u[i] += 0.5 * rng.Float64()
			}
			return u
		}
		knownBar, known := make([]bool, S*A), make([]bool, S*A)
		for i := 0; i < (S-1)*A; i++ {
			knownBar[i], known[i] = rng.Float64() < 0.8, rng.Float64() < 0.5
		}
		mem := z.remember(*exactPartial(mBar, knownBar, upper(solBar.Q)))
		cur := exactPartial(m, known, upper(sol.Q))
		got := make([]float64, S*A)
		vMax := 1 / (1 - gamma)
		if !z.bound(cur, mem, got) {
			for i := range got {
				got[i] = vMax // the bound of no pair is below V_max
			}
		}
		for i := 0; i < (S-1)*A; i++ {
			if got[i] < sol.Q[i]-1e-9 {
				t.Fatalf("trial %d: bound %v of pair %d below Q* = %v (D_max %v)", trial, got[i], i, sol.Q[i], dMax)
			}
			pairs++
			if got[i] < vMax {
				tightened++
			}
		}
	}
	// The property is not vacuous: many bounds are tighter than V_max (about a fifth).
	if tightened < pairs/10 {
		t.Errorf("only %d of %d bounds below V_max", tightened, pairs)
	}
	t.Logf("%d of %d bounds below V_max", tightened, pairs)
}

// onlineMazes are n tasks of the online maze family of the experiments (4×4, landforms {0, 0.2,
// 0.4}, goal (4,4), lava (2,2)) drawn with the given seed.
func onlineMazes(t testing.TB, n int, seed uint64) []*mdp.Model {
	t.Helper()
	mz, err := (&families.OnlineMazeParams{Width: 4, Height: 4, Pool: n, Tasks: n,
		Landforms: []float64{0, 0.2, 0.4}, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		Rewards: env.PaperRewards}).Mazes(rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*mdp.Model, n)
	for k := range mz {
		if out[k], err = mz[k].Model(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// actionRecorder records the actions of an agent.
type actionRecorder struct {
	agent.Agent
	actions []int
}

func (r *actionRecorder) Act(s int) int {
	a := r.Agent.Act(s)
	r.actions = append(r.actions, a)
	return a
}

// TestLRMaxFirstTaskIsRMax: with nothing in memory LRMax is RMax — the same actions for the same
// seed, under both action rules.
func TestLRMaxFirstTaskIsRMax(t *testing.T) {
	m := onlineMazes(t, 1, 3)[0]
	for _, rule := range []learners.ActionRule{learners.BalancedWandering, learners.Optimistic} {
		p := DefaultLRMax()
		p.M, p.ActionRule = 20, rule
		x, err := NewLRMax(p)
		if err != nil {
			t.Fatal(err)
		}
		rm, err := learners.NewRMax(p.rmax())
		if err != nil {
			t.Fatal(err)
		}
		a, b := &actionRecorder{Agent: x}, &actionRecorder{Agent: agent.NewSingle(rm)}
		runSteps(t, a, m, 0, 3000, 0.95, 5, nil)
		runSteps(t, b, m, 0, 3000, 0.95, 5, nil)
		if !slices.Equal(a.actions, b.actions) {
			t.Fatalf("%s: LRMax's first task differs from RMax's", rule)
		}
		if x.Learner().Stats().KnownPairs() == 0 {
			t.Fatalf("%s: no pair became known: the comparison is vacuous", rule)
		}
	}
}

// TestLRMaxDeterministic runs the same three-task sequence twice: same actions, same metrics.
func TestLRMaxDeterministic(t *testing.T) {
	tasks := onlineMazes(t, 3, 4)
	run := func() ([]int, [][]agent.Metric) {
		p := DefaultLRMax()
		p.M, p.DMax, p.RMin = 10, 0.5, -1
		x, err := NewLRMax(p)
		if err != nil {
			t.Fatal(err)
		}
		r := &actionRecorder{Agent: x}
		var ms [][]agent.Metric
		for k, m := range tasks {
			runSteps(t, r, m, k, 2000, 0.95, 9, nil)
			ms = append(ms, x.TaskMetrics())
		}
		return r.actions, ms
	}
	a1, m1 := run()
	a2, m2 := run()
	if !slices.Equal(a1, a2) {
		t.Fatal("actions differ between two runs with the same seeds")
	}
	for k := range m1 {
		if !slices.Equal(m1[k], m2[k]) {
			t.Fatalf("task %d: metrics %v and %v", k, m1[k], m2[k])
		}
	}
	if v, _ := metric(m1[2], "memory"); v != 2 {
		t.Errorf("memory at the third task = %v, want 2", v)
	}
	if v, _ := metric(m1[2], "bound_updates"); v < 2 {
		t.Errorf("bound_updates = %v in the third task: the bounds were not recomputed as pairs became known", v)
	}
}

// TestLRMaxNoPriorTransfersNothing is the published code's default: without a prior it sets
// D_max to its largest value R_max + 2γ·V_max (rewards in [0, R_max]) and relies on its online
// estimation of D_max, which we do not implement. Then every bound of an unknown pair is at least
// V_max: d̂_{MM̄} = D_max/(1−γ) > V_max, and d̂_{M̄M} ≥ D_max = (1+γ)·V_max, so nothing is tightened.
func TestLRMaxNoPriorTransfersNothing(t *testing.T) {
	const gamma = 0.9
	rng := rand.New(rand.NewPCG(11, 11))
	p := DefaultLRMax()
	p.M = 3
	p.DMax = p.RMax + 2*gamma*p.RMax/(1-gamma)
	x, err := NewLRMax(p)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 4 {
		_, m := randomPair(t, rng, 6, 3, 0, 1)
		runEpisodes(t, x, m, k, 200, 20, gamma, 2)
		ms := x.TaskMetrics()
		for _, name := range []string{"tight_pairs_start", "tight_unknown_max"} {
			if v, _ := metric(ms, name); v != 0 {
				t.Errorf("task %d: %s = %v, want 0", k, name, v)
			}
		}
	}
	if x.Memory() != 4 {
		t.Errorf("memory %d, want 4", x.Memory())
	}
}

// TestLRMaxMemoryLimit keeps only the first max_memory tasks.
func TestLRMaxMemoryLimit(t *testing.T) {
	p := DefaultLRMax()
	p.M, p.MaxMemory = 2, 2
	x, err := NewLRMax(p)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 4 {
		runEpisodes(t, x, handTask(t, 1), k, 5, 5, 0.9, 1)
	}
	if x.Memory() != 2 {
		t.Errorf("memory %d after 4 tasks with max_memory 2, want 2", x.Memory())
	}
}

// optimalAgent acts greedily on the true Q* of each task (ties to the lowest action): the
// reference of the benchmarks' shares of optimal.
type optimalAgent struct {
	q []float64
	A int
}

func (o *optimalAgent) BeginTask(t agent.Task) error {
	sol, err := mdp.ValueIteration(t.Truth, t.Gamma, exactTolerance)
	o.q, o.A = sol.Q, t.A
	return err
}
func (o *optimalAgent) Act(s int) int                  { return mdp.ArgMax(o.q[s*o.A : s*o.A+o.A]) }
func (o *optimalAgent) Observe(int, int, float64, int) {}
func (o *optimalAgent) EndEpisode()                    {}
func (o *optimalAgent) EndTask()                       {}

// sequenceReward runs ag on the tasks in turn, episodes × steps steps each from the start state 0
// with discount gamma, and returns the reward per step of each task. The environment's random
// stream depends only on seed and the task, so agents meet the same draws as long as they act
// alike.
func sequenceReward(b testing.TB, ag agent.Agent, tasks []*mdp.Model, episodes, steps int, gamma float64, seed uint64) []float64 {
	out := make([]float64, len(tasks))
	for k, m := range tasks {
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		envRng := rand.New(rand.NewPCG(seed, 1000+uint64(k)))
		if err := ag.BeginTask(agent.Task{Index: k, S: m.S, A: m.A, Gamma: gamma, Rand: rng, Truth: m}); err != nil {
			b.Fatal(err)
		}
		sum := 0.0
		for range episodes {
			s := 0
			for range steps {
				a := ag.Act(s)
				next, r := m.Step(s, a, envRng)
				ag.Observe(s, a, r, next)
				sum += r
				s = next
			}
			ag.EndEpisode()
		}
		ag.EndTask()
		out[k] = sum / float64(episodes*steps)
	}
	return out
}

// trueDMax is the largest local model distance D^{sa}_{MM̄}(γ(V*_M̄ − vLo)) over the ordered
// pairs of distinct models and their pairs: the smallest D_max that holds for the sequence.
func trueDMax(t testing.TB, models []*mdp.Model, gamma, vLo float64) float64 {
	t.Helper()
	v := make([][]float64, len(models))
	for k, m := range models {
		sol, err := mdp.ValueIteration(m, gamma, exactTolerance)
		if err != nil {
			t.Fatal(err)
		}
		v[k] = sol.V
	}
	d := 0.0
	for a, x := range models {
		for b, y := range models {
			if a == b {
				continue
			}
			for i := 0; i < x.S*x.A; i++ {
				if !x.Terminal(i / x.A) {
					d = math.Max(d, localDistance(x, y, v[b], gamma, vLo, i))
				}
			}
		}
	}
	return d
}

// BenchmarkLRMaxOnlineMazes compares LRMax with RMax (m = 500, both action rules) on 3 sequences
// of 10 online-maze tasks of the paper's size (3000 episodes × 30 steps, γ = 0.95): reward per
// step over tasks 2–10 as a share of the optimal policy's on the same tasks, the pairs planned
// below V_max at the start of a task, and those whose start value fell below the true Q*
// (negative transfer), per task. LRMax runs with the published priors D_max = 0.1 and 0.2, with
// 0.5, and with the true D_max of the tasks (about 12; V* ≥ 0 in these mazes, so r_min = 0 gives
// valid weights).
func BenchmarkLRMaxOnlineMazes(b *testing.B) {
	const episodes, steps, gamma = 3000, 30, 0.95
	var seqs [][]*mdp.Model
	var opt [][]float64
	dTrue := 0.0
	for seed := range uint64(3) {
		tasks := onlineMazes(b, 10, seed+1)
		seqs = append(seqs, tasks)
		opt = append(opt, sequenceReward(b, &optimalAgent{}, tasks, episodes, steps, gamma, seed+3))
		dTrue = math.Max(dTrue, trueDMax(b, tasks, gamma, 0))
	}
	share := func(newAgent func() agent.Agent) float64 {
		var a, o float64
		for q, tasks := range seqs {
			got := sequenceReward(b, newAgent(), tasks, episodes, steps, gamma, uint64(q)+3)
			for k := 1; k < len(tasks); k++ {
				a, o = a+got[k], o+opt[q][k]
			}
		}
		return a / o
	}
	perTask := float64(len(seqs) * (len(seqs[0]) - 1))
	for _, rule := range []learners.ActionRule{learners.Optimistic, learners.BalancedWandering} {
		b.Run(fmt.Sprintf("%s/rmax", rule), func(b *testing.B) {
			p := learners.DefaultRMax()
			p.Rule = rule
			for range b.N {
				b.ReportMetric(share(func() agent.Agent {
					rm, err := learners.NewRMax(p)
					if err != nil {
						b.Fatal(err)
					}
					return agent.NewSingle(rm)
				}), "share_of_optimal")
			}
		})
		for _, dMax := range []float64{0.1, 0.2, 0.5, dTrue} {
			b.Run(fmt.Sprintf("%s/d_max=%.3g", rule, dMax), func(b *testing.B) {
				p := DefaultLRMax()
				p.ActionRule, p.DMax = rule, dMax
				for range b.N {
					viol, tight := 0.0, 0.0
					b.ReportMetric(share(func() agent.Agent {
						x, err := NewLRMax(p)
						if err != nil {
							b.Fatal(err)
						}
						return &reporting{LRMax: x, each: func(ms []agent.Metric) {
							v, _ := metric(ms, "start_bound_violations")
							n, _ := metric(ms, "tight_pairs_start")
							viol, tight = viol+v, tight+n
						}}
					}), "share_of_optimal")
					b.ReportMetric(viol/perTask, "violations/task")
					b.ReportMetric(tight/perTask, "tight_start/task")
				}
			})
		}
	}
}

// BenchmarkLRMaxOnlineEstimate runs 40 online-maze tasks drawn uniformly from a pool of 5 mazes,
// so that p_min = 1/5 holds and the published estimation (δ = 0.1: 14 tasks) applies, at the
// paper's size (3000 episodes × 30 steps, γ = 0.95, m = 500, optimistic rule). It reports the
// share of optimal over tasks 16–40 of RMax, of LRMax without a prior (D_max = R_max + 2γ·V_max,
// the published code's) and with the prior 0.2, both estimating D_max online, and of the latter
// without estimation; with the pairs given an estimate and the start values below Q* per task.
func BenchmarkLRMaxOnlineEstimate(b *testing.B) {
	const episodes, steps, gamma, from = 3000, 30, 0.95, 15
	mz, err := (&families.OnlineMazeParams{Width: 4, Height: 4, Pool: 5, Tasks: 40,
		Landforms: []float64{0, 0.2, 0.4}, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		Rewards: env.PaperRewards}).Mazes(rand.New(rand.NewPCG(2, 0)))
	if err != nil {
		b.Fatal(err)
	}
	tasks := make([]*mdp.Model, len(mz))
	for k := range mz {
		if tasks[k], err = mz[k].Model(); err != nil {
			b.Fatal(err)
		}
	}
	opt := sequenceReward(b, &optimalAgent{}, tasks, episodes, steps, gamma, 3)
	share := func(ag agent.Agent) float64 {
		got := sequenceReward(b, ag, tasks, episodes, steps, gamma, 3)
		var a, o float64
		for k := from; k < len(tasks); k++ {
			a, o = a+got[k], o+opt[k]
		}
		return a / o
	}
	b.Run("rmax", func(b *testing.B) {
		p := learners.DefaultRMax()
		p.Rule = learners.Optimistic
		for range b.N {
			rm, err := learners.NewRMax(p)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(share(agent.NewSingle(rm)), "share_of_optimal")
		}
	})
	noPrior := 1 + 2*gamma/(1-gamma)
	for _, c := range []struct {
		name       string
		dMax, pMin float64
	}{{"no_prior", noPrior, 0.2}, {"d_max=0.2", 0.2, 0.2}, {"d_max=0.2,no_estimate", 0.2, 0}} {
		b.Run(c.name, func(b *testing.B) {
			p := DefaultLRMax()
			p.DMax, p.PMin = c.dMax, c.pMin
			for range b.N {
				x, err := NewLRMax(p)
				if err != nil {
					b.Fatal(err)
				}
				viol, est, k := 0.0, 0.0, 0
				r := &reporting{LRMax: x, each: func(ms []agent.Metric) {
					if k >= from {
						v, _ := metric(ms, "start_bound_violations")
						e, _ := metric(ms, "estimated_pairs_start")
						viol, est = viol+v, est+e
					}
					k++
				}}
				b.ReportMetric(share(r), "share_of_optimal")
				b.ReportMetric(viol/float64(len(tasks)-from), "violations/task")
				b.ReportMetric(est/float64(len(tasks)-from), "estimated_pairs/task")
			}
		})
	}
}

// reporting hands LRMax's task metrics to each after every task.
type reporting struct {
	*LRMax
	each func([]agent.Metric)
}

func (r *reporting) EndTask() {
	r.LRMax.EndTask()
	r.each(r.TaskMetrics())
}

// benchLRMaxMaze is agent's benchMaze: a 4×4 maze of the online setting with a fixed mix of
// landforms.
func benchLRMaxMaze(b *testing.B) *mdp.Model {
	b.Helper()
	slip := []float64{0.2, 0.2, 0.2, 0.4, 0, 0.2, 0.4, 0.4, 0.4, 0, 0, 0, 0, 0.2, 0.4, 0.2}
	mz := env.Maze{Width: 4, Height: 4, Slip: slip, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
	m, err := mz.Model()
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkLRMaxMaze4x4 runs, per op, a fresh agent on 5 whole tasks of the paper's size (3000
// episodes × 30 steps, γ = 0.95) on the benchmark maze, so that tasks 2–5 transfer from up to 4
// tasks in memory, and reports steps per second, planning and bounds included; rmax is RMax in
// the same harness, with the same (optimistic) action rule.
func BenchmarkLRMaxMaze4x4(b *testing.B) {
	m := benchLRMaxMaze(b)
	tasks := []*mdp.Model{m, m, m, m, m}
	const episodes, steps = 3000, 30
	for _, name := range []string{"rmax", "lrmax"} {
		b.Run(name, func(b *testing.B) {
			for k := range b.N {
				var ag agent.Agent
				var err error
				if name == "rmax" {
					p := learners.DefaultRMax()
					p.Rule = learners.Optimistic // LRMax's default rule
					rm, err := learners.NewRMax(p)
					if err != nil {
						b.Fatal(err)
					}
					ag = agent.NewSingle(rm)
				} else {
					p := DefaultLRMax()
					p.DMax = 0.2
					ag, err = NewLRMax(p)
				}
				if err != nil {
					b.Fatal(err)
				}
				sequenceReward(b, ag, tasks, episodes, steps, 0.95, uint64(k))
			}
			b.ReportMetric(float64(b.N*len(tasks)*episodes*steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
