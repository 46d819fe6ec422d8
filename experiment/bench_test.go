package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/continuous/mountaincar"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/stream"
)

// benchCells runs whole cells of spec through the runner (no disk) and reports steps per second
// per core: b.N cells, one after another on one goroutine. steps/cpu-s divides by the CPU time the
// process used instead of the wall time, which other work on a shared machine inflates.
func benchCells(b *testing.B, s Spec) {
	s.Output.Baseline = ""
	p, err := Build(s)
	if err != nil {
		b.Fatal(err)
	}
	steps := 0
	b.ResetTimer()
	cpu := cpuTime()
	for k := 0; k < b.N; k++ {
		res, err := runCell(context.Background(), p, results.At(b.TempDir()), 0, p.Agents[0], silent{})
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range res.Tasks {
			steps += t.Steps
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	if used := cpuTime() - cpu; used > 0 {
		b.ReportMetric(float64(steps)/used.Seconds(), "steps/cpu-s")
	}
}

// BenchmarkAgentsFiniteModel times every finite-model agent over 20 tasks (15 in phase 1) of the
// finite-model grid, 3000 × 30 steps each.
func BenchmarkAgentsFiniteModel(b *testing.B) {
	for _, typ := range []string{TypeFMTempLe, TypeFMRL, TypeDelayedQ, TypeMaxQInitDelayedQ, TypeAbsRL} {
		b.Run(typ, func(b *testing.B) {
			s := finiteModelSpec("bench", typ)
			s.Runs = 1
			s.Tasks.Params.(*families.FiniteModelParams).Tasks = 20
			benchCells(b, s)
		})
	}
}

// BenchmarkAgentsOnlineMaze times the online agents over 20 tasks of the online maze.
func BenchmarkAgentsOnlineMaze(b *testing.B) {
	for _, typ := range []string{TypeOTempLe, TypeRMax, TypeQLearning} {
		b.Run(typ, func(b *testing.B) {
			s := paper("bench", families.OnlineMaze, typ)
			s.Runs = 1
			s.Tasks.Params.(*families.OnlineMazeParams).Tasks = 20
			benchCells(b, s)
		})
	}
}

// scaleSpec is the online-maze setting of issue 10 on an n×n maze: one run of 2 tasks × episodes
// × 100 steps, landforms {0, 0.2, 0.4}, goal in the far corner, lava at (2,2), one agent at its
// defaults (incremental planning); the oracle is off, so the agent alone is timed.
func scaleSpec(typ string, n, episodes int) Spec {
	s := paper("scale", families.OnlineMaze, typ)
	s.Agents = []AgentSpec{defaultAgent(typ)}
	s.Runs, s.Episodes, s.Steps = 1, episodes, 100
	s.Oracle.Enabled = false
	t := s.Tasks.Params.(*families.OnlineMazeParams)
	t.Width, t.Height, t.Tasks, t.Pool = n, n, 2, 2
	t.Goals = []env.Cell{{X: n, Y: n}}
	return s
}

// BenchmarkScale times O-TempLe and RMax on growing mazes (issue 10) and reports steps per second
// and the bytes allocated per cell per state (S = n²).
func BenchmarkScale(b *testing.B) {
	for _, typ := range []string{TypeRMax, TypeOTempLe} {
		for _, n := range []int{4, 16, 64, 100, 250} {
			b.Run(fmt.Sprintf("%s/%d", typ, n), func(b *testing.B) {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				benchCells(b, scaleSpec(typ, n, 1000))
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(n*n), "B/state")
			})
		}
	}
}

// BenchmarkMaze100 times RMax and O-TempLe with each planning setting — delta (the default),
// incremental and the presets' full — on the 100×100 maze of BenchmarkScale with 10 000 episodes
// per task (issue 21's target: O-TempLe at 1 M steps/s or more, within 3× of RMax's time per
// step, with the defaults).
func BenchmarkMaze100(b *testing.B) {
	for _, c := range []struct {
		typ      string
		planning learners.Planning
	}{{TypeRMax, learners.PlanDelta}, {TypeOTempLe, learners.PlanDelta}, {TypeRMax, learners.PlanIncremental}, {TypeOTempLe, learners.PlanIncremental}, {TypeRMax, learners.PlanFull}, {TypeOTempLe, learners.PlanFull}} {
		b.Run(c.typ+"/"+string(c.planning), func(b *testing.B) {
			s := scaleSpec(c.typ, 100, 10_000)
			s.Agents[0].mustSet("planning", c.planning)
			benchCells(b, s)
		})
	}
}

// BenchmarkFamilies times RMax and O-TempLe through the runner on one task of the classic and
// toy-text families at their presets' settings (package presets: riverswim-long, frozenlake,
// taxi) with 1000 episodes, with each planning setting (delta is the default, full the presets').
// Episodes that reach a terminal state end early; steps/s counts the steps actually taken.
func BenchmarkFamilies(b *testing.B) {
	for _, f := range []struct {
		preset string
		spec   func() Spec
	}{
		{"riverswim-long", func() Spec {
			s := paper("riverswim-long", families.RiverSwim)
			s.Steps, s.Start = 100, StartPerEpisode
			return s
		}},
		{"frozenlake", func() Spec {
			s := paper("frozenlake", families.FrozenLake)
			s.Steps, s.Gamma = 200, 0.99
			fl := s.Tasks.Params.(*families.FrozenLakeParams)
			fl.Map, fl.Slippery = "8x8", true
			return s
		}},
		{"taxi", func() Spec {
			s := paper("taxi", families.Taxi)
			s.Steps, s.Gamma, s.Start = 200, 0.99, StartPerEpisode
			return s
		}},
	} {
		for _, typ := range []string{TypeRMax, TypeOTempLe} {
			for _, planning := range []learners.Planning{learners.PlanDelta, learners.PlanIncremental, learners.PlanFull} {
				b.Run(f.preset+"/"+typ+"/"+string(planning), func(b *testing.B) {
					s := f.spec()
					s.Runs, s.Episodes, s.Agents = 1, 1000, paperAgents(typ)
					s.Agents[0].mustSet("planning", planning)
					benchCells(b, s)
				})
			}
		}
	}
}

// BenchmarkOracleOverhead times O-TempLe on 20 tasks of the online maze through the runner with
// the oracle off and on (finite-horizon and discounted optimum per task, ε-mistakes and the
// regret decomposition at every step), and on with Kakade's ε-mistakes (a policy evaluation at
// every policy change).
func BenchmarkOracleOverhead(b *testing.B) {
	for _, c := range []struct {
		name           string
		oracle, policy bool
	}{{"off", false, false}, {"on", true, false}, {"policy_mistakes", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			s := paper("bench", families.OnlineMaze, TypeOTempLe)
			s.Runs = 1
			s.Tasks.Params.(*families.OnlineMazeParams).Tasks = 20
			s.Oracle.Enabled, s.Oracle.PolicyMistakes = c.oracle, c.policy
			benchCells(b, s)
		})
	}
}

