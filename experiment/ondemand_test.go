package experiment

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/oracle"
	"github.com/temple-rl/temple/results"
)

// A task computed on demand runs as its stored model does: the same steps and rewards for every
// agent, the same finite-horizon optimum and regret (solved around the run's start states only,
// exactly), V* within the oracle's tolerance of V* (so of each other within twice it) and the
// same ε-mistakes — also when one task comes
// twice in a sequence, sharing its dynamics but not its start states.
func TestOnDemandTaskRunsAsItsModel(t *testing.T) {
	mazes, err := (&families.OnlineMazeParams{Width: 80, Height: 80, Pool: 2, Tasks: 2,
		Landforms: []float64{0, 0.2, 0.4}, Goals: []env.Cell{{X: 80, Y: 80}}, Lava: []env.Cell{{X: 2, Y: 2}},
		Rewards: env.PaperRewards}).Mazes(rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []StartRule{StartPerTask, StartPerEpisode} {
		plan := func(onDemand bool) *Plan {
			p := &Plan{Seed: 3, Episodes: 4, Steps: 12, Gamma: 0.3, Start: start, Oracle: true, Epsilon: 0.1}
			var tasks []Task
			for _, mz := range mazes {
				task := Task{Def: mz, Start: -1}
				if onDemand {
					task.Truth, err = mz.Dynamics()
				} else {
					task.Model, err = mz.Model()
				}
				if err != nil {
					t.Fatal(err)
				}
				tasks = append(tasks, task)
			}
			p.Runs = [][]Task{append(tasks, tasks[0])}
			for _, typ := range []string{TypeOTempLe, TypeRMax, TypeQLearning} {
				p.Agents = append(p.Agents, defaultAgent(typ).factory())
			}
			return p
		}
		stored, onDemand := plan(false), plan(true)
		sol, err := onDemand.solver(0, 0, onDemand.Runs[0][0])()
		if err != nil {
			t.Fatal(err)
		}
		if !sol.Local() {
			t.Fatalf("%s: the on-demand oracle solved the whole maze; the test would not test locality", start)
		}
		wants, err := Run(context.Background(), stored, results.At(t.TempDir()), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		gots, err := Run(context.Background(), onDemand, results.At(t.TempDir()), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for c, want := range wants {
			got, fac := gots[c], stored.Agents[c]
			for k, w := range want.Tasks {
				g := got.Tasks[k]
				wo, gotOracle := w.Oracle, g.Oracle
				switch {
				case g.Reward != w.Reward || g.Steps != w.Steps || g.Start != w.Start:
					t.Fatalf("%s %s task %d: reward %v in %d steps from %d, stored %v in %d from %d",
						start, fac.Name, k, g.Reward, g.Steps, g.Start, w.Reward, w.Steps, w.Start)
				case gotOracle.OptimalReward != wo.OptimalReward:
					t.Fatalf("%s %s task %d: optimal reward %v, stored %v", start, fac.Name, k, gotOracle.OptimalReward, wo.OptimalReward)
				case math.Abs(gotOracle.Total()-wo.Total()) > 1e-9*math.Max(1, math.Abs(wo.Total())):
					t.Fatalf("%s %s task %d: regret %v, stored %v", start, fac.Name, k, gotOracle.Total(), wo.Total())
				case math.Abs(gotOracle.OptimalDiscountedStart-wo.OptimalDiscountedStart) > 2*oracle.Tolerance: // each within it of V*
					t.Fatalf("%s %s task %d: V*(start) %v, stored %v", start, fac.Name, k, gotOracle.OptimalDiscountedStart, wo.OptimalDiscountedStart)
				case gotOracle.Mistakes != wo.Mistakes:
					t.Fatalf("%s %s task %d: %d ε-mistakes, stored %d", start, fac.Name, k, gotOracle.Mistakes, wo.Mistakes)
				}
			}
		}
	}
}

// Build computes a task on demand from OnDemandPairs pairs on, and stores it below, or when an
// agent needs the true models.
func TestBuildComputesLargeMazesOnDemand(t *testing.T) {
	s := largeMazeSpec(256) // 256·256·4 pairs = OnDemandPairs
	s.Runs = 1
	p, err := BuildTasks(s)
	if err != nil {
		t.Fatal(err)
	}
	if task := p.Runs[0][0]; task.Model != nil {
		t.Fatal("a 256x256 maze was stored as a model")
	} else if _, ok := task.Truth.(*env.MazeDynamics); !ok {
		t.Fatalf("its truth is a %T, want the maze on demand", task.Truth)
	}
	small := largeMazeSpec(255)
	small.Runs = 1
	if p, err = BuildTasks(small); err != nil {
		t.Fatal(err)
	}
	if task := p.Runs[0][0]; task.Model == nil || task.Truth != mdp.Dynamics(task.Model) {
		t.Fatal("a 255x255 maze was not stored as a model")
	}
	s.Agents = append(s.Agents, defaultAgent(TypeAbsRL))
	if p, err = BuildTasks(s); err != nil {
		t.Fatal(err)
	}
	if p.Runs[0][0].Model == nil {
		t.Fatal("Abs-RL, which is built from the true models, left the tasks on demand")
	}
}
