package env

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func testRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7e3b1e)) }

var paperLandforms = []float64{0, 0.2, 0.4}

func onlineConfig() OnlineConfig {
	return OnlineConfig{Width: 4, Height: 4, Pool: 100, Tasks: 100, Landforms: paperLandforms,
		Goals: []Cell{{4, 4}}, Lava: []Cell{{2, 2}}, StepCost: 0.2, GoalReward: 1, LavaCost: 1}
}

// mazesOf returns the mazes of a sequence of mazes.
func mazesOf(t *testing.T, seq Sequence) []Maze {
	t.Helper()
	out := make([]Maze, len(seq))
	for k, task := range seq {
		m, ok := task.(Maze)
		if !ok {
			t.Fatalf("task %d is a %T, want a Maze", k, task)
		}
		out[k] = m
	}
	return out
}

func validAll(t *testing.T, seq []Maze) {
	t.Helper()
	for k, m := range seq {
		if err := m.Validate(); err != nil {
			t.Fatalf("task %d: %v", k, err)
		}
	}
}

func TestOnlineMazes(t *testing.T) {
	seq, err := OnlineMazes(testRand(1), onlineConfig())
	if err != nil {
		t.Fatal(err)
	}
	validAll(t, seq)
	if len(seq) != 100 {
		t.Fatalf("%d tasks, want 100", len(seq))
	}
	if d := distinctSlips(seq); d < 50 || d > 75 {
		t.Fatalf("%d distinct tasks, want about 63 (50..75)", d)
	}
	for k, m := range seq {
		for _, p := range m.Slip {
			if !slices.Contains(paperLandforms, p) {
				t.Fatalf("task %d: slip %v not a landform", k, p)
			}
		}
		if !reflect.DeepEqual(m.Goals, []Cell{{4, 4}}) || !reflect.DeepEqual(m.Lava, []Cell{{2, 2}}) || m.Actions != 4 {
			t.Fatalf("task %d: goals %v lava %v actions %d", k, m.Goals, m.Lava, m.Actions)
		}
	}
	again, _ := OnlineMazes(testRand(1), onlineConfig())
	if !reflect.DeepEqual(seq, again) {
		t.Fatal("same seed gave a different sequence")
	}
	other, _ := OnlineMazes(testRand(2), onlineConfig())
	if reflect.DeepEqual(seq, other) {
		t.Fatal("different seeds gave the same sequence")
	}
	// Tasks are independent copies.
	seq[0].Slip[0] = 0.9
	for k := 1; k < len(seq); k++ {
		if seq[k].Slip[0] == 0.9 {
			t.Fatalf("task %d shares its slips with task 0", k)
		}
	}
}