// randomLearner acts uniformly at random and learns nothing: it leaves the runner and the
// simulator alone in a benchmark.
type randomLearner struct{ rng *rand.Rand }

func (r *randomLearner) BeginTask(t agent.Task) error   { r.rng = t.Rand; return nil }
func (r *randomLearner) Act(int) int                    { return r.rng.IntN(3) }
func (r *randomLearner) Observe(int, int, float64, int) {}
func (r *randomLearner) ObserveTerminal(int)            {}
func (r *randomLearner) EndEpisode()                    {}
func (r *randomLearner) EndTask()                       {}

// BenchmarkSimulatorRunner times the runner on discretized MountainCar-v0 (20×20 bins, its
// 200-step time limit) with a learner that does no work: the cost of a simulator step through
// runCell — Act, the simulator's reset and step (MountainCar's physics and the binning), and
// Observe. 10 tasks of 100 episodes per cell.
func BenchmarkSimulatorRunner(b *testing.B) {
	s := Default()
	s.Start, s.Oracle.Enabled = StartPerEpisode, false
	lo, hi, _ := env.DefaultBounds(env.KindMountainCar)
	def := env.MountainCar{Params: mountaincar.DefaultParams(), Discretization: env.Discretization{Bins: []int{20}, Low: lo, High: hi}}
	task, err := simulatorTask(s, def)
	if err != nil {
		b.Fatal(err)
	}
	tasks := make([]Task, 10)
	for k := range tasks {
		tasks[k] = task
	}
	p := &Plan{Seed: 1, Episodes: 100, Steps: 1000, Gamma: 0.95, Start: StartPerEpisode, Runs: [][]Task{tasks},
		Agents: []AgentFactory{{Name: "random", New: func(RunContext) (agent.Agent, error) { return &randomLearner{}, nil }}}}
	steps := 0
	cpu := cpuTime()
	for b.Loop() {
		res, err := runCell(context.Background(), p, results.At(b.TempDir()), 0, p.Agents[0], silent{})
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range res.Tasks {
			steps += t.Steps
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	if used := cpuTime() - cpu; used > 0 {
		b.ReportMetric(float64(steps)/used.Seconds(), "steps/cpu-s")
	}
}

// largeMazeSpec is the default experiment (3 runs of O-TempLe, RMax and Q-learning with the
// oracle on) on 2 n×n mazes of 10 episodes × 10 steps: the cost of everything but the agents'
// steps — task models, task setup and the oracle — at scale (issue 21).
func largeMazeSpec(n int) Spec {
	s := Default()
	s.Name = fmt.Sprintf("maze-%d", n)
	s.Episodes, s.Steps = 10, 10
	t := s.Tasks.Params.(*families.OnlineMazeParams)
	t.Width, t.Height, t.Tasks = n, n, 2
	return s
}

// BenchmarkLargeMaze runs the whole experiment of largeMazeSpec on both cores (Execute: build,
// cells, results) and reports its wall and CPU seconds, the memory estimate the runner checks,
// and the peak resident memory of the process during the run (Linux). Run it alone: -bench LargeMaze/2000
// -benchtime 1x.
func BenchmarkLargeMaze(b *testing.B) {
	for _, n := range []int{250, 500, 1000, 2000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := largeMazeSpec(n)
			seqs := make([]env.Sequence, s.Runs)
			for run := range seqs {
				var err error
				if seqs[run], err = s.Tasks.Params.Sequence(run, stream.New(s.Seed, run, "", 0, stream.Sequence)); err != nil {
					b.Fatal(err)
				}
			}
			resetPeakRSS()
			b.ResetTimer()
			cpu := cpuTime()
			for k := 0; k < b.N; k++ {
				if _, err := Execute(context.Background(), s, b.TempDir(), 2, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/experiment")
			b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/experiment")
			b.ReportMetric(float64(s.memory().Estimate(s.memory().Known(seqs)).Total())/(1<<20), "estimate-MB")
			if peak := peakRSS(); peak > 0 {
				b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
			}
		})
	}
}

// fastLearnersConfig is issue 38's configuration on an n×n online maze: 4 mazes (lava at the
// 10×10 cells (5,5), (3,7), (7,3), scaled with n; goal in the far corner), 300 episodes × 60
// steps, one run, the oracle off, seed 3, every strong learner at its defaults, the tuned MBIE-EB,
// both MBIE-EBs with the planner before delta planning (planning: full), PSRL on each schedule
// and prior support, and PSRL and O-TempLe over it with redraw: changed; the first agent, RMax,
// is the reference.
func fastLearnersConfig(n int) string {
	at := func(k int) int { return max(1, (k*n+5)/10) }
	return fmt.Sprintf(`name: fast-learners
seed: 3
runs: 1
episodes: 300
steps: 60
oracle:
  enabled: false
tasks:
  family: online-maze
  width: %[1]d
  height: %[1]d
  count: 4
  pool: 4
  goals: [[%[1]d, %[1]d]]
  lava: [[%[2]d, %[2]d], [%[3]d, %[4]d], [%[4]d, %[3]d]]
agents:
  - type: rmax
  - type: q-learning
  - type: mbie-eb
  - type: mbie-eb
    name: MBIE-EB-m10
    beta: 0.8
    m: 10
  - type: mbie-eb
    name: MBIE-EB-tol0.01
    plan_tolerance: 0.01
  - type: mbie-eb
    name: MBIE-EB-m10-tol0.01
    beta: 0.8
    m: 10
    plan_tolerance: 0.01
  - type: mbie-eb
    name: MBIE-EB-full
    planning: full
  - type: mbie-eb
    name: MBIE-EB-m10-full
    beta: 0.8
    m: 10
    planning: full
  - type: psrl
  - type: psrl
    name: PSRL-tsde
    schedule: tsde
  - type: psrl
    name: PSRL-obs
    prior_support: observed
  - type: psrl
    name: PSRL-obs-tsde
    prior_support: observed
    schedule: tsde
  - type: psrl
    name: PSRL-changed
    redraw: changed
  - type: psrl
    name: PSRL-tsde-changed
    schedule: tsde
    redraw: changed
  - type: ucrl2
  - type: c-ucrl
  - type: c-ucrl
    name: C-UCRL-doubling
    recluster: doubling
  - type: e3
  - type: o-temple
  - type: o-temple
    name: OT-MBIE
    base: mbie-eb
  - type: o-temple
    name: OT-PSRL
    base: psrl
  - type: o-temple
    name: OT-PSRL-changed
    base: psrl
    redraw: changed
`, n, at(5), at(3), at(7))
}

// stepLoop acts uniformly at random and learns nothing: a cell of it is the runner's and the
// maze's cost alone, the step limit of every learner.
type stepLoop struct {
	rng *rand.Rand
	A   int
}

func (r *stepLoop) BeginTask(t agent.Task) error   { r.rng, r.A = t.Rand, t.A; return nil }
func (r *stepLoop) Act(int) int                    { return r.rng.IntN(r.A) }
func (r *stepLoop) Observe(int, int, float64, int) {}
func (r *stepLoop) ObserveTerminal(int)            {}
func (r *stepLoop) EndEpisode()                    {}
func (r *stepLoop) EndTask()                       {}

// BenchmarkFastLearners times each learner of fastLearnersConfig at 10×10, 24×24 and 32×32
// through the runner (issue 38). Every iteration runs three cells one after another on one
// goroutine — RMax's, the learner's and the step loop's — and the benchmark reports the learner's
// steps per second and its time per step as a multiple of RMax's (x-rmax) and of the step loop's
// (x-steploop), both measured in the same iterations, so that the machine's load cancels.
func BenchmarkFastLearners(b *testing.B) {
	for _, n := range []int{10, 24, 32} {
		s, err := Parse([]byte(fastLearnersConfig(n)))
		if err != nil {
			b.Fatal(err)
		}
		s.Output.Baseline = ""
		p, err := Build(s)
		if err != nil {
			b.Fatal(err)
		}
		loop := AgentFactory{Name: "step-loop", New: func(RunContext) (agent.Agent, error) { return &stepLoop{}, nil }}
		for _, fac := range p.Agents[1:] {
			b.Run(fmt.Sprintf("%dx%d/%s", n, n, fac.Name), func(b *testing.B) {
				var own, ref, bare time.Duration
				steps := 0
				timed := func(f AgentFactory) time.Duration {
					began := time.Now()
					res, err := runCell(context.Background(), p, results.At(b.TempDir()), 0, f, silent{})
					if err != nil {
						b.Fatal(err)
					}
					if f.Name == fac.Name {
						for _, t := range res.Tasks {
							steps += t.Steps
						}
					}
					return time.Since(began)
				}
				for b.Loop() {
					ref += timed(p.Agents[0])
					own += timed(fac)
					bare += timed(loop)
				}
				b.ReportMetric(float64(steps)/own.Seconds(), "steps/s")
				b.ReportMetric(own.Seconds()/ref.Seconds(), "x-rmax")
				b.ReportMetric(own.Seconds()/bare.Seconds(), "x-steploop")
			})
		}
	}
}
