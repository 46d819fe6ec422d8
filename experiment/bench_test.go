package experiment

import (
	"context"
	"testing"
)

// benchCells runs whole cells of spec through the runner (no disk) and reports steps per second
// per core: b.N cells, one after another on one goroutine.
func benchCells(b *testing.B, s Spec) {
	s.Output.Baseline = ""
	p, err := Build(s)
	if err != nil {
		b.Fatal(err)
	}
	steps := 0
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		res, err := runCell(context.Background(), p, b.TempDir(), 0, p.Agents[0], silent{})
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range res.Tasks {
			steps += t.Steps
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkAgentsFiniteModel times every finite-model agent over 20 tasks (15 in phase 1) of the
// finite-model grid, 3000 × 30 steps each.
func BenchmarkAgentsFiniteModel(b *testing.B) {
	for _, typ := range []string{TypeFMTempLe, TypeFMRL, TypeDelayedQ, TypeMaxQInitDelayedQ, TypeAbsRL} {
		b.Run(typ, func(b *testing.B) {
			s := finiteModelSpec("bench", typ)
			s.Runs = 1
			s.Tasks.Params.(*finiteModelTasks).Tasks = 20
			benchCells(b, s)
		})
	}
}

// BenchmarkAgentsOnlineMaze times the online agents over 20 tasks of the online maze.
func BenchmarkAgentsOnlineMaze(b *testing.B) {
	for _, typ := range []string{TypeOTempLe, TypeRMax, TypeQLearning} {
		b.Run(typ, func(b *testing.B) {
			s := paper("bench", FamilyOnlineMaze, typ)
			s.Runs = 1
			s.Tasks.Params.(*onlineMazeTasks).Tasks = 20
			benchCells(b, s)
		})
	}
}

// BenchmarkFamilies times RMax and O-TempLe through the runner on one task of the classic and
// toy-text families at their presets' episode lengths (1000 episodes). Episodes that reach a
// terminal state end early; steps/s counts the steps actually taken.
func BenchmarkFamilies(b *testing.B) {
	for _, preset := range []string{"frozenlake", "taxi"} {
		for _, typ := range []string{TypeRMax, TypeOTempLe} {
			b.Run(preset+"/"+typ, func(b *testing.B) {
				p, err := LookupPreset(preset)
				if err != nil {
					b.Fatal(err)
				}
				s := p.Spec()
				s.Runs, s.Episodes, s.Agents = 1, 1000, paperAgents(typ)
				benchCells(b, s)
			})
		}
	}
}

// BenchmarkOracleOverhead times O-TempLe on 20 tasks of the online maze through the runner with
// the oracle off and on (finite-horizon and discounted optimum per task, ε-mistakes and the
// regret decomposition at every step).
func BenchmarkOracleOverhead(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			s := paper("bench", FamilyOnlineMaze, TypeOTempLe)
			s.Runs = 1
			s.Tasks.Params.(*onlineMazeTasks).Tasks = 20
			s.Oracle.Enabled = on
			benchCells(b, s)
		})
	}
}
