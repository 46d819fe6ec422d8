package presets

// The presets that are not the paper's own experiments: its agents beside our options (beyond),
// other base learners under TempLe, lifelong baselines, the sample-complexity law, and simulator
// tasks. The paper's presets and the table of all presets are in presets.go, the agents' helpers
// in agents.go.

import (
	"slices"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/temple"
)

// beyond runs the online-maze setting with the paper's O-TempLe beside O-TempLe with the best
// options measured (EXPERIMENTS.md, "Distance to optimal"; early_match chosen at seed 2).
func beyond() experiment.Spec {
	s := paper("beyond", families.OnlineMaze, oTempLe, qLearning, rmax)
	s.Agents = slices.Insert(s.Agents, 1, beyondOptions(paperAgent(oTempLe)))
	return s
}

func beyondFiniteModel() experiment.Spec {
	s := finiteModelSpec("beyond-finite-model", fmTempLe, fmrl, qLearning, rmax)
	fm := beyondOptions(paperAgent(fmTempLe))
	fm.Name += "+transfer"
	fm.Params.(*temple.FMTempLeSpec).TemplateTransfer = true
	s.Agents = slices.Insert(s.Agents, 1, fm)
	return s
}

// beyondEarlyMatch is early_match in the beyond presets: the best of 5, 10 and 20 over both
// settings at seed 2 (the presets report seed 1).
const beyondEarlyMatch = 10

// beyondOptions is template learner a (O-TempLe, FM-TempLe) with the retry and early_match
// options, named NAME+retry+early.
func beyondOptions(a experiment.AgentSpec) experiment.AgentSpec {
	a.Name += "+retry+early"
	t := templeOf(a.Params)
	t.Retry, t.EarlyMatch = true, beyondEarlyMatch
	return a
}

// baseTypes are the base learners' agent types, the paper's RMax first.
var baseTypes = []string{rmax, mbieEB, e3, ucrl2, psrl}

// baseLearners runs every base learner alone and under O-TempLe on the online-maze setting. The
// bases with a known threshold (E3; RMax's is the paper's) take m = 500, so that m_s = 50 is
// below it and the bases differ only in how they explore; MBIE-EB, UCRL2 and PSRL keep their own
// defaults (EXPERIMENTS.md, "Templates over other base learners").
func baseLearners() experiment.Spec {
	s := paper("base-learners", families.OnlineMaze)
	for _, b := range baseTypes {
		learner := func() experiment.AgentSpec {
			a := paperAgent(b)
			if b == e3 {
				a.Params.(*learners.E3Params).M = 500
			}
			return a
		}
		s.Agents = append(s.Agents, learner(), overBase(learner()))
	}
	rewardsAsMeasured(s.Agents)
	s.Output.Baseline = "RMax"
	return s
}

// rewardsAsMeasured gives every agent over PSRL's Beta posterior the reward range [0, 1], PSRL's
// default when the presets that run it were measured (docs/experiments/base-learners.md,
// lifelong.md), before issue 55 made the task's own range the default (decision 41): on these
// mazes the rewards below 0 — step costs and lava — are clamped to 0, and counted
// (reward_clamps in metrics.csv).
func rewardsAsMeasured(agents []experiment.AgentSpec) {
	for _, a := range agents {
		if p := psrlOf(a.Params); p != nil {
			p.RewardMin, p.RewardMax = learners.Bound(0), learners.Bound(1)
		}
	}
}

