// The table of every preset, each with the description `temple reproduce --list` prints, the
// paper's presets of its figures and Appendices F.3 and F.4, the spec helpers the presets share,
// and Demo. The presets of Appendix F.5 are in f5.go, those not in the paper in beyond.go, the
// regime map in regime.go, the terrain grids in terrain.go; the agents' helpers in agents.go.

package presets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/temple-rl/temple/baseline"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/internal/suggest"
	"github.com/temple-rl/temple/learners"
)

// Preset is a named experiment of the paper; its spec may sweep a parameter (Spec.Sweep).
type Preset struct {
	Name        string
	Description string
	Spec        func() experiment.Spec
}

var presets = []Preset{
	{
		Name: "online-maze",
		Description: "Figure 2 \"Online MTRL\": 4x4 mazes, landforms {0, 0.2, 0.4}, goal (4,4), lava (2,2), 100 tasks, " +
			"3000 x 30, m_s 50, m 500, tau 0.15, 20 runs; O-TempLe, RMax, Q-learning, Abs-RL (phi_Q*eps)",
		Spec: onlineMaze,
	},
	{
		Name: "finite-model",
		Description: "Figure 2 \"Finite-Model MTRL\": 4x4 grids with slip 0.4 and two goals, 50 tasks, 3000 x 30, " +
			"tau 0.24, Gamma 0.6, T1 15, 20 runs; FM-TempLe, Q-learning, RMax, FMRL, Abs-RL, MaxQInit",
		Spec: finiteModel,
	},
	{
		Name: "finite-model-baselines",
		Description: "Appendix F.3: every Abs-RL (phi_Q*eps, phi_Q*d, phi_Q* with Q-learning) and MaxQInit " +
			"(Q-learning, Delayed-Q, RMax) variant on the finite-model setting, with RMax",
		Spec: finiteModelBaselines,
	},
	{
		Name: "gamma-sweep",
		Description: "Figure 3(b): mean per-task reward of FM-TempLe, FMRL and RMax for Gamma from 0.2 to 1.8 " +
			"on the finite-model setting, 20 runs",
		Spec: gammaSweep,
	},
	{
		Name: "varying-size",
		Description: "Figure 2 \"Varying-sized MTRL\": 20 mazes each of 3x3, 4x4, 5x5, 6x6, start (1,1), goal drawn per task, " +
			"3000 x 30, 20 runs; O-TempLe's advantage over RMax",
		Spec: varyingSize,
	},
	{
		Name: "gaussian",
		Description: "Figure 2 \"Infinite number of TTs\": 4x4 mazes whose slips are drawn from a mixture of normals " +
			"(0.2, 0.4, 0.6; sd 0.05), 100 tasks, 3000 x 30, 20 runs; O-TempLe, RMax, Q-learning",
		Spec: gaussian,
	},
	{
		Name: "varying-actions",
		Description: "Appendix F.4: 5 tasks with the 4 moves, then 5 tasks with 8 actions (moves and diagonals), " +
			"4x4 mazes, 3000 x 30, 20 runs; O-TempLe, RMax, Q-learning",
		Spec: varyingActions,
	},
	{
		Name: "fourroom",
		Description: "Appendix F.5 at the scale of the paper's curve: the 9x9 FourRoom with the maze's reward (goal +0.8 " +
			"every step on it, not terminal; -0.2 elsewhere), slip 0.3, start (1,1), 9500 x 100, 20 runs; O-TempLe, Q-learning, RMax",
		Spec: fourRoomPreset,
	},
	{
		Name: "fourroom-terminal",
		Description: "Appendix F.5, simple_rl's FourRoom as written: 9x9, goal (9,9) terminal, reward 1, no slip, " +
			"start (1,1), 5000 x 100, 20 runs; O-TempLe, Q-learning, RMax",
		Spec: fourRoomTerminal,
	},
	{
		Name: "grid-large",
		Description: "Appendix F.5 \"large GridWorld\" at the scale of the paper's curve: a 10x10 open grid, goal (10,10) " +
			"paying 1 every step on it (not terminal), no step cost, slip 0.2, start drawn every episode, 28500 x 18, 20 runs; " +
			"O-TempLe, Q-learning, RMax",
		Spec: gridLarge,
	},
	{
		Name: "grid-large-terminal",
		Description: "Appendix F.5 \"large GridWorld\", simple_rl's grid as written: 10x10, goal (10,10) terminal, reward 1, " +
			"no slip, start (1,1), 5000 x 100, 20 runs; O-TempLe, Q-learning, RMax",
		Spec: gridLargeTerminal,
	},
	{
		Name: "frozenlake",
		Description: "Appendix F.5: Gymnasium's FrozenLake 8x8, slippery, gamma 0.99, 20000 x 200, 20 runs; " +
			"O-TempLe, Q-learning, RMax",
		Spec: frozenLake,
	},
	{
		Name: "taxi",
		Description: "Appendix F.5: Gymnasium's Taxi (Dietterich's 5x5, 500 states, 6 actions), gamma 0.99, " +
			"start drawn every episode, 10000 x 200, 20 runs; O-TempLe, Q-learning, RMax",
		Spec: taxi,
	},
	{
		Name: "riverswim",
		Description: "Appendix F.5 at the scale of the paper's curve: Strehl & Littman's RiverSwim, start drawn every episode, " +
			"4750 x 30, R_max 10000, 20 runs; O-TempLe, Q-learning, RMax",
		Spec: riverSwim,
	},
	{
		Name: "riverswim-long",
		Description: "Appendix F.5: Strehl & Littman's RiverSwim with long episodes, start drawn every episode, 2000 x 100, " +
			"R_max 10000, 20 runs; O-TempLe, Q-learning, RMax",
		Spec: riverSwimLong,
	},
	{
		Name: "classic-sequence",
		Description: "Appendix F.5: RiverSwim then SixArms, five times over (10 tasks, 6 and 7 states, 2 and 6 actions), " +
			"2000 x 100, R_max 10000, 20 runs; what templates carry from one environment to the other (CasinoLand is not defined here)",
		Spec: classicSequence,
	},
	{
		Name: "beyond",
		Description: "Beyond the paper: the online-maze setting (20 runs) with O-TempLe as published and with the options " +
			"retry (new templates deferred) and early_match 10 (provisional matches after 10 samples, checked at m_s), Q-learning, RMax",
		Spec: beyond,
	},
	{
		Name: "beyond-finite-model",
		Description: "Beyond the paper: the finite-model setting (20 runs) with FM-TempLe as published and with retry, " +
			"early_match 10 and template_transfer (the identified group passes on its library templates), FMRL, Q-learning, RMax",
		Spec: beyondFiniteModel,
	},
	{
		Name: "beyond-varying-actions",
		Description: "Beyond the paper: the varying-actions setting (20 runs) with O-TempLe as published, with retry, with " +
			"early_match 10, with both, and with the optimistic action rule, Q-learning, RMax: what closes the gap on the 8-action tasks",
		Spec: beyondVaryingActions,
	},
	{
		Name: "mountaincar",
		Description: "Beyond the paper (its future work): Gymnasium's MountainCar-v0 as a simulator, position and velocity in " +
			"20x20 uniform bins, gamma 0.99, 1000 episodes of its 200 steps, start drawn every episode, 10 runs; O-TempLe, " +
			"O-TempLe with refute, RMax, Q-learning with m 10, m_s 3, tau 0.05, r_max 0; oracle off (no true model)",
		Spec: mountainCarPreset,
	},
	{
		Name: "discretized",
		Description: "Beyond the paper (its future work): 3 MountainCar-v0 (20x20 bins) then 3 CartPole-v1 (3x3x6x6 bins) tasks, " +
			"each with other physics (gravity, force, pole mass), twice over: 12 simulator tasks, gamma 0.99, 300 episodes of " +
			"up to 500 steps, 20 runs; O-TempLe, O-TempLe with refute, RMax, Q-learning with m 10, m_s 3, tau 0.05, r_max 0; " +
			"oracle off",
		Spec: discretizedPreset,
	},
	{
		Name: "large-maze",
		Description: "Scale (not in the paper): 3 mazes of 100x100, then 3 of 250x250, landforms {0, 0.2, 0.4}, " +
			"start (1,1), goal (12,12), lava (2,2), 2000 x 100, 5 runs; O-TempLe and RMax with incremental planning, Q-learning; " +
			"oracle off",
		Spec: largeMaze,
	},
	{
		Name: "base-learners",
		Description: "Not in the paper: the online-maze setting (paper settings, 20 runs) with every base learner alone " +
			"and under O-TempLe: RMax, MBIE-EB, E3, UCRL2, PSRL (m 500, m_s 50 for all)",
		Spec: baseLearners,
	},
	{
		Name: "base-learners-riverswim",
		Description: "Not in the paper: Strehl & Littman's RiverSwim, 2000 x 100, 20 runs, with every base learner, " +
			"Q-learning and O-TempLe over RMax and PSRL; R_max 10 000 and rewards' priors on that scale",
		Spec: baseLearnersRiverSwim,
	},
	{
		Name: "lifelong",
		Description: "Not in the paper: lifelong learners on the online-maze setting (20 runs): O-TempLe as published and " +
			"with retry + early_match, FM-TempLe, LRMax (D_max 0.1), MaxQInit on RMax, PSRL, RMax",
		Spec: lifelong,
	},
	{
		Name:        "lifelong-finite-model",
		Description: "Not in the paper: the same lifelong learners on the finite-model setting (20 runs)",
		Spec:        lifelongFiniteModel,
	},
	{
		Name: "scaling",
		Description: "Theorem 1's law measured: exploring samples, steps and eps-mistakes of RMax, O-TempLe and " +
			"O-TempLe+retry+early on n x n online mazes, n = 4 ... 128 (G fixed), and on 16 x 16 mazes with 1 to 10 " +
			"landforms (G growing); m 50, m_s 5, 2 tasks, 2·m·S·A steps per task, 5 runs; scaling.csv and a log-log figure with fitted slopes",
		Spec: scaling,
	},
	{
		Name: "regime-map",
		Description: "Not in the paper: where templates pay against tuned single-task learners; online mazes of width 4 to 32 " +
			"and height 8 (128 to 1024 pairs, G fixed), tuned MBIE-EB, PSRL and RMax, C-UCRL, O-TempLe over MBIE-EB and RMax, 5 runs",
		Spec: regimeMap,
	},
	{
		Name: "terrain",
		Description: "Not in the paper: templates as a prior; 60 new 8x8 terrain grids (floor, ice, mud), PSRL, MBIE-EB " +
			"and RMax tuned on the family, template-prior over PSRL, and the true-templates headroom over each, 20 runs",
		Spec: terrain,
	},
	{
		Name: "tau-sweep",
		Description: "Figure 3(a): mean per-task reward of O-TempLe and RMax for tau from 0.01 to 1.9 on the online-maze " +
			"setting, 20 runs",
		Spec: tauSweep,
	},
}

