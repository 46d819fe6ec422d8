package env

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

func uniform(w, h int, p float64) []float64 {
	s := make([]float64, w*h)
	for i := range s {
		s[i] = p
	}
	return s
}

func paperMaze(slip []float64) *Maze {
	return &Maze{Width: 4, Height: 4, Slip: slip, Goals: []Cell{{4, 4}}, Lava: []Cell{{2, 2}},
		StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
}

// row returns the outcome probabilities of (cell, action) keyed by cell.
func row(t *testing.T, mz *Maze, m *mdp.Model, c Cell, a int) map[Cell]float64 {
	t.Helper()
	out := map[Cell]float64{}
	for _, tr := range m.Row(mz.Index(c), a) {
		out[mz.CellOf(tr.Next)] = tr.Prob
	}
	return out
}

func near(a, b map[Cell]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if math.Abs(v-b[k]) > 1e-12 {
			return false
		}
	}
	return true
}

func TestMazeDynamicsFollowProtocol(t *testing.T) {
	slip := uniform(4, 4, 0.4)
	slip[0] = 0.2 // cell (1,1)
	mz := paperMaze(slip)
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cell Cell
		a    int
		want map[Cell]float64
	}{
		// Protocol 1.1: p = 0.2, "left" in the corner (1,1): stay 0.9, up 0.1.
		{Cell{1, 1}, Left, map[Cell]float64{{1, 1}: 0.9, {1, 2}: 0.1}},
		// Up moves to larger y; slips go left or right, never back.
		{Cell{2, 2}, Up, map[Cell]float64{{2, 3}: 0.6, {1, 2}: 0.2, {3, 2}: 0.2}},
		{Cell{2, 2}, Right, map[Cell]float64{{3, 2}: 0.6, {2, 3}: 0.2, {2, 1}: 0.2}},
		// Pushing into the top border from the goal corner keeps 0.6 + 0.2 there.
		{Cell{4, 4}, Up, map[Cell]float64{{4, 4}: 0.8, {3, 4}: 0.2}},
		{Cell{3, 1}, Down, map[Cell]float64{{3, 1}: 0.6, {2, 1}: 0.2, {4, 1}: 0.2}},
	}
	for _, c := range cases {
		if got := row(t, mz, m, c.cell, c.a); !near(got, c.want) {
			t.Errorf("%v %s: %v, want %v", c.cell, ActionNames[c.a], got, c.want)
		}
	}
	// Rewards depend on the cell landed in: goal +0.8, lava −1, elsewhere −0.2.
	for _, tr := range m.Row(mz.Index(Cell{4, 4}), Up) {
		want := map[Cell]float64{{4, 4}: 0.8, {3, 4}: -0.2}[mz.CellOf(tr.Next)]
		if math.Abs(tr.Reward-want) > 1e-12 {
			t.Errorf("landing in %v pays %v, want %v", mz.CellOf(tr.Next), tr.Reward, want)
		}
	}
	if r := m.ExpectedReward(mz.Index(Cell{2, 1}), Up); math.Abs(r-(0.6*-1+0.4*-0.2)) > 1e-12 {
		t.Errorf("r((2,1), up) = %v, want 0.6·(−1) + 0.4·(−0.2)", r)
	}
}

func TestMazeSortedVectorsAreTheFiveOfTheProtocol(t *testing.T) {
	// With landforms {0, 0.2, 0.4} on a 4×4 maze exactly these sorted vectors occur (the paper's landforms).
	want := []string{"[0.6 0.2 0.2]", "[0.8 0.1 0.1]", "[0.8 0.2]", "[0.9 0.1]", "[1]"}
	seen := map[string]bool{}
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 50; trial++ {
		slip := make([]float64, 16)
		for i := range slip {
			slip[i] = []float64{0, 0.2, 0.4}[rng.IntN(3)]
		}
		m, err := paperMaze(slip).Model()
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < m.S*m.A; i++ {
			var ps []float64
			for _, tr := range m.Row(i/4, i%4) {
				ps = append(ps, math.Round(tr.Prob*1e9)/1e9)
			}
			sort.Sort(sort.Reverse(sort.Float64Slice(ps)))
			seen[fmt.Sprint(ps)] = true
		}
	}
	var got []string
	for k := range seen {
		got = append(got, k)
	}
	sort.Strings(got)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sorted vectors %v, want %v", got, want)
	}
}

func TestEightActionMaze(t *testing.T) {
	mz := &Maze{Width: 3, Height: 3, Slip: uniform(3, 3, 0.4), StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 8}
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	if m.A != 8 {
		t.Fatalf("A = %d, want 8", m.A)
	}
	// Up-right from the centre slips to up or right.
	if got, want := row(t, mz, m, Cell{2, 2}, UpRight), map[Cell]float64{{3, 3}: 0.6, {2, 3}: 0.2, {3, 2}: 0.2}; !near(got, want) {
		t.Errorf("up-right from the centre: %v, want %v", got, want)
	}
	// Up slips to the neighbouring diagonals; from the bottom-left corner up-left is blocked.
	if got, want := row(t, mz, m, Cell{1, 1}, Up), map[Cell]float64{{1, 2}: 0.6, {1, 1}: 0.2, {2, 2}: 0.2}; !near(got, want) {
		t.Errorf("up from (1,1): %v, want %v", got, want)
	}
}

func TestMazeWallsBlock(t *testing.T) {
	mz := &Maze{Width: 3, Height: 1, Slip: []float64{0, 0, 0}, Walls: []Cell{{2, 1}}, StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	if got := row(t, mz, m, Cell{1, 1}, Right); !near(got, map[Cell]float64{{1, 1}: 1}) {
		t.Errorf("moving into a wall: %v, want to stay", got)
	}
	if mu := m.StartDistribution(); mu[1] != 0 || mu[0] != 0.5 {
		t.Errorf("start distribution %v, want uniform over open cells", mu)
	}
}

func TestMazeValidation(t *testing.T) {
	cases := []struct {
		mutate func(*Maze)
		want   string
	}{
		{func(m *Maze) { m.Slip[5] = 1.5 }, "slip of cell (2,2) is 1.5"},
		{func(m *Maze) { m.Slip = m.Slip[:3] }, "3 slip probabilities for a 4x4 maze, want 16"},
		{func(m *Maze) { m.Goals = []Cell{{5, 1}} }, "goal cell (5,1) is outside the 4x4 maze"},
		{func(m *Maze) { m.Actions = 5 }, "actions = 5, want 4 or 8"},
		{func(m *Maze) { m.StepCost = math.NaN() }, "step cost is NaN"},
		{func(m *Maze) { m.Walls = []Cell{{4, 4}} }, "cell (4,4) is both a wall and a goal"},
	}
	for _, c := range cases {
		mz := paperMaze(uniform(4, 4, 0))
		c.mutate(mz)
		if _, err := mz.Model(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error = %v, want %q", err, c.want)
		}
	}
}
