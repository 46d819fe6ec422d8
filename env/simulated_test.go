package env

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/temple-rl/temple/continuous/acrobot"
	"github.com/temple-rl/temple/continuous/cartpole"
	"github.com/temple-rl/temple/continuous/mountaincar"
	"github.com/temple-rl/temple/continuous/pendulum"
)

func simulatedTasks(t *testing.T) Sequence {
	t.Helper()
	bounds := func(f string) ([]float64, []float64) {
		lo, hi, ok := DefaultBounds(f)
		if !ok {
			t.Fatalf("no default bounds of %s", f)
		}
		return lo, hi
	}
	mcLo, mcHi := bounds(KindMountainCar)
	cpLo, cpHi := bounds(KindCartPole)
	acLo, acHi := bounds(KindAcrobot)
	peLo, peHi := bounds(KindPendulum)
	moon := mountaincar.DefaultParams()
	moon.Gravity = 0.0015
	return Sequence{
		MountainCar{Params: mountaincar.DefaultParams(), Discretization: Discretization{Bins: []int{8, 6}, Low: mcLo, High: mcHi}},
		MountainCar{Params: moon, Discretization: Discretization{Bins: []int{5}, FitSteps: 500, FitSeed: 3}},
		CartPole{Params: cartpole.DefaultParams(), Discretization: Discretization{Bins: []int{3}, Low: cpLo, High: cpHi}},
		Acrobot{Params: acrobot.DefaultParams(), Discretization: Discretization{Bins: []int{2, 2, 2, 2, 3, 3}, Low: acLo, High: acHi}},
		Pendulum{Params: pendulum.DefaultParams(), Discretization: Discretization{Bins: []int{4}, Low: peLo, High: peHi}, Torques: 5},
	}
}

// TestSimulatedTasks: a sequence of simulator tasks writes and reads back unchanged; every task
// knows its size before its simulator is built; none has a table.
func TestSimulatedTasks(t *testing.T) {
	seq := simulatedTasks(t)
	path := filepath.Join(t.TempDir(), "tasks.json")
	if err := WriteSequences(path, SequenceSet{Runs: []Sequence{seq}}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSequences(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Runs[0], seq) {
		t.Fatalf("read back %+v, want %+v", back.Runs[0], seq)
	}
	wantNames := []string{"MountainCar-v0 8x6 bins", "MountainCar-v0 (gravity=0.0015) quantile 5x5 bins",
		"CartPole-v1 3x3x3x3 bins", "Acrobot-v1 2x2x2x2x3x3 bins", "Pendulum-v1 5 torques 4x4x4 bins"}
	wantSizes := [][2]int{{49, 3}, {26, 3}, {82, 2}, {145, 3}, {64, 5}}
	for k, task := range seq {
		if task.Name() != wantNames[k] {
			t.Errorf("task %d: name %q, want %q", k, task.Name(), wantNames[k])
		}
		sim, err := task.(Simulated).Simulator()
		if err != nil {
			t.Fatalf("task %d: %v", k, err)
		}
		S, A := sim.Size()
		if s2, a2 := task.(Sized).Size(); S != s2 || A != a2 || S != wantSizes[k][0] || A != wantSizes[k][1] {
			t.Errorf("task %d: Size %d, %d; simulator %d, %d; want %v", k, s2, a2, S, A, wantSizes[k])
		}
		if _, err := task.Model(); !errors.Is(err, ErrNoTable) {
			t.Errorf("task %d: Model error %v, want ErrNoTable", k, err)
		}
	}
}

func TestSimulatedTaskErrors(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"family":"mountaincar","bins":[5]}`, "force = 0"},
		{`{"family":"mountaincar","force":0.001,"gravity":0.0025,"max_speed":0.07,"min_position":-1.2,"max_position":0.6,"goal_position":0.5,"goal_velocity":0,"max_steps":200,"bins":[0],"low":[-1.2,-0.07],"high":[0.6,0.07]}`, "bins[0] = 0"},
		{`{"family":"mountaincar","force":0.001,"gravity":-1,"max_speed":0.07,"min_position":-1.2,"max_position":0.6,"goal_position":0.5,"goal_velocity":0,"max_steps":200,"bins":[4],"low":[-1.2,-0.07],"high":[0.6,0.07]}`, "gravity = -1"},
		{`{"family":"cartpole","wind":3}`, `unknown field "wind"`},
		{`{"family":"pendulum","gravity":10,"mass":1,"length":1,"max_speed":8,"max_torque":2,"dt":0.05,"max_steps":200,"bins":[4],"low":[-1,-1,-8],"high":[1,1,8],"torques":0}`, "torques = 0"},
	} {
		_, err := ParseSequences([]byte(`{"format":"temple-task-sequences/v2","runs":[[` + c.json + `]]}`))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.json, err, c.want)
		}
	}
}
