package temple_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/temple"
)

// O-TempLe on three tasks of one 5×5 maze with slip 0.4: already within the first task most
// pairs are matched to a template other pairs filled, and augmented with its samples. (The
// task's five true templates become a few more learned ones: samples are noisy.)
func ExampleOTempLe() {
	slip := make([]float64, 25)
	for i := range slip {
		slip[i] = 0.4
	}
	mz := env.Maze{Width: 5, Height: 5, Slip: slip, Goals: []env.Cell{{X: 5, Y: 5}}, StepCost: 0.2, GoalReward: 1, Actions: 4}
	m, _ := mz.Model()
	p := temple.DefaultParams()
	p.Ms = 20
	rmax := learners.DefaultRMax()
	rmax.M = 200
	base, err := learners.NewRMax(rmax) // the paper's base learner, with m = 200
	if err != nil {
		fmt.Println(err)
		return
	}
	ot, err := temple.NewOTempLe(p, base)
	if err != nil {
		fmt.Println(err)
		return
	}
	envRand := rand.New(rand.NewPCG(1, 2))
	for k := range 3 {
		metrics := runTask(ot, m, k, 500, envRand)
		fmt.Printf("task %d: %v templates, %v of 100 pairs augmented from the library\n", k, metrics["library_size"], metrics["augmented_pairs"])
	}
	// Output:
	// task 0: 7 templates, 88 of 100 pairs augmented from the library
	// task 1: 8 templates, 93 of 100 pairs augmented from the library
	// task 2: 9 templates, 93 of 100 pairs augmented from the library
}

