package experiment

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/oracle"
	"github.com/temple-rl/temple/results"
)

// scripted plays a fixed rule and keeps the pairs it took, to count mistakes by hand.
type scripted struct {
	rule  func(s int, t agent.Task) int
	task  agent.Task
	pairs [][2]int
}

func (a *scripted) BeginTask(t agent.Task) error { a.task = t; return nil }
func (a *scripted) Act(s int) int                { return a.rule(s, a.task) }
func (a *scripted) Observe(s, act int, _ float64, _ int) {
	a.pairs = append(a.pairs, [2]int{s, act})
}
func (a *scripted) EndEpisode() {}
func (a *scripted) EndTask()    {}

func always(action int) func(int, agent.Task) int {
	return func(int, agent.Task) int { return action }
}

func uniform(_ int, t agent.Task) int { return t.Rand.IntN(t.A) }

// runAgent runs one cell of p with the agent a and returns its first task's record.
func runAgent(t *testing.T, p *Plan, a agent.Agent) results.TaskRecord {
	t.Helper()
	fac := AgentFactory{Name: "scripted", New: func(RunContext) (agent.Agent, error) { return a, nil }}
	res, err := runCell(context.Background(), p, results.At(t.TempDir()), 0, fac, silent{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Tasks[0]
}

// chainPlan runs E episodes of T steps of the two-state chain from state 0: in state 0, action 0
// stays and pays 1, action 1 moves to state 1 and pays 0; state 1 stays and pays 2 either way.
func chainPlan(t *testing.T, T, E int, epsilon float64) *Plan {
	t.Helper()
	m, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1, Reward: 1}}, {{Next: 1, Prob: 1}},
		{{Next: 1, Prob: 1, Reward: 2}}, {{Next: 1, Prob: 1, Reward: 2}},
	}, []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	return &Plan{Seed: 1, Episodes: E, Steps: T, Gamma: 0.9, Start: StartFixed, Oracle: true, Epsilon: epsilon,
		Runs: [][]Task{{{Model: m, Start: 0}}}}
}

func near(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }

func TestOracleOfTheChainHandComputed(t *testing.T) {
	// Finite horizon T = 3 from state 0: move, then 2 + 2 → V_3(0) = 4 (staying earns 3).
	// Discounted γ = 0.9: V*(1) = 2/0.1 = 20, V*(0) = Q*(0,1) = 0.9·20 = 18, Q*(0,0) = 17.2.
	// V_max = 2/(1−γ) = 20, so epsilon 0.01 is ε = 0.2 and staying in 0 (gap 0.8) is a mistake.
	p := chainPlan(t, 3, 5, 0.01)
	best := runAgent(t, p, &scripted{rule: always(1)})
	if o := best.Oracle; !near(o.OptimalReward, 5*4) || math.Abs(o.OptimalDiscountedStart-18) > oracle.Tolerance {
		t.Fatalf("optimal reward %v, V*(start) %v, want 20 and 18", o.OptimalReward, o.OptimalDiscountedStart)
	}
	if o := best.Oracle; best.Reward != 20 || o.Mistakes != 0 || !near(o.Total(), 0) {
		t.Errorf("the optimal policy: reward %v, %d mistakes, regret %v; want 20, 0, 0", best.Reward, o.Mistakes, o.Total())
	}
	// Staying earns 3 an episode: regret 1 each, all of it at the first step (V_3(0) − 1 − V_2(0)
	// = 4 − 1 − 2); later steps lose nothing (V_2(0) − 1 − V_1(0) = 0, V_1(0) − 1 − V_0(0) = 0).
	stay := runAgent(t, p, &scripted{rule: always(0)})
	o := stay.Oracle
	if stay.Reward != 15 || !near(o.Total(), 5) || !near(o.Regret[agent.Unclassified], 5) {
		t.Errorf("staying: reward %v, regret %v by phase %v; want 15, 5 unclassified", stay.Reward, o.Total(), o.Regret)
	}
	if o.Mistakes != 15 {
		t.Errorf("staying: %d ε-mistakes, want all 15 steps", o.Mistakes)
	}
	// With epsilon 0.1 (ε = 2) the gap 0.8 is no mistake.
	if loose := runAgent(t, chainPlan(t, 3, 5, 0.1), &scripted{rule: always(0)}); loose.Oracle.Mistakes != 0 {
		t.Errorf("ε = 2: %d mistakes, want 0", loose.Oracle.Mistakes)
	}
}

