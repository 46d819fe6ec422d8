package baseline

import (
	"math"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/mdp"
)

// corridor is a deterministic 4-state model: in states 0..2 action 0 moves left and action 1
// right, landing in state 2 pays goal; state 3 is unreachable from the start state 0 and loops on
// itself paying 0. With goal 1 and γ 0.9, the largest Q* is Q*(2,right) = 1/(1−0.9) = 10.
func corridor(t testing.TB, goal float64) *mdp.Model {
	t.Helper()
	var rows [][]mdp.Transition
	for s := 0; s < 3; s++ {
		for _, next := range []int{max(s-1, 0), min(s+1, 2)} {
			r := 0.0
			if next == 2 {
				r = goal
			}
			rows = append(rows, []mdp.Transition{{Next: next, Prob: 1, Reward: r}})
		}
	}
	rows = append(rows, []mdp.Transition{{Next: 3, Prob: 1}}, []mdp.Transition{{Next: 3, Prob: 1}})
	m, err := mdp.New(4, 2, rows, []float64{1, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMaxQInitValidation(t *testing.T) {
	m := corridor(t, 1)
	other, err := mdp.New(1, 2, [][]mdp.Transition{{{Next: 0, Prob: 1}}, {{Next: 0, Prob: 1}}}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		edit   func(*MaxQInitParams)
		models []*mdp.Model
		want   string
	}{
		{"base", func(p *MaxQInitParams) { p.Base = "sarsa" }, nil, `maxqinit: base "sarsa"`},
		{"tasks", func(p *MaxQInitParams) { p.Tasks = 0 }, nil, "maxqinit: sample_tasks = 0, want at least 1"},
		{"base params", func(p *MaxQInitParams) { p.QLearning.Alpha = 2 }, nil, "maxqinit: q-learning: alpha = 2"},
		{"delayed-q params", func(p *MaxQInitParams) { p.Base = BaseDelayedQ; p.DelayedQ.M = 0 }, nil, "maxqinit: delayed-q: m = 0"},
		{"rmax params", func(p *MaxQInitParams) { p.Base = BaseRMax; p.RMax.M = 0 }, nil, "maxqinit: rmax: known threshold m = 0"},
		{"no models", func(p *MaxQInitParams) {}, []*mdp.Model{}, "no task models"},
		{"sizes differ", func(p *MaxQInitParams) {}, []*mdp.Model{m, other}, "task model 1 has S=1 A=2, task model 0 has S=4 A=2"},
	} {
		p := DefaultMaxQInit(BaseQLearning)
		c.edit(&p)
		models := c.models
		if models == nil {
			models = []*mdp.Model{m}
		}
		if _, err := NewMaxQInit(p, models, 0.9); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	mq, err := NewMaxQInit(DefaultMaxQInit(BaseQLearning), []*mdp.Model{m}, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if err := mq.BeginTask(newTask(4, 5, 2, 0.9, 1)); err == nil || !strings.Contains(err.Error(), "task 4 has S=5 A=2") {
		t.Errorf("task of another size: error %v", err)
	}
	if err := mq.BeginTask(newTask(0, 4, 2, 0.95, 1)); err == nil || !strings.Contains(err.Error(), "discount") {
		t.Errorf("task with another discount: error %v", err)
	}
}

func TestMaxQInitVMax(t *testing.T) {
	mq, err := NewMaxQInit(DefaultMaxQInit(BaseQLearning), []*mdp.Model{corridor(t, 0.5), corridor(t, 1)}, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(mq.VMax()-10) > 1e-8 {
		t.Errorf("V_max = %v, want 10", mq.VMax())
	}
}

// TestMaxQInitTable runs three sampling tasks on each base learner, captures the base learner's
// Q table at the end of each, and checks that the transfer table is their element-wise maximum,
// that pairs never tried keep their optimistic start, and that the fourth task starts from the
// table.
func TestMaxQInitTable(t *testing.T) {
	models := []*mdp.Model{corridor(t, 1), corridor(t, 0.5), corridor(t, 1)}
	for _, base := range []string{BaseQLearning, BaseDelayedQ, BaseRMax} {
		t.Run(base, func(t *testing.T) {
			p := DefaultMaxQInit(base)
			p.Tasks = 3
			p.DelayedQ.M = 2
			p.RMax.M, p.RMax.RMax = 3, 2
			mq, err := NewMaxQInit(p, models, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, 8)
			for i := range want {
				want[i] = math.Inf(-1)
			}
			for k, m := range models {
				runSteps(t, mq, m, k, 40, 0.9, uint64(k+1), nil)
				if phase, _ := metric(mq.TaskMetrics(), "phase"); phase != 1 {
					t.Fatalf("task %d: phase %v, want 1", k, phase)
				}
				for i, x := range mq.base.Q() {
					want[i] = math.Max(want[i], x)
				}
			}
			got := mq.Table()
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("table = %v, want the element-wise max %v", got, want)
				}
			}
			// State 3 is never visited: its entries keep the optimistic start — V_max = 10 for
			// Q-learning and Delayed-Q, the R_max self-loop value 2/(1−0.9) = 20 for RMax.
			optimistic := mq.VMax()
			if base == BaseRMax {
				optimistic = 20
			}
			for _, i := range []int{6, 7} {
				if math.Abs(got[i]-optimistic) > 1e-6 {
					t.Errorf("never-visited entry %d = %v, want %v", i, got[i], optimistic)
				}
			}
			learned := 0
			for _, x := range got[:6] {
				if math.Abs(x-optimistic) > 1e-6 {
					learned++
				}
			}
			if learned == 0 {
				t.Errorf("table %v: nothing was learned in the sampling tasks", got)
			}
			if err := mq.BeginTask(newTask(3, 4, 2, 0.9, 9)); err != nil {
				t.Fatal(err)
			}
			if phase, _ := metric(mq.TaskMetrics(), "phase"); phase != 2 {
				t.Errorf("task 4: phase %v, want 2", phase)
			}
			start := mq.base.Q()
			for i := range got {
				if math.Abs(start[i]-got[i]) > 1e-12 {
					t.Fatalf("task 4 starts from %v, want the table %v", start, got)
				}
			}
			// Learning in the new task does not change the transfer table.
			before := append([]float64(nil), got...)
			for k := 0; k < 30; k++ {
				a := mq.Act(1)
				mq.Observe(1, a, 0, 1)
			}
			mq.EndTask()
			for i := range before {
				if mq.Table()[i] != before[i] {
					t.Fatalf("transfer table changed after the sampling phase")
				}
			}
		})
	}
}

// stubBase is a base learner whose learned table is set by the test.
type stubBase struct {
	q     []float64
	start []float64
}

func (b *stubBase) BeginTask(agent.Task) error     { return nil }
func (b *stubBase) Act(int) int                    { return 0 }
func (b *stubBase) Observe(int, int, float64, int) {}
func (b *stubBase) EndEpisode()                    {}
func (b *stubBase) EndTask()                       {}
func (b *stubBase) Q() []float64                   { return b.q }
func (b *stubBase) startFrom(q []float64)          { b.start = q }

// TestMaxQInitNeverLearned: entries still at −∞ after the sampling phase are set to V_max.
func TestMaxQInitNeverLearned(t *testing.T) {
	mq, err := NewMaxQInit(DefaultMaxQInit(BaseQLearning), []*mdp.Model{corridor(t, 1)}, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	mq.p.Tasks = 2
	inf := math.Inf(-1)
	stub := &stubBase{}
	mq.base = stub
	for k, q := range [][]float64{
		{1, inf, 3, inf, 0, 0, inf, inf},
		{2, inf, -1, 4, 0, 1, inf, inf},
	} {
		stub.q = q
		if err := mq.BeginTask(newTask(k, 4, 2, 0.9, 1)); err != nil {
			t.Fatal(err)
		}
		if stub.start != nil {
			t.Fatalf("sampling task %d did not start optimistically", k)
		}
		mq.EndTask()
	}
	v := mq.VMax()
	want := []float64{2, v, 3, 4, 0, 1, v, v}
	for i := range want {
		if math.Abs(mq.Table()[i]-want[i]) > 1e-12 {
			t.Fatalf("table %v, want %v", mq.Table(), want)
		}
	}
	if n, _ := metric(mq.TaskMetrics(), "unlearned_entries"); n != 3 {
		t.Errorf("unlearned entries = %v, want 3", n)
	}
	if err := mq.BeginTask(newTask(2, 4, 2, 0.9, 1)); err != nil {
		t.Fatal(err)
	}
	if len(stub.start) != 8 || stub.start[1] != v {
		t.Errorf("task 3 starts from %v, want the table", stub.start)
	}
}