// paper is a spec at the paper's common settings (Appendix F.1, decision 18).
func paper(name, family string, agents ...string) experiment.Spec {
	s := experiment.Default()
	s.Name = name
	s.Runs, s.Episodes, s.Steps = 20, 3000, 30
	s.Tasks = mustFamily(family)
	s.Agents = paperAgents(agents...)
	return s
}

func onlineMaze() experiment.Spec {
	return paper("online-maze", families.OnlineMaze, oTempLe, rmax, qLearning, absRL)
}

func finiteModelSpec(name string, agents ...string) experiment.Spec {
	return paper(name, families.FiniteModel, agents...)
}

// mustFamily is a built-in family with its default parameters.
func mustFamily(family string) families.Spec {
	t, err := families.New(family)
	if err != nil {
		panic(err) // a preset names a family that does not exist: a programming error
	}
	return t
}

// finiteModel shows the best Abs-RL and MaxQInit variants of finite-model-baselines, as the
// paper does: φ_{Q*} with Q-learning and MaxQInit on Delayed-Q (EXPERIMENTS.md).
func finiteModel() experiment.Spec {
	s := finiteModelSpec("finite-model", fmTempLe, qLearning, rmax, fmrl)
	abs := paperAgent(absRL)
	abs.Params.(*baseline.AbsRLParams).Kind = baseline.QStarExact
	maxq := paperAgent(maxQInitDelQ)
	maxq.Name = "MaxQInit"
	s.Agents = append(s.Agents, abs, maxq)
	return s
}

