package families

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/env"
)

// The maze families' generators: their draws, their copies and their errors.

func testRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7e3b1e)) }

func validAll(t *testing.T, seq []env.Maze) {
	t.Helper()
	for k, m := range seq {
		if err := m.Validate(); err != nil {
			t.Fatalf("task %d: %v", k, err)
		}
	}
}

// distinct is the number of distinct values of key over the mazes.
func distinct[K comparable](seq []env.Maze, key func(env.Maze) K) int {
	seen := map[K]bool{}
	for _, m := range seq {
		seen[key(m)] = true
	}
	return len(seen)
}

func slipsOf(m env.Maze) string { return fmt.Sprint(m.Slip) }

func firstGoal(m env.Maze) env.Cell { return m.Goals[0] }

func onlineConfig() *OnlineMazeParams {
	return &OnlineMazeParams{Width: 4, Height: 4, Pool: 100, Tasks: 100, Landforms: paperLandforms(),
		Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}}, Rewards: env.PaperRewards}
}

func TestOnlineMazes(t *testing.T) {
	seq, err := onlineConfig().Mazes(testRand(1))
	if err != nil {
		t.Fatal(err)
	}
	validAll(t, seq)
	if len(seq) != 100 {
		t.Fatalf("%d tasks, want 100", len(seq))
	}
	if d := distinct(seq, slipsOf); d < 50 || d > 75 {
		t.Fatalf("%d distinct tasks, want about 63 (50..75)", d)
	}
	for k, m := range seq {
		for _, p := range m.Slip {
			if !slices.Contains(paperLandforms(), p) {
				t.Fatalf("task %d: slip %v not a landform", k, p)
			}
		}
		if !reflect.DeepEqual(m.Goals, []env.Cell{{X: 4, Y: 4}}) || !reflect.DeepEqual(m.Lava, []env.Cell{{X: 2, Y: 2}}) || m.Actions != 4 {
			t.Fatalf("task %d: goals %v lava %v actions %d", k, m.Goals, m.Lava, m.Actions)
		}
	}
	again, _ := onlineConfig().Mazes(testRand(1))
	if !reflect.DeepEqual(seq, again) {
		t.Fatal("same seed gave a different sequence")
	}
	other, _ := onlineConfig().Mazes(testRand(2))
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
	cfg := &FiniteModelParams{Width: 4, Height: 4, Models: 2, Tasks: 200, Slip: 0.4, Rewards: env.PaperRewards}
	seq, err := cfg.Mazes(testRand(3))
	if err != nil {
		t.Fatal(err)
	}
	validAll(t, seq)
	if g := distinct(seq, firstGoal); g != 2 {
		t.Fatalf("%d distinct goals, want 2", g)
	}
	for _, m := range seq {
		if len(m.Goals) != 1 || len(m.Lava) != 0 || !reflect.DeepEqual(m.Slip, env.UniformSlip(16, 0.4)) {
			t.Fatalf("task %+v", m)
		}
	}
	again, _ := cfg.Mazes(testRand(3))
	if !reflect.DeepEqual(seq, again) {
		t.Fatal("same seed gave a different sequence")
	}
	// Every cell a model: all 16 cells appear as goals in a long sequence.
	cfg.Models, cfg.Tasks = 16, 2000
	seq, err = cfg.Mazes(testRand(4))
	if err != nil {
		t.Fatal(err)
	}
	if g := distinct(seq, firstGoal); g != 16 {
		t.Fatalf("%d distinct goals, want 16", g)
	}
	// Goals are spread over the grid across seeds.
	seen := map[env.Cell]bool{}
	cfg.Models, cfg.Tasks = 2, 10
	for s := range uint64(200) {
		seq, _ := cfg.Mazes(testRand(s))
		for _, m := range seq {
			seen[firstGoal(m)] = true
		}
	}
	if len(seen) != 16 {
		t.Fatalf("goals over 200 seeds cover %d cells, want 16", len(seen))
	}
}

func TestVaryingSizeMazes(t *testing.T) {
	cfg := &VaryingSizeParams{Sizes: []int{3, 4, 5, 6}, PerSize: 20, Landforms: paperLandforms(), Rewards: env.PaperRewards}
	seq, err := cfg.Mazes(testRand(5))
	if err != nil {
		t.Fatal(err)
	}
	validAll(t, seq)
	if len(seq) != 80 || env.Mazes(seq...).NeedsGoals() {
		t.Fatalf("%d tasks, needs goals %v; want 80, false", len(seq), env.Mazes(seq...).NeedsGoals())
	}
	for k, m := range seq {
		n := 3 + k/20
		if m.Width != n || m.Height != n || len(m.Goals) != 1 || len(m.Lava) != 0 || m.Actions != 4 {
			t.Fatalf("task %d: %+v, want %dx%d with one goal", k, m, n, n)
		}
		for _, p := range m.Slip {
			if !slices.Contains(paperLandforms(), p) {
				t.Fatalf("task %d: slip %v not a landform", k, p)
			}
		}
	}
	again, _ := cfg.Mazes(testRand(5))
	if !reflect.DeepEqual(seq, again) {
		t.Fatal("same seed gave a different sequence")
	}
}

