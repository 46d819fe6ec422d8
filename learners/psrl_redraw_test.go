package learners

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// sampledModel is l's aggregate sample as a model (mdp.ValueIteration's input): each pair's rest
// spread evenly over the states it has not reached, terminal states' pairs empty.
func sampledModel(t *testing.T, l *PSRL) *mdp.Model {
	t.Helper()
	rows := make([][]mdp.Transition, l.S*l.A)
	row := make([]float64, l.S)
	for i := range rows {
		if l.terminal != nil && l.terminal[i/l.A] {
			continue
		}
		sampledRow(l, i, row)
		total := 0.0
		for _, x := range row {
			total += x
		}
		for s, x := range row {
			rows[i] = append(rows[i], mdp.Transition{Next: s, Prob: x / total, Reward: sampledReward(l, i)})
		}
	}
	start := make([]float64, l.S)
	for s := range start {
		if l.terminal == nil || !l.terminal[s] {
			start[s] = 1
			break
		}
	}
	m, err := mdp.NewEpisodic(l.S, l.A, rows, start, l.terminal)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// With redraw: changed, after every draw the greedy action of every state is optimal in the
// sampled model up to twice plan_tolerance (exactly optimal when the plan stopped with the greedy
// actions certain; within 2·plan_tolerance of the best when it stopped at the tolerance), checked
// against value iteration to 1e-11 of the model the draw left, for both prior supports, each
// schedule, a terminal state declared and one observed on the way.
func TestPSRLRedrawChangedPlansTheSampledModel(t *testing.T) {
	for _, support := range []PriorSupport{ObservedStates, AllStates} {
		for _, schedule := range []PSRLSchedule{Doubling, TSDE, PerEpisode} {
			t.Run(string(support)+"/"+string(schedule), func(t *testing.T) {
				p := DefaultPSRL()
				p.PriorSupport, p.Schedule, p.Redraw = support, schedule, RedrawChanged
				l := &PSRL{P: p}
				const S, A = 12, 3
				tk := task(S, A, 5)
				tk.Terminal = make([]bool, S)
				tk.Terminal[4] = true
				l.Begin(tk)
				rng := rand.New(rand.NewPCG(5, 5))
				checked := 0
				for step := 0; step < 3000; step++ {
					if step == 1500 {
						l.ObserveTerminal(9)
					}
					i := rng.IntN(S * A)
					if l.terminal[i/A] {
						continue
					}
					before := l.version
					l.Record(i, (i/A+rng.IntN(3))%S, rng.Float64())
					if step%50 == 0 {
						l.EndEpisode()
					}
					if l.version == before && step != 1500 {
						continue
					}
					checked++
					sol, err := mdp.ValueIteration(sampledModel(t, l), tk.Gamma, 1e-11)
					if err != nil {
						t.Fatal(err)
					}
					for s := 0; s < S; s++ {
						if l.terminal[s] {
							continue
						}
						a := mdp.ArgMax(l.q[s*A : s*A+A])
						if best := sol.Q[s*A+sol.Policy[s]]; sol.Q[s*A+a] < best-2*p.PlanTolerance {
							t.Fatalf("step %d: state %d: greedy action %d has Q* %v, the best %v", step, s, a, sol.Q[s*A+a], best)
						}
					}
				}
				if checked < 20 {
					t.Fatalf("only %d draws checked", checked)
				}
			})
		}
	}
}

// A draw of redraw: changed keeps the sample of every pair whose statistics did not change, bit
// for bit, and samples the others anew exactly as samplePair does from the same random numbers,
// in index order.
func TestPSRLRedrawChangedSamplesOnlyChangedPairs(t *testing.T) {
	p := DefaultPSRL()
	p.PriorSupport, p.Redraw, p.Schedule = AllStates, RedrawChanged, PerEpisode // draws only when asked
	l := &PSRL{P: p}
	const S, A = 6, 2
	src := rand.NewPCG(7, 7)
	tk := agent.Task{S: S, A: A, Gamma: 0.9, Rand: rand.New(src), Rewards: &agent.RewardRange{Min: 0, Max: 1}}
	l.Begin(tk)
	rng := rand.New(rand.NewPCG(8, 8))
	for k := 0; k < 40; k++ {
		l.Record(rng.IntN(S*A), rng.IntN(S), rng.Float64())
	}
	l.draw() // a full draw (the first after the task began's), then the changed pairs only
	full := l.changed.fullStart
	changed := map[int]bool{3: true, 7: true}
	l.Record(3, 1, 0.5)
	l.Augment(7, []mdp.Succ{{State: 2, N: 4}}, 1)
	old := l.agg
	old.start, old.succ, old.r, old.rest = append([]int32(nil), old.start...), append([]aggregate(nil), old.succ...),
		append([]float64(nil), old.r...), append([]float64(nil), old.rest...)
	replay := *src // the random numbers the draw will use
	l.draw()
	if l.changed.fullStart != full {
		t.Fatal("the second draw was a full draw")
	}
	want := aggregateModel{}
	want.reset()
	l.rng = rand.New(&replay)
	prior, noise := 1/(p.RewardSD*p.RewardSD), 1/(p.RewardNoise*p.RewardNoise)
	for i := range S * A {
		if changed[i] {
			l.samplePair(&want, i, prior, noise)
			continue
		}
		want.r = append(want.r, old.r[i])
		want.rest = append(want.rest, old.rest[i])
		want.succ = append(want.succ, old.succ[old.start[i]:old.start[i+1]]...)
		want.start = append(want.start, int32(len(want.succ)))
	}
	got := l.agg
	for i := range S * A {
		g, w := got.succ[got.start[i]:got.start[i+1]], want.succ[want.start[i]:want.start[i+1]]
		if got.r[i] != want.r[i] || got.rest[i] != want.rest[i] || len(g) != len(w) {
			t.Fatalf("pair %d: reward %v rest %v, %d successors; want %v, %v, %d", i, got.r[i], got.rest[i], len(g), want.r[i], want.rest[i], len(w))
		}
		for k := range g {
			if g[k] != w[k] {
				t.Fatalf("pair %d: successor %v, want %v", i, g[k], w[k])
			}
		}
		if !changed[i] && (old.r[i] != got.r[i]) {
			t.Fatalf("pair %d changed nothing but its reward was drawn anew", i)
		}
		if changed[i] && old.r[i] == got.r[i] {
			t.Fatalf("pair %d changed but kept its reward %v", i, got.r[i])
		}
	}
}

// Full draws come at the first draw after more samples than between the last two, so their
// intervals grow: after n samples with a draw at every sample, about √(2n) full draws.
func TestPSRLRedrawChangedFullDraws(t *testing.T) {
	p := DefaultPSRL()
	p.Redraw = RedrawChanged
	l := &PSRL{P: p}
	l.Begin(task(4, 2, 1))
	var fulls []int64
	for k := 1; k <= 60; k++ {
		start := l.changed.fullStart
		l.stats.Record(0, 1, 0)
		l.draw()
		if l.changed.fullStart != start {
			fulls = append(fulls, l.stats.Samples())
		}
	}
	// Intervals 1, 2, 3, …: full draws after samples 1, 3, 6, 10, 15, …
	for k, n := range fulls {
		if want := int64((k + 1) * (k + 2) / 2); n != want {
			t.Fatalf("full draws after samples %v, want the triangular numbers", fulls)
		}
	}
	if len(fulls) != 10 {
		t.Fatalf("%d full draws in 60 samples, want 10", len(fulls))
	}
}

func TestPSRLRedrawValidate(t *testing.T) {
	p := DefaultPSRL()
	p.Redraw = "some"
	if _, err := NewPSRL(p); err == nil || !strings.Contains(err.Error(), `psrl: redraw "some", want "all" or "changed"`) {
		t.Errorf("error %v", err)
	}
	p.Redraw, p.Sampling = RedrawChanged, Dense
	if _, err := NewPSRL(p); err == nil || !strings.Contains(err.Error(), `psrl: redraw "changed" needs sampling "aggregate", got sampling "dense"`) {
		t.Errorf("error %v", err)
	}
}