// absVariants are the three abstractions of Abs-RL on Q-learning (paper Appendix F.3).
func absVariants() []experiment.AgentSpec {
	var out []experiment.AgentSpec
	for _, v := range []struct {
		name string
		kind baseline.AbstractionKind
	}{{"Abs-RL-Qeps", baseline.QStarEpsilon}, {"Abs-RL-Qd", baseline.QStarDiscrete}, {"Abs-RL-Qstar", baseline.QStarExact}} {
		a := paperAgent(absRL)
		a.Name = v.name
		a.Params.(*baseline.AbsRLParams).Kind = v.kind
		out = append(out, a)
	}
	return out
}

func finiteModelBaselines() experiment.Spec {
	s := finiteModelSpec("finite-model-baselines", rmax, maxQInitQ, maxQInitDelQ, maxQInitRMax)
	s.Agents = append(s.Agents, absVariants()...)
	return s
}

func gammaSweep() experiment.Spec {
	s := finiteModelSpec("gamma-sweep", fmTempLe, fmrl, rmax)
	s.Sweep = []experiment.SweepParam{{Param: "model_gap", Values: experiment.Values(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8)}}
	return s
}

func varyingSize() experiment.Spec {
	s := paper("varying-size", families.VaryingSize, oTempLe, rmax)
	s.Start = experiment.StartFixed // decision 21: start (1,1)
	return s
}