// baseLearnersRiverSwim runs every base learner and Q-learning on RiverSwim (the riverswim
// preset's 2000 × 100 from its start distribution), with R_max = 10 000 for every optimistic
// learner, MBIE-EB's β on that scale (0.4·R_max) and PSRL's rewards in [0, 10 000] (its Beta
// posterior's range; its Normal prior, if chosen, N(0, 10 000²) with noise 5 000, the largest
// standard deviation of a reward in [0, 10 000]).
func baseLearnersRiverSwim() experiment.Spec {
	s := riverSwim()
	s.Name = "base-learners-riverswim"
	s.Agents = paperAgents(baseTypes...)
	s.Agents = append(s.Agents, paperAgent(qLearning), overBase(paperAgent(rmax)), overBase(paperAgent(psrl)))
	s = withRMax(s, 10000)
	for _, a := range s.Agents {
		if p := mbieOf(a.Params); p != nil {
			p.Beta = 4000
		}
		if p := psrlOf(a.Params); p != nil {
			p.RewardSD, p.RewardNoise = 10000, 5000
			// the range of PSRL's Beta posterior: the task's, as it states it
			p.RewardMin, p.RewardMax = learners.Bound(0), learners.Bound(10000)
		}
	}
	return s
}

// lifelongOn compares the lifelong learners of the setting's tasks.
func lifelongOn(name, family string) experiment.Spec {
	s := paper(name, family, oTempLe)
	s.Agents = append(s.Agents, beyondOptions(paperAgent(oTempLe)), paperAgent(fmTempLe), paperAgent(lrmax),
		paperAgent(maxQInitRMax), paperAgent(psrl), paperAgent(rmax))
	rewardsAsMeasured(s.Agents)
	if family == families.FiniteModel {
		for _, a := range s.Agents[:2] {
			templeOf(a.Params).Tau = 0.24 // the finite-model setting's τ̂ (decision 18)
		}
	}
	return s
}

func lifelong() experiment.Spec { return lifelongOn("lifelong", families.OnlineMaze) }
func lifelongFiniteModel() experiment.Spec {
	return lifelongOn("lifelong-finite-model", families.FiniteModel)
}

// scaling measures the sample-complexity law (Scaling): m = 50 and m_s = 5 keep the paper's
// ratio m/m_s = 10 while RMax can finish exploring a 128×128 maze (65 536 pairs) within the
// budget of 2·m·S·A steps per task; two tasks per run, so that the second finds a library;
// episodes of 100 steps from a random cell each, so that every cell is reachable; incremental
// planning, since a full plan would sweep 16 384 states whenever a pair becomes known.
func scaling() experiment.Spec {
	s := paper("scaling", families.OnlineMaze, rmax, oTempLe)
	s.Runs, s.Steps, s.Start = 5, 100, experiment.StartPerEpisode
	s.Agents = append(s.Agents, beyondOptions(paperAgent(oTempLe)))
	for _, a := range s.Agents {
		r := rmaxOf(a.Params)
		r.M, r.Planning = 50, learners.PlanIncremental
		if o, ok := a.Params.(*temple.OTempLeSpec); ok {
			o.SetMs(5)
			if a.Name != "O-TempLe" {
				o.EarlyMatch = 2
			}
		}
	}
	// ε = 0.01·V_max (0.2 in these mazes): far from the goal the actions' values differ by less
	// than the default 0.1·V_max, so no step there would count as a mistake.
	s.Oracle.Epsilon = 0.01
	maze := s.Tasks.Params.(*families.OnlineMazeParams)
	maze.Tasks, maze.Pool = 2, 2
	s.Scaling = &experiment.Scaling{Sizes: []int{4, 8, 16, 32, 64, 128}, TemplatesSize: 16, Budget: 2,
		LandformSets: [][]float64{{0.2}, {0, 0.2}, {0, 0.2, 0.4}, {0, 0.1, 0.2, 0.3, 0.4}, {0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45}}}
	return s
}

// beyondVaryingActions is the evidence of EXPERIMENTS.md, "Why O-TempLe loses on the 8-action
// tasks": each option alone and together, and the textbook RMax action rule, beside the paper's
// O-TempLe.
func beyondVaryingActions() experiment.Spec {
	s := paper("beyond-varying-actions", families.VaryingActions, oTempLe)
	retry, early, optimistic := paperAgent(oTempLe), paperAgent(oTempLe), paperAgent(oTempLe)
	retry.Name, early.Name, optimistic.Name = retry.Name+"+retry", early.Name+"+early", optimistic.Name+"+optimistic"
	templeOf(retry.Params).Retry = true
	templeOf(early.Params).EarlyMatch = beyondEarlyMatch
	rmaxOf(optimistic.Params).Rule = learners.Optimistic
	s.Agents = append(s.Agents, retry, early, beyondOptions(paperAgent(oTempLe)), optimistic,
		paperAgent(rmax), paperAgent(qLearning))
	return s
}