// Sequential identification (not in the paper) on three tasks of a deterministic 5×5 maze: once
// the library holds the maze's templates — deterministic moves that differ in reward: a step,
// onto lava, onto the goal — a pair is identified as soon as its rewards single one out at
// δ = 0.05 (about 10 own samples) instead of at m_s = 20, so the learner records half as many.
func ExampleParams_sequential() {
	mz := env.Maze{Width: 5, Height: 5, Slip: make([]float64, 25), Goals: []env.Cell{{X: 5, Y: 5}},
		Lava: []env.Cell{{X: 3, Y: 3}}, StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
	m, _ := mz.Model()
	for _, delta := range []float64{0, 0.05} {
		p := temple.DefaultParams()
		p.Ms = 20
		if delta > 0 {
			p.SeqDelta, p.SeqMin, p.SeqRewardRange = delta, 2, 1.8 // rewards span [−1, 0.8]
		}
		rmax := learners.DefaultRMax()
		rmax.M = 200
		base, _ := learners.NewRMax(rmax)
		ot, err := temple.NewOTempLe(p, base)
		if err != nil {
			fmt.Println(err)
			return
		}
		envRand := rand.New(rand.NewPCG(1, 2))
		var recorded []float64
		for k := range 3 {
			recorded = append(recorded, runTask(ot, m, k, 300, envRand)["samples_recorded"])
		}
		fmt.Printf("seq_delta %g: own samples recorded in tasks 0, 1, 2: %v\n", delta, recorded)
	}
	// Output:
	// seq_delta 0: own samples recorded in tasks 0, 1, 2: [4100 2000 2000]
	// seq_delta 0.05: own samples recorded in tasks 0, 1, 2: [3532 984 984]
}

// ExampleParams_optimism: optimism over library templates (opt_delta) over MBIE-EB on a 5×5
// deterministic maze with lava: from the second task on, a pair's first sample leaves only the
// library template of its kind consistent (R = 0.2 separates a step from lava or the goal), and
// the pair is planned with it instead of with MBIE-EB's bonus. On a maze this small MBIE-EB
// explores quickly anyway and the reward barely moves (docs/experiments/regime-map.md measures
// larger ones); without the option no pair is placed.
func ExampleParams_optimism() {
	mz := env.Maze{Width: 5, Height: 5, Slip: make([]float64, 25), Goals: []env.Cell{{X: 5, Y: 5}},
		Lava: []env.Cell{{X: 3, Y: 3}}, StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
	m, _ := mz.Model()
	for _, delta := range []float64{0, 0.05} {
		p := temple.DefaultParams()
		p.Ms = 5
		p.OptDelta, p.SeqRewardRange = delta, 0.2
		base, _ := learners.NewMBIEEB(learners.DefaultMBIEEB())
		ot, err := temple.NewOTempLe(p, base)
		if err != nil {
			fmt.Println(err)
			return
		}
		envRand := rand.New(rand.NewPCG(1, 2))
		var reward, placements []float64
		for k := range 3 {
			metrics := runTask(ot, m, k, 100, envRand)
			reward = append(reward, math.Round(metrics["reward"]))
			placements = append(placements, metrics["optimistic_placements"])
		}
		fmt.Printf("opt_delta %g: reward in tasks 0, 1, 2: %v, optimistic placements: %v\n", delta, reward, placements)
	}
	// Output:
	// opt_delta 0: reward in tasks 0, 1, 2: [1613 1602 1605], optimistic placements: [0 0 0]
	// opt_delta 0.05: reward in tasks 0, 1, 2: [1611 1607 1605], optimistic placements: [35 96 96]
}

// runTask runs task k of model m with ot for the given number of episodes of 30 steps from state
// 0 ((1,1)), drawing the environment from envRand, and returns the task's metrics by name, with

// taskLearner is a learner of tasks that reports metrics at their end (O-TempLe, LatentPrior).
type taskLearner interface {
	agent.Agent
	TaskMetrics() []agent.Metric
}

// the task's total reward as "reward".
func runTask(ot taskLearner, m *mdp.Model, k, episodes int, envRand *rand.Rand) map[string]float64 {
	if err := ot.BeginTask(agent.Task{Index: k, S: m.S, A: m.A, Gamma: 0.95, Rand: rand.New(rand.NewPCG(3, uint64(k))), Truth: m,
		Rewards: agent.RewardsOf(m)}); err != nil {
		panic(err) // an example's learner refused its task
	}
	total := 0.0
	loop := agenttest.Loop{Agent: ot, Task: m, Rand: envRand, AfterStep: func(_, _ int, r float64, _ int) { total += r }}
	for range episodes {
		loop.Episode(0, 30)
	}
	ot.EndTask()
	metrics := map[string]float64{"reward": total}
	for _, x := range ot.TaskMetrics() {
		metrics[x.Name] = x.Value
	}
	return metrics
}

// twoGoals are the examples' two 5×5 mazes, A and B, the same but for the goal: one corner or
// the other.
func twoGoals() (a, b *mdp.Model) {
	maze := func(goal env.Cell) *mdp.Model {
		mz := env.Maze{Width: 5, Height: 5, Slip: make([]float64, 25), Goals: []env.Cell{goal}, StepCost: 0.2, GoalReward: 1, Actions: 4}
		m, _ := mz.Model()
		return m
	}
	return maze(env.Cell{X: 5, Y: 5}), maze(env.Cell{X: 1, Y: 5})
}

// perEpisodePSRL is PSRL as the base of a learner that says when it draws.
func perEpisodePSRL() (agent.Base, error) {
	p := learners.DefaultPSRL()
	p.Schedule = learners.PerEpisode
	return learners.NewPSRL(p)
}

// The latent-model posterior on the finite-model setting: tasks of two 5×5 mazes (goal in one
// corner or the other), A, A, B, A. The first task is a new model; the second is recognised as
// A's (its samples join A's model); B starts a second model; the last A finds its model again.
func ExampleNewLatentPrior() {
	a, b := twoGoals()
	base, err := perEpisodePSRL()
	if err != nil {
		fmt.Println(err)
		return
	}
	// Beta rewards on each task's own range (−0.2 to 0.8 here), as the base's defaults take it.
	r := temple.PSRLModel{Beta: true, TaskRange: true, Schedule: temple.DrawDoubling}
	lp, err := temple.NewLatentPrior(temple.DefaultLatentParams(), r, base)
	if err != nil {
		fmt.Println(err)
		return
	}
	envRand := rand.New(rand.NewPCG(1, 2))
	for k, m := range []*mdp.Model{a, a, b, a} {
		metrics := runTask(lp, m, k, 100, envRand)
		fmt.Printf("task %d: posterior of a new model at its end %.2g; models held after it: %v\n", k, metrics["new_model_weight"], metrics["latent_models"])
	}
	// Output:
	// task 0: posterior of a new model at its end 1; models held after it: 1
	// task 1: posterior of a new model at its end 4e-107; models held after it: 1
	// task 2: posterior of a new model at its end 1; models held after it: 2
	// task 3: posterior of a new model at its end 3.4e-124; models held after it: 2
}

// hybrid-prior with its whole-task models' pairs shared (pair_concentration γ = 10) and edits of
// earlier models (edit_share β = 0.5, change_rate ρ = 0.05), on ExampleNewLatentPrior's
// sequence A, A, B, A of two 5×5 mazes whose goals differ: the second A is recognised as the
// first's model, B starts a second model (fresh, or an edit of A's: the metric sums both), and
// the last A finds its model again.
func ExampleNewHybridPrior_edits() {
	a, b := twoGoals()
	base, err := perEpisodePSRL()
	if err != nil {
		fmt.Println(err)
		return
	}
	hp := temple.DefaultHybridParams()
	hp.PairConcentration, hp.EditShare, hp.ChangeRate = 10, 0.5, 0.05
	h, err := temple.NewHybridPrior(hp, temple.PSRLModel{Beta: true, TaskRange: true, Schedule: temple.DrawDoubling}, base)
	if err != nil {
		fmt.Println(err)
		return
	}
	envRand := rand.New(rand.NewPCG(1, 2))
	for k, m := range []*mdp.Model{a, a, b, a} {
		metrics := runTask(h, m, k, 100, envRand)
		fmt.Printf("task %d: posterior of a new model (fresh or an edit) at its end %.2g; models held after it: %v\n", k, metrics["new_model_weight"], metrics["latent_models"])
	}
	// Output:
	// task 0: posterior of a new model (fresh or an edit) at its end 1; models held after it: 1
	// task 1: posterior of a new model (fresh or an edit) at its end 0.081; models held after it: 1
	// task 2: posterior of a new model (fresh or an edit) at its end 1; models held after it: 2
	// task 3: posterior of a new model (fresh or an edit) at its end 0.033; models held after it: 2
}

// The identification oracle on the same two mazes: told the models of the sequence A, A, B, A
// (two distinct ones, not which task has which), it is sure of each task's model by its end (the
// goals pay differently), and no sample falls outside the models it was told.
func ExampleNewKnownModels() {
	a, b := twoGoals()
	kn, err := temple.NewKnownModels([]*mdp.Model{a, a, b, a}, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("distinct models told:", kn.Models())
	envRand := rand.New(rand.NewPCG(1, 2))
	for k, m := range []*mdp.Model{a, b} {
		metrics := runTask(kn, m, k, 100, envRand)
		fmt.Printf("task %d: posterior of the likeliest model at its end %.2g, samples no model explains %v\n", k, metrics["posterior_max"], metrics["unexplained_samples"])
	}
	// Output:
	// distinct models told: 2
	// task 0: posterior of the likeliest model at its end 1, samples no model explains 0
	// task 1: posterior of the likeliest model at its end 1, samples no model explains 0
}