func TestMistakesOfAUniformPolicyMatchAHandCount(t *testing.T) {
	p := chainPlan(t, 4, 50, 0.01)
	a := &scripted{rule: uniform}
	rec := runAgent(t, p, a)
	want := int64(0)
	for _, sa := range a.pairs {
		if sa == [2]int{0, 0} { // the only pair with Q* < V* − 0.2
			want++
		}
	}
	if want == 0 || rec.Oracle.Mistakes != want {
		t.Errorf("%d mistakes, want %d (steps that stayed in state 0)", rec.Oracle.Mistakes, want)
	}
	if !near(rec.Oracle.Total(), rec.Oracle.OptimalReward-rec.Reward) {
		t.Errorf("decomposition %v, regret %v", rec.Oracle.Total(), rec.Oracle.OptimalReward-rec.Reward)
	}
}

// corridor is a deterministic 3×1 maze: start (1,1), goal (3,1) paying 1 − 0.2 a step spent on it,
// −0.2 elsewhere.
func corridorSpec(t *testing.T, start StartRule) Spec {
	t.Helper()
	s := Default()
	s.Runs, s.Episodes, s.Steps, s.Gamma, s.Start, s.StartCell = 1, 40, 4, 0.9, start, [2]int{1, 1}
	tasks, err := families.New(families.Grid)
	if err != nil {
		t.Fatal(err)
	}
	*tasks.Params.(*families.GridParams) = families.GridParams{Width: 3, Height: 1, Tasks: 1, Goals: []env.Cell{{X: 3, Y: 1}},
		Rewards: env.Rewards{GoalRewards: env.GoalRewards{StepCost: 0.2, GoalReward: 1}}}
	s.Tasks = tasks
	s.Output.Baseline = ""
	return s
}

func TestOracleOfASmallMazeHandComputed(t *testing.T) {
	// From (1,1) in T = 4 steps: right (−0.2), right onto the goal (+0.8), then stay on it
	// (+0.8, +0.8): V_4 = 2.2. Discounted, γ = 0.9: V*(goal) = 0.8/0.1 = 8, V*(2,1) = 0.8 + 0.9·8
	// = 8, V*(1,1) = −0.2 + 0.9·8 = 7.
	p, err := Build(corridorSpec(t, StartFixed))
	if err != nil {
		t.Fatal(err)
	}
	rec := runAgent(t, p, &scripted{rule: always(env.Right)})
	if o := rec.Oracle; !near(o.OptimalReward, 40*2.2) || math.Abs(o.OptimalDiscountedStart-7) > oracle.Tolerance {
		t.Fatalf("optimal reward %v, V*(start) %v; want 88 and 7", o.OptimalReward, o.OptimalDiscountedStart)
	}
	if o := rec.Oracle; !near(rec.Reward, 88) || !near(o.Total(), 0) || o.Mistakes != 0 {
		t.Errorf("always right: reward %v, regret %v, %d mistakes; want 88, 0, 0", rec.Reward, o.Total(), o.Mistakes)
	}
}

// With a start state redrawn every episode, the oracle sums V_T over the starts the runner drew:
// the optimal policy's reward (deterministic here) matches it exactly, whatever the draws.
func TestOracleFollowsTheStartsOfEveryEpisode(t *testing.T) {
	p, err := Build(corridorSpec(t, StartPerEpisode))
	if err != nil {
		t.Fatal(err)
	}
	rec := runAgent(t, p, &scripted{rule: always(env.Right)})
	// V_4 is 2.2 from (1,1) and 3.2 from the other cells: both kinds of start must occur.
	if o := rec.Oracle; !near(o.OptimalReward, rec.Reward) || o.OptimalReward == 40*2.2 || o.OptimalReward == 40*3.2 {
		t.Errorf("optimal reward %v, reward of the optimal policy %v", o.OptimalReward, rec.Reward)
	}
}

// The decomposition adds up to the regret for every learner, task and phase of the online maze.
func TestRegretDecompositionAddsUp(t *testing.T) {
	s := Default()
	s.Runs, s.Episodes = 1, 300
	s.Tasks.Params.(*families.OnlineMazeParams).Tasks = 4
	s.Agents = paperAgents(TypeOTempLe, TypeRMax, TypeQLearning, TypeFMTempLe)
	for k := range s.Agents {
		if s.Agents[k].Has("m_s") {
			s.Agents[k].mustSet("m", 60)
			s.Agents[k].mustSet("m_s", 20)
		}
	}
	s.Agents[1].mustSet("m", 60)
	s.Agents[3].mustSet("t1", 2)
	results := buildAndRun(t, s, 2)
	for _, c := range results {
		for _, rec := range c.Tasks {
			o := rec.Oracle
			if regret := o.OptimalReward - rec.Reward; math.Abs(o.Total()-regret) > 1e-7*o.OptimalReward {
				t.Errorf("%s task %d: parts add up to %v, regret %v", c.Agent, rec.Task, o.Total(), regret)
			}
			model := c.Agent != "Q-learning"
			if (o.Regret[agent.Unclassified] != 0) == model || model && o.Regret[agent.Exploring] <= 0 {
				t.Errorf("%s task %d: regret by phase %v", c.Agent, rec.Task, o.Regret)
			}
		}
	}
}

