package baseline

import (
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// taskA has six states and two actions; Q* is known by construction (see terminalRewards):
//
//	state  Q*(s,0)  Q*(s,1)   ⌊Q*/0.1⌋
//	0       0.53     0.21     (5, 2)
//	1       0.61     0.25     (6, 2)   within 0.1 of state 0
//	2       0.68     0.25     (6, 2)   within 0.1 of state 1 but not of state 0
//	3       0.53     0.21     (5, 2)   equal to state 0
//	4      −0.05    −0.02     (−1, −1) within 0.1 of state 5; truncation toward 0 would give (0, 0)
//	5       0        0        (0, 0)   absorbing
func taskA(t testing.TB) *mdp.Model {
	return terminalRewards(t, [][]float64{{0.53, 0.21}, {0.61, 0.25}, {0.68, 0.25}, {0.53, 0.21}, {-0.05, -0.02}})
}

// taskB groups states 0, 2 and 3 under φ_{Q*ε} but separates 0 and 1:
//
//	state  Q*(s,0)  Q*(s,1)
//	0       0.53     0.21
//	1       0.90     0.90
//	2       0.55     0.21
//	3       0.53     0.21
//	4      −0.05    −0.02
//	5       0        0
func taskB(t testing.TB) *mdp.Model {
	return terminalRewards(t, [][]float64{{0.53, 0.21}, {0.9, 0.9}, {0.55, 0.21}, {0.53, 0.21}, {-0.05, -0.02}})
}

func TestAbstractionsOfOneTask(t *testing.T) {
	for _, c := range []struct {
		kind AbstractionKind
		eps  float64
		want []int
	}{
		// State 0 opens cluster 0 and takes 1 and 3; 2 is within 0.1 of 1 but not of 0, so it
		// opens cluster 1; 4 opens cluster 2 and takes 5.
		{QStarEpsilon, 0.1, []int{0, 0, 1, 0, 2, 2}},
		// Buckets (5,2), (6,2), (6,2), (5,2), (−1,−1), (0,0).
		{QStarDiscrete, 0.1, []int{0, 1, 1, 0, 2, 3}},
		// Only states 0 and 3 are equal.
		{QStarExact, 0, []int{0, 1, 2, 0, 3, 4}},
		// ε = 0 is exact equality for φ_{Q*ε} too.
		{QStarEpsilon, 0, []int{0, 1, 2, 0, 3, 4}},
		// A large ε puts everything together.
		{QStarEpsilon, 1, []int{0, 0, 0, 0, 0, 0}},
	} {
		abs, err := TaskAbstraction(taskA(t), 0.9, c.kind, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]int, abs.States())
		for s := range got {
			got[s] = abs.Of(s)
		}
		if !slices.Equal(got, c.want) || abs.Size() != slices.Max(c.want)+1 {
			t.Errorf("%s ε=%v: clusters %v (size %d), want %v", c.kind, c.eps, got, abs.Size(), c.want)
		}
	}
}

