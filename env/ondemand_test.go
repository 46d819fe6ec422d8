package env

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// randomMaze draws a maze with every feature the model builder handles: slips of 0, 1/2 and 1
// (whose slip targets merge with the intended one or vanish), walls, goals that are also lava,
// and optionally terminal goals and the 8 actions.
func randomMaze(rng *rand.Rand, w, h int) Maze {
	slips := []float64{0, 0.2, 0.4, 0.5, 1, 0.3}
	m := Maze{Width: w, Height: h, Slip: make([]float64, w*h), StepCost: 0.2, GoalReward: 1, LavaCost: 1,
		Actions: 4 + 4*rng.IntN(2), TerminalGoals: rng.IntN(2) == 0}
	for i := range m.Slip {
		m.Slip[i] = slips[rng.IntN(len(slips))]
	}
	taken := map[int]bool{}
	cell := func() Cell {
		for {
			i := rng.IntN(w * h)
			if !taken[i] {
				taken[i] = true
				return m.CellOf(i)
			}
		}
	}
	m.Goals = []Cell{cell(), cell()}
	m.Lava = []Cell{cell(), m.Goals[0]} // a goal that is also lava pays as a goal
	for range w * h / 5 {
		m.Walls = append(m.Walls, cell())
	}
	return m
}

// The on-demand maze is the stored one, bit for bit: rows, expected rewards, draws of Step and
// SampleStart from the same stream, terminal states and the largest reward. Maze.Model stores the
// rows the on-demand maze computes (whose shape TestMazeDynamicsFollowProtocol checks by hand), so
// this holds the builder's handling of them and the two ways of sampling to each other.
func TestMazeDynamicsEqualModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 40 {
		mz := randomMaze(rng, 2+rng.IntN(9), 2+rng.IntN(9))
		m, err := mz.Model()
		if err != nil {
			t.Fatal(err)
		}
		d, err := mz.Dynamics()
		if err != nil {
			t.Fatal(err)
		}
		if S, A := d.Size(); S != m.S || A != m.A {
			t.Fatalf("maze %d: size %d×%d, model %d×%d", trial, S, A, m.S, m.A)
		}
		for i := range m.S * m.A {
			row := d.AppendRow(nil, i)
			if want := m.AppendRow(nil, i); !slices.Equal(row, want) {
				t.Fatalf("maze %d pair %d: row %v, model %v", trial, i, row, want)
			}
			if r := mdp.RowReward(row); math.Float64bits(r) != math.Float64bits(m.R[i]) {
				t.Fatalf("maze %d pair %d: r = %v, model %v", trial, i, r, m.R[i])
			}
		}
		if !slices.Equal(d.TerminalStates(), m.TerminalStates()) {
			t.Fatalf("maze %d: terminal states differ", trial)
		}
		if d.MaxAbsReward() != m.MaxAbsReward() {
			t.Fatalf("maze %d: max |r| %v, model %v", trial, d.MaxAbsReward(), m.MaxAbsReward())
		}
		a, b := rand.New(rand.NewPCG(uint64(trial), 1)), rand.New(rand.NewPCG(uint64(trial), 1))
		for range 2000 {
			if s, want := d.SampleStart(a), m.SampleStart(b); s != want {
				t.Fatalf("maze %d: start %d, model %d", trial, s, want)
			}
			s, act := a.IntN(m.S), a.IntN(m.A)
			b.IntN(m.S)
			b.IntN(m.A)
			next, r := d.Step(s, act, a)
			wantNext, wantR := m.Step(s, act, b)
			if next != wantNext || r != wantR || d.Terminal(next) != m.Terminal(next) {
				t.Fatalf("maze %d: step (%d,%d) → %d %v, model %d %v", trial, s, act, next, r, wantNext, wantR)
			}
		}
	}
}

// A step of the on-demand maze allocates nothing.
func TestMazeDynamicsStepAllocatesNothing(t *testing.T) {
	d, err := randomMaze(rand.New(rand.NewPCG(1, 1)), 20, 20).Dynamics()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if n := testing.AllocsPerRun(100, func() { d.Step(21, 1, rng) }); n != 0 {
		t.Fatalf("Step allocates %v times", n)
	}
}

// Reach counts the cells within r moves of a cell in an open maze, and never more than the maze.
func TestMazeReach(t *testing.T) {
	m := Maze{Width: 100, Height: 100, Actions: 4}
	if got := m.Reach(3); got != 25 {
		t.Errorf("4 actions, 3 moves: %d cells, want 25", got)
	}
	m.Actions = 8
	if got := m.Reach(3); got != 49 {
		t.Errorf("8 actions, 3 moves: %d cells, want 49", got)
	}
	if got := m.Reach(1 << 40); got != 10000 {
		t.Errorf("a huge radius: %d cells, want the maze's 10000", got)
	}
}

// TestFixedStart: a given start state within the task, else a grid task's open cell, and never a
// terminal state; LargeOnDemand takes a maze from OnDemandPairs pairs on.
func TestFixedStart(t *testing.T) {
	maze := Maze{Width: 3, Height: 2, Slip: make([]float64, 6), Actions: 4, Goals: []Cell{{X: 3, Y: 2}},
		TerminalGoals: true, GoalReward: 1}
	m, err := maze.Model()
	if err != nil {
		t.Fatal(err)
	}
	goal, _ := maze.StateOfCell(Cell{X: 3, Y: 2})
	state := func(s int) *int { return &s }
	for _, c := range []struct {
		def   Task
		state *int
		cell  Cell
		want  int
		err   string
	}{
		{maze, state(1), Cell{}, 1, ""},
		{maze, nil, Cell{X: 2, Y: 1}, 1, ""},
		{maze, state(6), Cell{}, 0, "start_state = 6, but the task has 6 states"},
		{maze, state(-1), Cell{}, 0, "start_state = -1, but the task has 6 states"},
		{maze, nil, Cell{X: 9, Y: 9}, 0, "start_cell = (9,9) is not an open cell of the task"},
		{maze, state(goal), Cell{}, 0, fmt.Sprintf("the fixed start state %d is terminal", goal)},
		{Named{kind: KindRiverSwim}, nil, Cell{X: 1, Y: 1}, 0, "start_cell = (1,1) needs a grid task"},
	} {
		d := mdp.Dynamics(m)
		if _, isMaze := c.def.(Maze); !isMaze {
			if d, err = c.def.Model(); err != nil {
				t.Fatal(err)
			}
		}
		got, err := FixedStart(c.def, d, c.state, c.cell)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("FixedStart(%v, %v) = %d, %v; want %d", c.state, c.cell, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("FixedStart(%v, %v): error %v, want %q", c.state, c.cell, err, c.err)
		}
	}
	if _, ok := LargeOnDemand(Maze{Width: 256, Height: 255, Actions: 4}); ok {
		t.Error("a maze of fewer than OnDemandPairs pairs is computed on demand")
	}
	if _, ok := LargeOnDemand(Maze{Width: 256, Height: 256, Actions: 4}); !ok {
		t.Error("a maze of OnDemandPairs pairs is not computed on demand")
	}
}
