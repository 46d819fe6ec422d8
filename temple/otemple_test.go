package temple

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
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
	loop := agenttest.Loop{Agent: ag, Task: m, Rand: rng, AfterStep: func(_, _ int, r float64, _ int) { total += r }}
	for range episodes {
		loop.Episode(start, 30)
	}
	ag.EndTask()
	return total
}

// smallParams are O-TempLe's parameters with m_s = 20; the tests run them over rmaxBase(100).
func smallParams() Params {
	p := DefaultParams()
	p.Ms = 20
	return p
}

// rmaxBase is the paper's RMax base learner with known threshold m.
func rmaxBase(m int64) agent.Base {
	p := learners.DefaultRMax()
	p.M = m
	l, err := learners.NewRMax(p)
	if err != nil {
		panic(err)
	}
	return l
}

// TestNoSampleCountedTwice checks decision 7: after every task the library holds exactly the own
// samples of the pairs that were identified, each once, with and without consolidation, and with
// Retry (which identifies the pairs still deferred at the end of the task).
func TestNoSampleCountedTwice(t *testing.T) {
	for _, c := range []struct {
		consolidate, retry bool
		early              int64
	}{{false, false, 0}, {true, false, 0}, {false, true, 0}, {true, true, 0}, {true, false, 5}, {true, true, 5}} {
		consolidate := c.consolidate
		p := smallParams()
		p.Consolidate, p.Retry, p.EarlyMatch = c.consolidate, c.retry, c.early
		o, err := NewOTempLe(p, rmaxBase(100))
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
				ownBefore, nBefore := o.own.At(i), o.st.Counts().N(i)
				o.Observe(s, a, r, next)
				if ownBefore == p.Ms-1 && o.own.At(i) == p.Ms && o.st.Counts().N(i) != nBefore+1 && c.early == 0 {
					// Augmented at this step: own m_s samples plus what others gave the template.
					tm := o.lib.Get(o.tmplOf(i))
					if got, want := o.st.Counts().N(i), tm.N(); got != want {
						t.Fatalf("task %d pair %d: estimate has %d samples, want own %d + others %d = %d",
							k, i, got, p.Ms, want-p.Ms, want)
					}
				}
				s = next
			}
			o.EndTask()
			for i := range o.ident.Len() {
				if o.ident.At(i) >= 0 {
					given += o.own.At(i)
				} else if o.own.At(i) >= p.Ms {
					t.Fatalf("retry=%v task %d: pair %d has %d own samples but no template", c.retry, k, i, o.own.At(i))
				}
			}
			if got := o.lib.TotalVisits(); got != given {
				t.Fatalf("consolidate=%v retry=%v early_match=%d task %d: library holds %d visits, identified pairs sampled %d", consolidate, c.retry, c.early, k, got, given)
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
	o, err := NewOTempLe(DefaultParams(), rmaxBase(500))
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
	if err := p.Validate(500); err == nil {
		t.Error("m_s > m accepted")
	}
	p = DefaultParams()
	p.Tau = -0.1
	if _, err := NewOTempLe(p, rmaxBase(500)); err == nil {
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
		o, err := NewOTempLe(p, rmaxBase(500))
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

// earlyMatchAgent is O-TempLe with EarlyMatch 5, m_s 20, m 100, whose library holds one
// deterministic template (r = −0.2, 1 000 visits), on a task of 4 states and 1 action.
func earlyMatchAgent(t *testing.T) (*OTempLe, int) {
	t.Helper()
	p := smallParams()
	p.EarlyMatch = 5
	o, err := NewOTempLe(p, rmaxBase(100))
	if err != nil {
		t.Fatal(err)
	}
	id := o.lib.Add([]template.Count{{Rank: 0, N: 1000}}, -200).ID
	if err := o.BeginTask(agent.Task{S: 4, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	// Pair 0 moves to state 1 five times: the template matches, and 1 000 + 5 ≥ m makes it known.
	for range 5 {
		o.Observe(0, 0, -0.2, 1)
	}
	if !o.st.Known(0) || o.st.Counts().N(0) != 1005 || o.early.tmpl.At(0) != int32(id) || o.tmplOf(0) >= 0 {
		t.Fatalf("after 5 samples: known %v, n %d, provisional %d, identified %d; want known, 1005, %d, none",
			o.st.Known(0), o.st.Counts().N(0), o.early.tmpl.At(0), o.tmplOf(0), id)
	}
	return o, id
}

// TestEarlyMatchConfirmed: own samples that keep agreeing confirm the provisional template at
// m_s; the estimate is not augmented twice and the template receives the m_s own samples.
func TestEarlyMatchConfirmed(t *testing.T) {
	o, id := earlyMatchAgent(t)
	for range o.p.Ms - 5 {
		o.Observe(0, 0, -0.2, 1)
	}
	if o.tmplOf(0) != id || o.st.Counts().N(0) != 1005 || o.lib.Get(id).N() != 1000+o.p.Ms || o.early.withdrawn != 0 {
		t.Errorf("at m_s: template %d, n %d, template visits %d, withdrawn %d; want %d, 1005, %d, 0",
			o.tmplOf(0), o.st.Counts().N(0), o.lib.Get(id).N(), o.early.withdrawn, id, 1000+o.p.Ms)
	}
}

// TestEarlyMatchWithdrawn: own samples that disagree with the provisional template withdraw it
// at m_s: the pair is left its m_s own samples, unknown again, and becomes a new template.
func TestEarlyMatchWithdrawn(t *testing.T) {
	o, id := earlyMatchAgent(t)
	for k := range o.p.Ms - 5 {
		o.Observe(0, 0, -0.2, 1+int(k%3)) // a three-way split: no template within τ̂
	}
	switch {
	case o.st.Known(0) || o.st.Counts().N(0) != o.p.Ms:
		t.Errorf("at m_s: known %v with %d samples, want unknown with its %d own", o.st.Known(0), o.st.Counts().N(0), o.p.Ms)
	case o.early.withdrawn != 1 || o.augmented[0]:
		t.Errorf("withdrawn %d, augmented %v; want 1, false", o.early.withdrawn, o.augmented[0])
	case o.tmplOf(0) == id || o.lib.Len() != 2 || o.lib.Get(id).N() != 1000:
		t.Errorf("identified as template %d of %d, provisional template holds %d; want a new template, 1000",
			o.tmplOf(0), o.lib.Len(), o.lib.Get(id).N())
	}
}

// TestEarlyMatchNeedsFewerSamples: on identical tasks, a library that knows every template lets
// EarlyMatch make pairs known after a handful of own samples instead of m_s.
func TestEarlyMatchNeedsFewerSamples(t *testing.T) {
	samples := func(early int64) float64 {
		p := DefaultParams()
		p.Retry, p.EarlyMatch = true, early
		o, err := NewOTempLe(p, rmaxBase(500))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(2, 2))
		m := randomMaze(t, rng)
		var last float64
		for k := 0; k < 4; k++ {
			playTask(t, o, m, k, 1000, rng)
			for _, x := range o.TaskMetrics() {
				if x.Name == "samples_recorded" {
					last = x.Value
				}
			}
		}
		return last
	}
	paper, early := samples(0), samples(10)
	if !(early < paper/2) {
		t.Errorf("own samples recorded in the 4th identical task: %v with early_match 10, %v without; want under half", early, paper)
	}
}

// refuteAgent has a library holding one pure self-loop template of 1 000 visits, and pair 0 of a
// 4-state task matched to it after m_s self-loops: known at once, with no exit in its estimate.
func refuteAgent(t *testing.T, refute bool) *OTempLe {
	t.Helper()
	p := smallParams()
	p.Refute = refute
	o, err := NewOTempLe(p, rmaxBase(100))
	if err != nil {
		t.Fatal(err)
	}
	o.lib.Add([]template.Count{{Rank: 0, N: 1000}}, -200)
	if err := o.BeginTask(agent.Task{S: 4, A: 1, Gamma: 0.95, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
		t.Fatal(err)
	}
	for range o.p.Ms {
		o.Observe(0, 0, -0.2, 0)
	}
	if !o.st.Known(0) || o.st.Counts().N(0) != 1000+o.p.Ms || o.tmplOf(0) < 0 {
		t.Fatalf("after m_s self-loops: known %v, n %d, template %d; want known, %d, matched",
			o.st.Known(0), o.st.Counts().N(0), o.tmplOf(0), 1000+o.p.Ms)
	}
	return o
}

// TestRefuteWithdrawsAMatchAStepContradicts: a step to a state the augmented estimate gives
// probability zero leaves the pair exactly its steps of the task — m_s self-loops and this exit —
// unknown and unidentified; the template keeps only what it had (its 1 000 and the m_s given at
// identification), and the pair is not matched to it again. Without Refute the step is ignored.
func TestRefuteWithdrawsAMatchAStepContradicts(t *testing.T) {
	o := refuteAgent(t, true)
	tmpl := o.tmplOf(0)
	o.Observe(0, 0, -1, 2)
	succ := o.st.Counts().Successors(0)
	want := []mdp.Succ{{State: 0, N: o.p.Ms}, {State: 2, N: 1}}
	reward := 0.0 // summed step by step, as the counts sum it
	for range o.p.Ms {
		reward += -0.2
	}
	reward += -1
	switch {
	case o.st.Known(0) || !slices.Equal(succ, want) || o.st.Counts().R(0) != reward:
		t.Errorf("after the exit: known %v, successors %v, reward %v; want unknown, %v, %v",
			o.st.Known(0), succ, o.st.Counts().R(0), want, reward)
	case o.tmplOf(0) >= 0 || o.refutes.refuted != 1:
		t.Errorf("identified as %d, refuted %d; want none, 1", o.tmplOf(0), o.refutes.refuted)
	}
	// Further steps are the pair's own samples until m = 100; the template gets nothing more.
	for range 100 {
		o.Observe(0, 0, -0.2, 0)
	}
	o.EndTask()
	if got := o.lib.Get(tmpl).N(); got != 1000+o.p.Ms {
		t.Errorf("the refuted template holds %d visits, want %d", got, 1000+o.p.Ms)
	}
	if !o.st.Known(0) || o.st.Counts().N(0) != 100 || o.refutes.refuted != 1 {
		t.Errorf("known %v with %d samples, refuted %d; want known by its own 100, refuted once",
			o.st.Known(0), o.st.Counts().N(0), o.refutes.refuted)
	}

	// A step the estimate allows (the self-loop) refutes nothing, and without Refute nothing is.
	for _, refute := range []bool{true, false} {
		o := refuteAgent(t, refute)
		o.Observe(0, 0, -0.2, 0)
		if !refute {
			o.Observe(0, 0, -1, 2)
		}
		if !o.st.Known(0) || o.st.Counts().N(0) != 1000+o.p.Ms || o.tmplOf(0) < 0 {
			t.Errorf("refute %v: known %v, n %d, template %d; want the match kept", refute, o.st.Known(0), o.st.Counts().N(0), o.tmplOf(0))
		}
	}
}