// simulatorSpec is the common setting of the simulator presets: γ 0.99 (a MountainCar episode
// takes a hundred steps or more to reach the goal, so a shorter horizon cannot tell success from
// failure), a reset per episode as Gymnasium does, no oracle (a simulator has no true model), and
// thresholds for near-deterministic cells: m 10, and for O-TempLe m_s 3 and τ̂ 0.05, the best of
// m_s ∈ {3, 5, 8} × τ̂ ∈ {0.05, 0.15} on the discretized sequence at seed 2 (EXPERIMENTS.md,
// "Simulator tasks"): a template within 0.15 of a pure self-loop may hide an exit taken one step
// in ten, the step that matters in a slowly moving cell. R_max 0 is the largest reward of
// MountainCar (−1 a step) and below CartPole's (+1 a step), where it makes unknown pairs look as
// good as failing at once; it is the same for every agent. Beside the published O-TempLe runs
// O-TempLe+refute, the same with the refute option: m_s = 3 is far below Theorem 1's Õ(1/τ̂²),
// so a match is often made on samples that missed a rare outcome, and a step that reaches a state
// the augmented estimate rules out withdraws it.
func simulatorSpec(name string, tasks families.Spec, episodes, steps int) experiment.Spec {
	s := paper(name, families.MountainCar, oTempLe, rmax, qLearning)
	s.Tasks = tasks
	s.Runs, s.Episodes, s.Steps, s.Gamma = 10, episodes, steps, 0.99
	s.Start, s.Oracle.Enabled = experiment.StartPerEpisode, false
	simulated := func(a experiment.AgentSpec) experiment.AgentSpec {
		if a.Type != qLearning {
			r := rmaxOf(a.Params)
			r.M, r.RMax = 10, 0
		}
		if o, ok := a.Params.(*temple.OTempLeSpec); ok {
			o.SetMs(3)
			o.Tau = 0.05
		}
		return a
	}
	for k := range s.Agents {
		s.Agents[k] = simulated(s.Agents[k])
	}
	refute := simulated(paperAgent(oTempLe))
	refute.Name += "+refute"
	refute.Params.(*temple.OTempLeSpec).Refute = true
	s.Agents = slices.Insert(s.Agents, 1, refute)
	return s
}

func mountainCarPreset() experiment.Spec {
	tasks := mustFamily(families.MountainCar)
	tasks.Params.(*families.SimulatorParams).Bins = []int{20, 20}
	return simulatorSpec("mountaincar", tasks, 1000, 200)
}

// discretizedPreset is the same robots on different planets: MountainCar with weaker and stronger
// gravity and engine, CartPole on Mars-like and Jupiter-like gravity with a heavier pole.
func discretizedPreset() experiment.Spec {
	car := mustFamily(families.MountainCar)
	cp := car.Params.(*families.SimulatorParams)
	cp.Count, cp.Bins = 3, []int{20, 20}
	cp.Variants = []map[string]float64{{}, {"gravity": 0.002}, {"gravity": 0.003, "force": 0.0012}}
	pole := mustFamily(families.CartPole)
	pp := pole.Params.(*families.SimulatorParams)
	pp.Count, pp.Bins = 3, []int{3, 3, 6, 6}
	pp.Variants = []map[string]float64{{}, {"gravity": 3.7}, {"gravity": 24.8, "mass_pole": 0.2}}
	tasks := mustFamily(families.Mixed)
	tasks.Params = &families.MixedParams{Repeat: 2, Parts: []families.Spec{car, pole}}
	s := simulatorSpec("discretized", tasks, 300, 500)
	s.Runs = 20
	return s
}