func gaussianConfig() *GaussianParams {
	return &GaussianParams{Width: 10, Height: 10, Tasks: 100, Means: []float64{0.2, 0.4, 0.6}, SD: 0.05,
		Goals: []env.Cell{{X: 10, Y: 10}}, Lava: []env.Cell{{X: 5, Y: 5}}, Rewards: env.PaperRewards}
}

func TestGaussianMazes(t *testing.T) {
	seq, err := gaussianConfig().Mazes(testRand(9))
	if err != nil {
		t.Fatal(err)
	}
	validAll(t, seq)
	if len(seq) != 100 || distinct(seq, slipsOf) != 100 {
		t.Fatalf("%d tasks, %d distinct; want 100 fresh tasks", len(seq), distinct(seq, slipsOf))
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
	again, _ := gaussianConfig().Mazes(testRand(9))
	if !reflect.DeepEqual(seq, again) {
		t.Fatal("same seed gave a different sequence")
	}

	// With a pool the tasks repeat.
	cfg := gaussianConfig()
	cfg.Width, cfg.Height, cfg.Goals, cfg.Lava, cfg.Pool = 4, 4, []env.Cell{{X: 4, Y: 4}}, []env.Cell{{X: 2, Y: 2}}, 10
	pooled, err := cfg.Mazes(testRand(10))
	if err != nil {
		t.Fatal(err)
	}
	if d := distinct(pooled, slipsOf); d > 10 || len(pooled) != 100 {
		t.Fatalf("%d tasks with %d distinct, want 100 tasks from a pool of 10", len(pooled), d)
	}

	// Clipping: a mean near an edge gives exact 0s (and 1s).
	for _, c := range []struct{ mean, edge float64 }{{0.01, 0}, {0.99, 1}} {
		cfg := gaussianConfig()
		cfg.Means, cfg.SD = []float64{c.mean}, 0.1
		seq, err := cfg.Mazes(testRand(11))
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

// generator is a maze family's parameters, which draw a run's mazes.
type generator interface {
	Mazes(rng *rand.Rand) ([]env.Maze, error)
}

// changed is p after change.
func changed[P any](p P, change func(P)) P { change(p); return p }

func TestGeneratorErrors(t *testing.T) {
	online, gaussian := onlineConfig, gaussianConfig
	cases := []struct {
		name   string
		params generator
		want   string
	}{
		{"pool", changed(online(), func(c *OnlineMazeParams) { c.Pool = 0 }), "online mazes: pool = 0, want at least 1"},
		{"tasks", changed(online(), func(c *OnlineMazeParams) { c.Tasks = -1 }), "count = -1, want at least 1"},
		{"width", changed(online(), func(c *OnlineMazeParams) { c.Width = 0 }), "width = 0"},
		{"landforms empty", changed(online(), func(c *OnlineMazeParams) { c.Landforms = nil }), "landforms is empty"},
		{"landform range", changed(online(), func(c *OnlineMazeParams) { c.Landforms = []float64{0, 1.2} }),
			"landforms[1] = 1.2, want a probability in [0, 1]"},
		{"goal outside", changed(online(), func(c *OnlineMazeParams) { c.Goals = []env.Cell{{X: 5, Y: 4}} }),
			"goal cell (5,4) is outside the 4x4 maze"},
		{"actions", changed(online(), func(c *OnlineMazeParams) { c.Actions = 5 }), "actions = 5, want 4 or 8"},
		{"models", &FiniteModelParams{Width: 2, Height: 2, Models: 5, Tasks: 1, Slip: 0.4},
			"finite-model grids: models = 5, but a 2x2 grid has only 4 cells"},
		{"slip", &FiniteModelParams{Width: 2, Height: 2, Models: 1, Tasks: 1, Slip: -0.1}, "slip = -0.1"},
		{"sizes", &VaryingSizeParams{Sizes: []int{3, 1}, PerSize: 1, Landforms: paperLandforms()},
			"varying-size mazes: sizes[1] = 1, want at least 2"},
		{"per size", &VaryingSizeParams{Sizes: []int{3}, Landforms: paperLandforms()}, "per_size = 0"},
		{"sd", changed(gaussian(), func(c *GaussianParams) { c.SD = -1 }), "gaussian mazes: sd = -1"},
		{"means", changed(gaussian(), func(c *GaussianParams) { c.Means = nil }), "means is empty"},
		{"gaussian pool", changed(gaussian(), func(c *GaussianParams) { c.Pool = -2 }), "pool = -2, want at least 0"},
		{"cost", changed(gaussian(), func(c *GaussianParams) { c.StepCost = math.NaN() }), "step cost is NaN"},
	}
	if _, err := online().Mazes(nil); err == nil || !strings.Contains(err.Error(), "rng is nil") {
		t.Errorf("nil rng: err = %v, want it to contain %q", err, "rng is nil")
	}
	for _, c := range cases {
		_, err := c.params.Mazes(testRand(1))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}
