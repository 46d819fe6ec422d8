package env

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

func testRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7e3b1e)) }

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