func gaussian() experiment.Spec {
	return paper("gaussian", families.Gaussian, oTempLe, rmax, qLearning)
}

func varyingActions() experiment.Spec {
	return paper("varying-actions", families.VaryingActions, oTempLe, rmax, qLearning)
}

// largeMaze shows template transfer on mazes of 10 000 and 62 500 states: templates learned on
// the 100×100 mazes carry to the 250×250 ones, where a pair is known after m_s own samples instead
// of m. The goal is near the start so that an episode can reach it; exploring the rest of the maze
// is what the template learner saves. Planning is incremental: a full plan would sweep every state
// each time a pair becomes known. The oracle is off: solving every 250×250 task exactly for every
// agent would take several times as long as the agents themselves.
func largeMaze() experiment.Spec {
	s := paper("large-maze", families.Mixed, oTempLe, rmax, qLearning)
	s.Runs, s.Episodes, s.Steps = 5, 2000, 100
	s.Start = experiment.StartFixed // start_cell (1,1)
	s.Oracle.Enabled = false
	part := func(n int) families.Spec {
		t := mustFamily(families.OnlineMaze)
		maze := t.Params.(*families.OnlineMazeParams)
		maze.Width, maze.Height, maze.Tasks, maze.Pool = n, n, 3, 3
		maze.Goals = []env.Cell{{X: 12, Y: 12}}
		return t
	}
	s.Tasks.Params.(*families.MixedParams).Parts = []families.Spec{part(100), part(250)}
	for _, a := range s.Agents {
		if a.Type != qLearning {
			*planning(a.Params) = learners.PlanIncremental
		}
	}
	return s
}

func tauSweep() experiment.Spec {
	s := onlineMaze()
	s.Name = "tau-sweep"
	s.Agents = paperAgents(oTempLe, rmax)
	s.Sweep = []experiment.SweepParam{{Param: "tau", Values: experiment.Values(0.01, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8, 1.2, 1.9)}}
	return s
}

// DemoDescription says in one line what Demo shows.
const DemoDescription = "O-TempLe as published and with our retry + early_match options, against single-task " +
	"Q-learning and RMax, on 20 slippery 4x4 mazes that share transition templates"

// Demo is the built-in experiment of `temple run` without a config: experiment.Default's tasks, 5
// runs (so that the paired verdicts mean something), with the paper's O-TempLe, O-TempLe with the
// options of the beyond preset, Q-learning and RMax, each at its defaults otherwise. It finishes
// in a few seconds on two cores.
func Demo() experiment.Spec {
	s := experiment.Default()
	s.Name, s.Runs = "default", 5
	s.Agents = []experiment.AgentSpec{agent(oTempLe), beyondOptions(agent(oTempLe)), agent(qLearning), agent(rmax)}
	return s
}

// All lists the presets in a stable order.
func All() []Preset { return slices.Clone(presets) }

// Lookup returns the named preset.
func Lookup(name string) (Preset, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	var names []string
	for _, p := range presets {
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("no preset %q; the presets are %s%s", name, strings.Join(names, ", "), suggest.DidYouMean(name, names))
}