func TestAbstractionIntersection(t *testing.T) {
	a, err := TaskAbstraction(taskA(t), 0.9, QStarEpsilon, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := TaskAbstraction(taskB(t), 0.9, QStarEpsilon, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 2, 3}, {1}, {4, 5}}; !slices.EqualFunc(b.Clusters(), want, slices.Equal) {
		t.Fatalf("task B clusters %v, want %v", b.Clusters(), want)
	}
	// A: {0,1,3} {2} {4,5}; B: {0,2,3} {1} {4,5}. Together only 0 with 3 and 4 with 5.
	want := [][]int{{0, 3}, {1}, {2}, {4, 5}}
	both, err := Intersect(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(both.Clusters(), want, slices.Equal) {
		t.Errorf("intersection %v, want %v", both.Clusters(), want)
	}
	viaModels, err := NewAbstraction([]*mdp.Model{taskA(t), taskB(t)}, 0.9, QStarEpsilon, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(viaModels.Clusters(), want, slices.Equal) {
		t.Errorf("NewAbstraction %v, want %v", viaModels.Clusters(), want)
	}
	// Intersecting an abstraction with itself changes nothing.
	self, _ := Intersect(a, a, a)
	if !slices.EqualFunc(self.Clusters(), a.Clusters(), slices.Equal) {
		t.Errorf("a ∩ a = %v, want %v", self.Clusters(), a.Clusters())
	}
}

func TestAbstractionErrors(t *testing.T) {
	small := terminalRewards(t, [][]float64{{0.5, 0.2}})
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"sizes", func() error {
			_, err := NewAbstraction([]*mdp.Model{taskA(t), small}, 0.9, QStarEpsilon, 0.1)
			return err
		}, "task model 1 has 2 states, task model 0 has 6"},
		{"kind", func() error { _, err := NewAbstraction([]*mdp.Model{taskA(t)}, 0.9, "bisimulation", 0.1); return err }, `abstraction "bisimulation"`},
		{"negative epsilon", func() error { _, err := NewAbstraction([]*mdp.Model{taskA(t)}, 0.9, QStarEpsilon, -1); return err }, "epsilon = -1"},
		{"zero bucket", func() error { _, err := NewAbstraction([]*mdp.Model{taskA(t)}, 0.9, QStarDiscrete, 0); return err }, "epsilon = 0 for q-star-d"},
		{"gamma", func() error { _, err := NewAbstraction([]*mdp.Model{taskA(t)}, 1, QStarEpsilon, 0.1); return err }, "task model 0: mdp: discount gamma = 1"},
		{"no models", func() error { _, err := NewAbstraction(nil, 0.9, QStarEpsilon, 0.1); return err }, "no task models"},
		{"intersect sizes", func() error {
			a, _ := TaskAbstraction(taskA(t), 0.9, QStarExact, 0)
			b, _ := TaskAbstraction(small, 0.9, QStarExact, 0)
			_, err := Intersect(a, b)
			return err
		}, "abstraction of task 1 has 2 states, task 0 has 6"},
	} {
		if err := c.err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// recorder is a learner that records what it is shown.
type recorder struct {
	task     agent.Task
	acted    []int
	observed [][2]int
}

func (r *recorder) BeginTask(t agent.Task) error { r.task = t; return nil }
func (r *recorder) Act(s int) int                { r.acted = append(r.acted, s); return 1 }
func (r *recorder) Observe(s, a int, rew float64, next int) {
	r.observed = append(r.observed, [2]int{s, next})
}
func (r *recorder) EndEpisode() {}
func (r *recorder) EndTask()    {}

func TestAbsRLPassesAbstractStates(t *testing.T) {
	abs, err := TaskAbstraction(taskA(t), 0.9, QStarEpsilon, 0.1) // 0 0 1 0 2 2
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	ag, err := Abstracted(abs, rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := ag.BeginTask(newTask(7, 6, 2, 0.9, 1)); err != nil {
		t.Fatal(err)
	}
	if rec.task.S != 3 || rec.task.A != 2 || rec.task.Index != 7 || rec.task.Gamma != 0.9 || rec.task.Rand == nil {
		t.Errorf("inner task %+v, want S=3 A=2 index 7 γ 0.9 with a random stream", rec.task)
	}
	for s := 0; s < 6; s++ {
		if a := ag.Act(s); a != 1 {
			t.Errorf("action %d, want the inner learner's 1", a)
		}
		ag.Observe(s, 1, 0, 5-s)
	}
	if want := []int{0, 0, 1, 0, 2, 2}; !slices.Equal(rec.acted, want) {
		t.Errorf("inner learner acted in %v, want %v", rec.acted, want)
	}
	if want := [][2]int{{0, 2}, {0, 2}, {1, 0}, {0, 1}, {2, 0}, {2, 0}}; !slices.Equal(rec.observed, want) {
		t.Errorf("inner learner observed %v, want %v", rec.observed, want)
	}
	if err := ag.BeginTask(newTask(8, 5, 2, 0.9, 1)); err == nil || !strings.Contains(err.Error(), "task 8 has 5 states, the abstraction was built for 6") {
		t.Errorf("task of another size: error %v", err)
	}
}

func TestAbsRLLearners(t *testing.T) {
	models := []*mdp.Model{taskA(t), taskB(t)}
	for _, learner := range []string{BaseQLearning, BaseDelayedQ} {
		p := DefaultAbsRL(QStarEpsilon)
		p.Learner = learner
		ag, err := NewAbsRL(p, models, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		for k, m := range models {
			runSteps(t, ag, m, k, 200, 0.9, 1, nil)
			if n, _ := metric(ag.TaskMetrics(), "abstract_states"); n != 4 {
				t.Errorf("%s: %v abstract states, want 4", learner, n)
			}
		}
	}
	for _, c := range []struct {
		edit func(*AbsRLParams)
		want string
	}{
		{func(p *AbsRLParams) { p.Learner = "rmax" }, `abs-rl: learner "rmax"`},
		{func(p *AbsRLParams) { p.QLearning.Epsilon = 2 }, "abs-rl: q-learning: epsilon = 2"},
		{func(p *AbsRLParams) { p.Learner = BaseDelayedQ; p.DelayedQ.M = 0 }, "abs-rl: delayed-q: m = 0"},
		{func(p *AbsRLParams) { p.Kind = QStarDiscrete; p.Epsilon = 0 }, "abs-rl: epsilon = 0 for q-star-d"},
	} {
		p := DefaultAbsRL(QStarEpsilon)
		c.edit(&p)
		if _, err := NewAbsRL(p, models, 0.9); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
