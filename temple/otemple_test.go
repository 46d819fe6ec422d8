package temple

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

// randomMaze is a 4×4 maze of the online setting: slips from {0, 0.2, 0.4}, goal (4,4), lava (2,2).
func randomMaze(t *testing.T, rng *rand.Rand) *mdp.Model {
	t.Helper()
	slip := make([]float64, 16)
	for i := range slip {
		slip[i] = []float64{0, 0.2, 0.4}[rng.IntN(3)]
	}
	mz := env.Maze{Width: 4, Height: 4, Slip: slip, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
		StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// playTask runs one task of episodes×30 steps from a random start cell and returns its reward.
func playTask(t *testing.T, ag agent.Agent, m *mdp.Model, k, episodes int, rng *rand.Rand) float64 {
	t.Helper()
	if err := ag.BeginTask(agent.Task{Index: k, S: m.S, A: m.A, Gamma: 0.95, Rand: rng, Truth: m}); err != nil {
		t.Fatal(err)
	}
	start, total := m.SampleStart(rng), 0.0
	for e := 0; e < episodes; e++ {
		s := start
		for step := 0; step < 30; step++ {
			a := ag.Act(s)
			next, r := m.Step(s, a, rng)
			ag.Observe(s, a, r, next)
			total += r
			s = next
		}
		ag.EndEpisode()
	}
	ag.EndTask()
	return total
}

func smallParams() Params {
	p := DefaultParams()
	p.Ms, p.RMax.M = 20, 100
	return p
}

// TestNoSampleCountedTwice checks decision 7: after every task the library holds exactly the own
// samples of the pairs that were identified, each once, with and without consolidation, and with
// Retry (which identifies the pairs still deferred at the end of the task).
func TestNoSampleCountedTwice(t *testing.T) {
	for _, c := range []struct{ consolidate, retry bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		consolidate := c.consolidate
		p := smallParams()
		p.Consolidate, p.Retry = c.consolidate, c.retry
		o, err := NewOTempLe(p)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		var given int64
		for k := 0; k < 6; k++ {
			m := randomMaze(t, rng)
			if err := o.BeginTask(agent.Task{Index: k, S: m.S, A: m.A, Gamma: 0.95, Rand: rng, Truth: m}); err != nil {
				t.Fatal(err)
			}
			s := m.SampleStart(rng)
			for step := 0; step < 6000; step++ {
				a := o.Act(s)
				next, r := m.Step(s, a, rng)
				i := s*m.A + a
				ownBefore, nBefore := o.own[i], o.l.N(i)
				o.Observe(s, a, r, next)
				if ownBefore == p.Ms-1 && o.own[i] == p.Ms && o.l.N(i) != nBefore+1 {
					// Augmented at this step: own m_s samples plus what others gave the template.
					tm := o.lib.Get(o.tmplOf(i))
					if got, want := o.l.N(i), tm.N(); got != want {
						t.Fatalf("task %d pair %d: estimate has %d samples, want own %d + others %d = %d",
							k, i, got, p.Ms, want-p.Ms, want)
					}
				}
				s = next
			}
			o.EndTask()
			for i, k := range o.ident {
				if k >= 0 {
					given += o.own[i]
				} else if o.own[i] >= p.Ms {
					t.Fatalf("retry=%v task %d: pair %d has %d own samples but no template", c.retry, k, i, o.own[i])
				}
			}
			if got := o.lib.TotalVisits(); got != given {
				t.Fatalf("consolidate=%v retry=%v task %d: library holds %d visits, identified pairs sampled %d", consolidate, c.retry, k, got, given)
			}
		}
		if given == 0 {
			t.Fatal("no pair was ever identified")
		}
	}
}

// TestIdenticalTasksNeedFewerSamples: when every task is the first one again, O-TempLe explores
// with far fewer own samples from the second task on, because most pairs become known as soon as
// their template is identified.
func TestIdenticalTasksNeedFewerSamples(t *testing.T) {
	o, err := NewOTempLe(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	m := randomMaze(t, rng)
	var needed []float64
	for k := 0; k < 4; k++ {
		playTask(t, o, m, k, 3000, rng)
		for _, x := range o.TaskMetrics() {
			if x.Name == "samples_recorded" {
				needed = append(needed, x.Value)
			}
		}
	}
	t.Logf("own samples recorded per task: %v", needed)
	if needed[0] <= 0 {
		t.Fatalf("the first task recorded no sample")
	}
	// RMax would record m own samples of every pair in every task: m·S·A = 32 000.
	for k, n := range needed[1:] {
		if n > needed[0]*2/3 || n > 500*64/2 {
			t.Errorf("task %d recorded %v own samples; want at most 2/3 of the first task's %v and half of RMax's 32000",
				k+2, n, needed[0])
		}
	}
}

func TestParamsValidate(t *testing.T) {
	p := DefaultParams()
	p.Ms = 600
	if err := p.Validate(); err == nil {
		t.Error("m_s > m accepted")
	}
	p = DefaultParams()
	p.Tau = -0.1
	if _, err := NewOTempLe(p); err == nil {
		t.Error("negative tau accepted")
	}
}

// TestRetryDefersNewTemplates: with Retry a pair whose m_s samples match no template is not made a
// template at once; deferred pairs are identified later, and more pairs become known through a
// matched template than without Retry, on tasks drawn from the same seed.
func TestRetryDefersNewTemplates(t *testing.T) {
	metrics := func(retry bool) (deferred, early float64) {
		p := DefaultParams()
		p.Retry = retry
		o, err := NewOTempLe(p)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 3))
		for k := 0; k < 6; k++ {
			playTask(t, o, randomMaze(t, rng), k, 1000, rng)
			for _, x := range o.TaskMetrics() {
				switch x.Name {
				case "deferred_identifications":
					deferred += x.Value
				case "known_early_pairs":
					early += x.Value
				}
			}
		}
		return deferred, early
	}
	deferred, early := metrics(true)
	_, paperEarly := metrics(false)
	if deferred == 0 || early <= paperEarly {
		t.Errorf("retry: %v deferred identifications, %v pairs known early (paper rule %v)", deferred, early, paperEarly)
	}
}