func TestFiniteModelGrids(t *testing.T) {
	cfg := FiniteModelConfig{Width: 4, Height: 4, Models: 2, Tasks: 200, Slip: 0.4, StepCost: 0.2, GoalReward: 1, LavaCost: 1}
	seq, err := FiniteModelGrids(testRand(3), cfg)
	if err != nil {
		t.Fatal(err)
	}
	validAll(t, seq)
	if g := distinctGoals(seq); len(g) != 2 {
		t.Fatalf("distinct goals %v, want 2", g)
	}
	for _, m := range seq {
		if len(m.Goals) != 1 || len(m.Lava) != 0 || !reflect.DeepEqual(m.Slip, uniformSlip(16, 0.4)) {
			t.Fatalf("task %+v", m)
		}
	}
	again, _ := FiniteModelGrids(testRand(3), cfg)
	if !reflect.DeepEqual(seq, again) {
		t.Fatal("same seed gave a different sequence")
	}
	// Every cell a model: all 16 cells appear as goals in a long sequence.
	cfg.Models, cfg.Tasks = 16, 2000
	seq, err = FiniteModelGrids(testRand(4), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if g := distinctGoals(seq); len(g) != 16 {
		t.Fatalf("%d distinct goals, want 16", len(g))
	}
	// Goals are spread over the grid across seeds.
	seen := map[Cell]bool{}
	cfg.Models, cfg.Tasks = 2, 10
	for s := range uint64(200) {
		seq, _ := FiniteModelGrids(testRand(s), cfg)
		for _, g := range distinctGoals(seq) {
			seen[g] = true
		}
	}
	if len(seen) != 16 {
		t.Fatalf("goals over 200 seeds cover %d cells, want 16", len(seen))
	}
}

func TestVaryingSizeMazes(t *testing.T) {
	cfg := VaryingSizeConfig{Sizes: []int{3, 4, 5, 6}, PerSize: 20, Landforms: paperLandforms, StepCost: 0.2, GoalReward: 1, LavaCost: 1}
	seq, err := VaryingSizeMazes(testRand(5), cfg)
	if err != nil {
		t.Fatal(err)
	}
	validAll(t, seq)
	if len(seq) != 80 || Mazes(seq...).NeedsGoals() {
		t.Fatalf("%d tasks, needs goals %v; want 80, false", len(seq), Mazes(seq...).NeedsGoals())
	}
	for k, m := range seq {
		n := 3 + k/20
		if m.Width != n || m.Height != n || len(m.Goals) != 1 || len(m.Lava) != 0 || m.Actions != 4 {
			t.Fatalf("task %d: %+v, want %dx%d with one goal", k, m, n, n)
		}
		for _, p := range m.Slip {
			if !slices.Contains(paperLandforms, p) {
				t.Fatalf("task %d: slip %v not a landform", k, p)
			}
		}
	}
	again, _ := VaryingSizeMazes(testRand(5), cfg)
	if !reflect.DeepEqual(seq, again) {
		t.Fatal("same seed gave a different sequence")
	}
}

func TestDrawGoals(t *testing.T) {
	first := Maze{Width: 3, Height: 3, Slip: make([]float64, 9), Actions: 4}
	seq := Mazes(
		first,
		Maze{Width: 2, Height: 2, Slip: make([]float64, 4), Goals: []Cell{{1, 1}}, Actions: 4},
		Maze{Width: 2, Height: 2, Slip: make([]float64, 4), Walls: []Cell{{1, 1}, {2, 1}, {1, 2}}, Actions: 4},
	)
	got := DrawGoals(testRand(6), seq)
	mz := mazesOf(t, got)
	validAll(t, mz)
	if got.NeedsGoals() || !seq.NeedsGoals() {
		t.Fatal("DrawGoals left a task without goal or changed its input")
	}
	if !reflect.DeepEqual(mz[1].Goals, []Cell{{1, 1}}) || !reflect.DeepEqual(mz[2].Goals, []Cell{{2, 2}}) {
		t.Fatalf("goals %v %v, want the existing (1,1) and the only open cell (2,2)", mz[1].Goals, mz[2].Goals)
	}
	if !reflect.DeepEqual(DrawGoals(testRand(6), seq), got) {
		t.Fatal("same seed gave different goals")
	}
	// Uniform over the 9 cells of the 3×3 maze.
	counts := map[Cell]int{}
	rng := testRand(8)
	for range 9000 {
		counts[mazesOf(t, DrawGoals(rng, seq[:1]))[0].Goals[0]]++
	}
	for i := range 9 {
		if c := counts[first.CellOf(i)]; c < 850 || c > 1150 {
			t.Fatalf("cell %v drawn %d times of 9000, want about 1000", first.CellOf(i), c)
		}
	}
	if d := DrawGoals(nil, seq); !d.NeedsGoals() {
		t.Fatal("nil rng drew goals")
	}
}

func gaussianConfig() GaussianConfig {
	return GaussianConfig{Width: 10, Height: 10, Tasks: 100, Means: []float64{0.2, 0.4, 0.6}, SD: 0.05,
		Goals: []Cell{{10, 10}}, Lava: []Cell{{5, 5}}, StepCost: 0.2, GoalReward: 1, LavaCost: 1}
}

func TestGaussianMazes(t *testing.T) {
	seq, err := GaussianMazes(testRand(9), gaussianConfig())
	if err != nil {
		t.Fatal(err)
	}
	validAll(t, seq)
	if len(seq) != 100 || distinctSlips(seq) != 100 {
		t.Fatalf("%d tasks, %d distinct; want 100 fresh tasks", len(seq), distinctSlips(seq))
	}
	var sum, sq float64
	n := 0
	for _, m := range seq {
		for _, p := range m.Slip {
			if p < 0 || p > 1 {
				t.Fatalf("slip %v outside [0, 1]", p)
			}
			sum += p
			sq += p * p
			n++
		}
	}
	mean := sum / float64(n)
	sd := math.Sqrt(sq/float64(n) - mean*mean)
	wantSD := math.Sqrt(0.05*0.05 + 2*0.2*0.2/3)
	if math.Abs(mean-0.4) > 0.01 || math.Abs(sd-wantSD) > 0.01 {
		t.Fatalf("mean %.4f sd %.4f, want 0.4 and %.4f", mean, sd, wantSD)
	}
	again, _ := GaussianMazes(testRand(9), gaussianConfig())
	if !reflect.DeepEqual(seq, again) {
		t.Fatal("same seed gave a different sequence")
	}

	// With a pool the tasks repeat.
	cfg := gaussianConfig()
	cfg.Width, cfg.Height, cfg.Goals, cfg.Lava, cfg.Pool = 4, 4, []Cell{{4, 4}}, []Cell{{2, 2}}, 10
	pooled, err := GaussianMazes(testRand(10), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := distinctSlips(pooled); d > 10 || len(pooled) != 100 {
		t.Fatalf("%d tasks with %d distinct, want 100 tasks from a pool of 10", len(pooled), d)
	}

	// Clipping: a mean near an edge gives exact 0s (and 1s).
	for _, c := range []struct{ mean, edge float64 }{{0.01, 0}, {0.99, 1}} {
		cfg := gaussianConfig()
		cfg.Means, cfg.SD = []float64{c.mean}, 0.1
		seq, err := GaussianMazes(testRand(11), cfg)
		if err != nil {
			t.Fatal(err)
		}
		edges := 0
		for _, m := range seq {
			for _, p := range m.Slip {
				if p < 0 || p > 1 {
					t.Fatalf("slip %v outside [0, 1]", p)
				}
				if p == c.edge {
					edges++
				}
			}
		}
		if edges < 3000 || edges > 6000 {
			t.Fatalf("mean %v: %d of 10000 slips exactly %v, want about 4600", c.mean, edges, c.edge)
		}
	}
}

func TestGeneratorErrors(t *testing.T) {
	bad := func(f func(*OnlineConfig)) OnlineConfig { c := onlineConfig(); f(&c); return c }
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"pool", func() error {
			_, err := OnlineMazes(testRand(1), bad(func(c *OnlineConfig) { c.Pool = 0 }))
			return err
		},
			"env: online mazes: pool = 0, want at least 1"},
		{"tasks", func() error {
			_, err := OnlineMazes(testRand(1), bad(func(c *OnlineConfig) { c.Tasks = -1 }))
			return err
		},
			"count = -1, want at least 1"},
		{"width", func() error {
			_, err := OnlineMazes(testRand(1), bad(func(c *OnlineConfig) { c.Width = 0 }))
			return err
		},
			"width = 0"},
		{"landforms empty", func() error {
			_, err := OnlineMazes(testRand(1), bad(func(c *OnlineConfig) { c.Landforms = nil }))
			return err
		},
			"landforms is empty"},
		{"landform range", func() error {
			_, err := OnlineMazes(testRand(1), bad(func(c *OnlineConfig) { c.Landforms = []float64{0, 1.2} }))
			return err
		}, "landforms[1] = 1.2, want a probability in [0, 1]"},
		{"goal outside", func() error {
			_, err := OnlineMazes(testRand(1), bad(func(c *OnlineConfig) { c.Goals = []Cell{{5, 4}} }))
			return err
		}, "goal cell (5,4) is outside the 4x4 maze"},
		{"actions", func() error {
			_, err := OnlineMazes(testRand(1), bad(func(c *OnlineConfig) { c.Actions = 5 }))
			return err
		},
			"actions = 5, want 4 or 8"},
		{"rng", func() error { _, err := OnlineMazes(nil, onlineConfig()); return err }, "rng is nil"},
		{"models", func() error {
			_, err := FiniteModelGrids(testRand(1), FiniteModelConfig{Width: 2, Height: 2, Models: 5, Tasks: 1, Slip: 0.4})
			return err
		}, "env: finite-model grids: models = 5, but a 2x2 grid has only 4 cells"},
		{"slip", func() error {
			_, err := FiniteModelGrids(testRand(1), FiniteModelConfig{Width: 2, Height: 2, Models: 1, Tasks: 1, Slip: -0.1})
			return err
		}, "slip = -0.1"},
		{"sizes", func() error {
			_, err := VaryingSizeMazes(testRand(1), VaryingSizeConfig{Sizes: []int{3, 1}, PerSize: 1, Landforms: paperLandforms})
			return err
		}, "env: varying-size mazes: sizes[1] = 1, want at least 2"},
		{"per size", func() error {
			_, err := VaryingSizeMazes(testRand(1), VaryingSizeConfig{Sizes: []int{3}, Landforms: paperLandforms})
			return err
		}, "per_size = 0"},
		{"sd", func() error {
			c := gaussianConfig()
			c.SD = -1
			_, err := GaussianMazes(testRand(1), c)
			return err
		}, "env: gaussian mazes: sd = -1"},
		{"means", func() error {
			c := gaussianConfig()
			c.Means = nil
			_, err := GaussianMazes(testRand(1), c)
			return err
		}, "means is empty"},
		{"gaussian pool", func() error {
			c := gaussianConfig()
			c.Pool = -2
			_, err := GaussianMazes(testRand(1), c)
			return err
		}, "pool = -2, want at least 0"},
		{"cost", func() error {
			c := gaussianConfig()
			c.StepCost = math.NaN()
			_, err := GaussianMazes(testRand(1), c)
			return err
		}, "step cost is NaN"},
	}
	for _, c := range cases {
		err := c.run()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}