// The results directory holds oracle.csv, regret.csv, the oracle's summary and figures with the
// oracle on — the regret-by-phase figure only for agents that report phases — and none of them
// with it off.
func TestOracleFilesInTheResultsDirectory(t *testing.T) {
	for _, on := range []bool{true, false} {
		s := Default()
		s.Runs, s.Episodes = 2, 50
		s.Tasks.Params.(*families.OnlineMazeParams).Tasks = 3
		s.Oracle.Enabled = on
		dir := t.TempDir()
		sum, err := Execute(context.Background(), s, dir, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"oracle.csv", "regret.csv", "figures/eps_mistakes.png", "figures/regret_by_phase_O-TempLe.png", "figures/regret_by_phase_RMax.svg"} {
			if _, err := os.Stat(filepath.Join(dir, f)); (err == nil) != on {
				t.Errorf("oracle %v: %s exists: %v", on, f, err == nil)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "figures/regret_by_phase_Q-learning.png")); err == nil {
			t.Error("a regret-by-phase figure for Q-learning, which reports no phases")
		}
		if (sum.Optimal != nil) != on || (sum.Agents[0].Oracle != nil) != on {
			t.Fatalf("oracle %v: summary optimal %v, agent oracle %v", on, sum.Optimal, sum.Agents[0].Oracle)
		}
		if !on {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "regret.csv"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		want := "run,agent,task,reward,optimal_reward,regret,share_of_optimal,eps_mistakes,regret_unclassified,regret_exploring,regret_misidentified,regret_known_model"
		if lines[0] != want || len(lines) != 1+2*3*len(s.Agents) {
			t.Errorf("regret.csv header %q and %d lines", lines[0], len(lines))
		}
		for _, a := range sum.Agents {
			o := a.Oracle
			parts := 0.0
			for _, e := range o.RegretByPhase {
				parts += e.Mean
			}
			if o.ShareOfOptimal == nil || !(o.ShareOfOptimal.Mean < 1) || !near(parts, o.MeanRegret.Mean) {
				t.Errorf("%s: share %v, regret %v, parts add up to %v", a.Name, o.ShareOfOptimal, o.MeanRegret.Mean, parts)
			}
		}
	}
}

func TestOracleEpsilonValidated(t *testing.T) {
	_, err := Parse([]byte("oracle:\n  epsilon: -0.5\n"))
	if err == nil || !strings.Contains(err.Error(), "oracle.epsilon = -0.5") {
		t.Errorf("error %v, want it to name oracle.epsilon and its value", err)
	}
}

// policied is a scripted agent that also gives its policy (agent.PolicyInfo): pi[s] in every
// state, fixed, so its version never changes.
type policied struct {
	scripted
	pi [][]float64
}

func (a *policied) PolicyVersion() uint64       { return 1 }
func (a *policied) Policy(s int, dst []float64) { copy(dst, a.pi[s]) }

// Kakade's ε-mistakes on the chain (γ = 0.9, V*(0) = 18, V*(1) = 20, ε = 0.2): the optimal
// policy makes none; staying (V^π(0) = 1/(1 − 0.9) = 10) makes one at every step; the uniform
// policy, V^π(0) = (0.5 + 0.5·0.9·20)/(1 − 0.5·0.9) = 17.27 < 17.8, makes one at every step in
// state 0 and none in state 1 (V^π(1) = 20), and none at ε = 2.
func TestPolicyMistakesHandComputed(t *testing.T) {
	count := func(epsilon float64, a *policied) (got, inZero int64) {
		p := chainPlan(t, 4, 50, epsilon)
		p.PolicyMistakes = true
		if rec := runAgent(t, p, &scripted{rule: a.rule}); rec.Oracle.PolicyMistakes != nil {
			t.Fatal("an agent that gives no policy was measured")
		}
		rec := runAgent(t, p, a)
		for _, sa := range a.pairs {
			if sa[0] == 0 {
				inZero++
			}
		}
		return *rec.Oracle.PolicyMistakes, inZero
	}
	best := &policied{scripted{rule: always(1)}, [][]float64{{0, 1}, {0, 1}}}
	if got, _ := count(0.01, best); got != 0 {
		t.Errorf("the optimal policy: %d policy mistakes, want 0", got)
	}
	stay := &policied{scripted{rule: always(0)}, [][]float64{{1, 0}, {1, 0}}}
	if got, _ := count(0.01, stay); got != 4*50 {
		t.Errorf("staying: %d policy mistakes, want all %d steps", got, 4*50)
	}
	random := &policied{scripted{rule: uniform}, [][]float64{{0.5, 0.5}, {0.5, 0.5}}}
	if got, want := count(0.01, random); want == 0 || got != want {
		t.Errorf("uniform, ε = 0.2: %d policy mistakes, want %d (the steps in state 0)", got, want)
	}
	if got, _ := count(0.1, random); got != 0 {
		t.Errorf("uniform, ε = 2: %d policy mistakes, want 0", got)
	}
}

// Counting policy mistakes leaves every result unchanged; regret.csv gains a policy_mistakes
// column, filled for the agents that give their policy; it needs the oracle.
func TestPolicyMistakesChangeNoResult(t *testing.T) {
	s := small(2, 3, 60)
	s.Agents = append(s.Agents, defaultAgent(TypeDelayedQ))
	off, on := t.TempDir(), t.TempDir()
	if _, err := Execute(context.Background(), s, off, 2, nil); err != nil {
		t.Fatal(err)
	}
	s.Oracle.PolicyMistakes = true
	sum, err := Execute(context.Background(), s, on, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"per_task.csv", "metrics.csv"} {
		a, errA := os.ReadFile(filepath.Join(off, f))
		b, errB := os.ReadFile(filepath.Join(on, f))
		if errA != nil || errB != nil || string(a) != string(b) {
			t.Errorf("%s differs with policy mistakes counted (%v, %v)", f, errA, errB)
		}
	}
	for _, a := range sum.Agents {
		if measured := a.Oracle.MeanPolicyMistakes != nil; measured != (a.Name != "Delayed-Q") {
			t.Errorf("%s: policy mistakes measured: %v", a.Name, measured)
		}
	}
	b, err := os.ReadFile(filepath.Join(on, "regret.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(string(b), "\n"); !strings.HasSuffix(lines[0], ",policy_mistakes") {
		t.Errorf("regret.csv header %q", lines[0])
	}
	if _, err := Parse([]byte("oracle:\n  enabled: false\n  policy_mistakes: true\n")); err == nil || !strings.Contains(err.Error(), "oracle.policy_mistakes") {
		t.Errorf("policy mistakes without the oracle: error %v", err)
	}
}

// TestSharedOracleEqualsOwn: cells measured on the shared per-task solutions (Run) get the same
// records as cells that solve every task themselves, every solution is dropped once the cells
// are done, and equal tasks share one model.
func TestSharedOracleEqualsOwn(t *testing.T) {
	s := small(2, 6, 30)
	s.Tasks.Params.(*families.OnlineMazeParams).Pool = 3
	s.Oracle.PolicyMistakes, s.Output.Episodes = true, false
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[*mdp.Model]bool{}
	for _, tasks := range p.Runs {
		for _, task := range tasks {
			distinct[task.Model] = true
		}
	}
	if len(distinct) > 2*3 {
		t.Errorf("%d models for 2 runs of tasks drawn from pools of 3", len(distinct))
	}
	shared, err := Run(context.Background(), p, results.At(t.TempDir()), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.oracles = newOracleCache(p)
	cache := p.oracles
	for idx, want := range shared {
		p.oracles = cache
		got, err := runCell(context.Background(), p, results.At(t.TempDir()), want.Run, p.Agents[idx%len(p.Agents)], silent{})
		if err != nil {
			t.Fatal(err)
		}
		p.oracles = nil
		own, err := runCell(context.Background(), p, results.At(t.TempDir()), want.Run, p.Agents[idx%len(p.Agents)], silent{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []results.CellResult{got, own} {
			if !reflect.DeepEqual(c.Tasks, want.Tasks) {
				t.Fatalf("run %d, %s: records differ between shared and own solutions", want.Run, want.Agent)
			}
		}
	}
	if n := cache.Len(); n != 0 {
		t.Errorf("%d solutions left in the cache after every cell", n)
	}

	rs := paper("riverswim", families.RiverSwim, TypeOTempLe, TypeQLearning, TypeRMax)
	rs.Runs = 3
	if p, err = Build(rs); err != nil {
		t.Fatal(err)
	}
	if p.Runs[0][0].Model != p.Runs[2][0].Model {
		t.Error("runs of one fixed task built separate models")
	}
}
