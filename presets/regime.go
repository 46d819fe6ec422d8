package presets

// The regime map (docs/experiments/regime-map.md): where templates pay against the strongest
// single-task learners, tuned, as the number of state-action pairs grows.

import (
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/temple"
)

// Regime-map settings chosen at the design seed 101 (examples/tuned-baselines,
// docs/experiments/regime-map.md); the preset reports seed 1 and the judgements use other seeds.
const (
	regimeBeta     = 0.4 // MBIE-EB's β, best of 0.05 … 0.8 with no cap on 10×10 mazes
	regimeRMaxM    = 5   // RMax's m, best of 2 … 50 on 10×10 mazes
	regimeTempleM  = 20  // O-TempLe over RMax: the base's m …
	regimeTempleMs = 5   // … and m_s (the O-TempLe setting that matched RMax m = 5)
	// MBIE-EB tuned on the map's own mazes: of β 0.2 … 1.6 and caps m 0 … 10 at every width, β 0.8
	// with m 10 is within 70 a task of each width's best (mbie-eb-regime-pairs.yaml).
	regimeTunedBeta = 0.8
	regimeTunedM    = 10
)

// regimeMap runs online mazes of width 4 to 128 and height 8 (128 to 4096 pairs, the pairs of
// 32×32) with the same landforms {0, 0.2, 0.4} (G fixed), the goal at (4,8) and lava at (2,4):
// a wider maze only adds cells to explore, and every task starts at (1,1), so the optimal path
// is the same at every width and the points differ in the number of pairs alone. At
// every width the tuned single-task learners MBIE-EB (tuned on 10×10 mazes, and on these mazes
// with a cap: the baseline) and RMax run beside C-UCRL and O-TempLe over each, 8 tasks of 150
// episodes × 60 steps, 5 runs. PSRL, tuned (prior_support observed,
// TSDE), stayed far below MBIE-EB on the design sweeps and in a first run of this map at widths
// 4 to 32, and its dense solve (O(S³) a draw) is what would not fit 15 minutes: it is left out.
func regimeMap() experiment.Spec {
	s := experiment.Default()
	s.Name = "regime-map"
	s.Runs, s.Episodes, s.Steps = 5, 150, 60
	s.Start, s.StartCell = experiment.StartFixed, [2]int{1, 1} // the optimal path is the same at every width
	c := s.Tasks.Params.(*families.OnlineMazeParams)
	c.Width, c.Height, c.Tasks, c.Pool = 4, 8, 8, 8
	c.Goals = []env.Cell{{X: 4, Y: 8}}
	c.Lava = []env.Cell{{X: 2, Y: 4}}

	// MBIE-EB with β b and a cap m (0: none), and RMax with m m, with the planner the map's
	// results were recorded with (full).
	mbie := func(b float64, m int64) experiment.AgentSpec {
		a := paperAgent(mbieEB)
		p := mbieOf(a.Params)
		p.Beta, p.M = b, m
		return a
	}
	rmaxM := func(m int64) experiment.AgentSpec {
		a := paperAgent(rmax)
		rmaxOf(a.Params).M = m
		return a
	}
	// O-TempLe over base with m_s regimeTempleMs, and the options retry and early_match 2 (as the
	// scaling preset's, below m_s) if early.
	over := func(base experiment.AgentSpec, early bool) experiment.AgentSpec {
		a := overBase(base)
		o := a.Params.(*temple.OTempLeSpec)
		o.SetMs(regimeTempleMs)
		if early {
			a.Name += "+retry+early"
			o.Retry, o.EarlyMatch = true, 2
		}
		return a
	}

	tuned := mbie(regimeTunedBeta, regimeTunedM)
	tuned.Name = "MBIE-EB(beta0.8 m10)"
	rm := rmaxM(regimeRMaxM)
	rm.Name = "RMax(m5)"
	cu := agent(cucrl)
	*rMaxOf(cu.Params) = 2 // the mazes' rewards span [−1, 1]
	overTuned := over(mbie(regimeTunedBeta, regimeTunedM), false)
	overTuned.Name = "O-TempLe-MBIE-EB(beta0.8 m10)"
	overRMax := over(rmaxM(regimeTempleM), true)
	overRMax.Name = "O-TempLe-RMax(m20 m_s5)+retry+early"
	s.Agents = []experiment.AgentSpec{tuned, mbie(regimeBeta, 0), rm, cu, overTuned,
		over(mbie(regimeBeta, 0), false), over(mbie(regimeBeta, 0), true), overRMax}
	s.Output.Baseline = tuned.Name
	s.Sweep = []experiment.SweepParam{{Param: "tasks.width", Values: experiment.Values(4, 8, 16, 32, 64, 128)}}
	return s
}
