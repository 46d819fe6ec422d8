package toytext

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// outcomes returns a row as next state → (probability, reward).
func outcomes(row []mdp.Transition) map[int][2]float64 {
	out := map[int][2]float64{}
	for _, t := range row {
		out[t.Next] = [2]float64{t.Prob, t.Reward}
	}
	return out
}

func sameOutcomes(got, want map[int][2]float64) bool {
	if len(got) != len(want) {
		return false
	}
	for n, w := range want {
		g, ok := got[n]
		if !ok || math.Abs(g[0]-w[0]) > 1e-12 || g[1] != w[1] {
			return false
		}
	}
	return true
}

func mustLake(t *testing.T, p FrozenLakeParams) *mdp.Model {
	t.Helper()
	m, err := FrozenLake(p)
	if err != nil {
		t.Fatalf("FrozenLake(%+v): %v", p, err)
	}
	return m
}

// The preset maps as printed in Gymnasium's FrozenLakeEnv docstring (v1.2.3), with their holes
// and goal counted by hand as states row*ncol + col.
func TestFrozenLakePresetMaps(t *testing.T) {
	cases := []struct {
		name  string
		desc  []string
		holes []int
		goal  int
	}{
		{"4x4", []string{"SFFF", "FHFH", "FFFH", "HFFG"}, []int{5, 7, 11, 12}, 15},
		{"8x8", []string{
			"SFFFFFFF",
			"FFFFFFFF",
			"FFFHFFFF",
			"FFFFFHFF",
			"FFFHFFFF",
			"FHHFFFHF",
			"FHFFHFHF",
			"FFFHFFFG",
		}, []int{19, 29, 35, 41, 42, 46, 49, 52, 54, 59}, 63},
	}
	for _, c := range cases {
		l, err := FrozenLakeParams{Map: c.name}.Lake()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(l.Desc(), c.desc) {
			t.Errorf("%s: map %q, want %q", c.name, l.Desc(), c.desc)
		}
		var holes []int
		goal := -1
		for s := 0; s < l.Rows()*l.Cols(); s++ {
			switch l.Letter(s) {
			case 'H':
				holes = append(holes, s)
			case 'G':
				goal = s
			}
		}
		if !slices.Equal(holes, c.holes) || goal != c.goal {
			t.Errorf("%s: holes %v goal %d, want %v and %d", c.name, holes, goal, c.holes, c.goal)
		}
	}
}

func TestLakeCells(t *testing.T) {
	l, err := FrozenLakeParams{Map: "8x8"}.Lake()
	if err != nil {
		t.Fatal(err)
	}
	if s := l.State(2, 3); s != 19 {
		t.Errorf("State(2, 3) = %d, want 19", s)
	}
	if r, c := l.Cell(46); r != 5 || c != 6 {
		t.Errorf("Cell(46) = (%d, %d), want (5, 6)", r, c)
	}
	if got := l.CellName(19); got != "(2,3) H" {
		t.Errorf("CellName(19) = %q, want \"(2,3) H\"", got)
	}
	// Desc is a copy: changing it leaves the lake alone.
	d := l.Desc()
	d[0] = "HHHHHHHH"
	if l.Letter(0) != 'S' {
		t.Error("changing Desc() changed the lake")
	}
}

// Rows checked by hand on the 4x4 map (SFFF / FHFH / FFFH / HFFG). Slippery, action a moves in
// directions a−1, a, a+1 (mod 4), 1/3 each; a move off the map stays.
func TestFrozenLakeRows(t *testing.T) {
	third := 1.0 / 3
	cases := []struct {
		name     string
		slippery bool
		s, a     int
		want     map[int][2]float64
	}{
		{"start left, against the edge", false, 0, Left, map[int][2]float64{0: {1, 0}}},
		{"start down", false, 0, Down, map[int][2]float64{4: {1, 0}}},
		{"start right", false, 0, Right, map[int][2]float64{1: {1, 0}}},
		{"start up, against the edge", false, 0, Up, map[int][2]float64{0: {1, 0}}},
		// left slips up (stays) or down: the two stays merge.
		{"slippery start left", true, 0, Left, map[int][2]float64{0: {2 * third, 0}, 4: {third, 0}}},
		{"slippery start down", true, 0, Down, map[int][2]float64{0: {third, 0}, 4: {third, 0}, 1: {third, 0}}},
		{"slippery start right", true, 0, Right, map[int][2]float64{4: {third, 0}, 1: {third, 0}, 0: {third, 0}}},
		{"slippery start up", true, 0, Up, map[int][2]float64{1: {third, 0}, 0: {2 * third, 0}}},
		// (0,1) lies above the hole (1,1) = state 5.
		{"into the hole", false, 1, Down, map[int][2]float64{5: {1, 0}}},
		{"slippery next to the hole", true, 1, Down, map[int][2]float64{0: {third, 0}, 5: {third, 0}, 2: {third, 0}}},
		{"slippery beside the hole, up", true, 4, Up, map[int][2]float64{0: {third, 0}, 5: {third, 0}, 4: {third, 0}}},
		// (3,2) = state 14 lies left of the goal 15; the row into G pays 1.
		{"into the goal", false, 14, Right, map[int][2]float64{15: {1, 1}}},
		{"slippery toward the goal", true, 14, Right, map[int][2]float64{14: {third, 0}, 15: {third, 1}, 10: {third, 0}}},
		{"slippery right toward the hole (2,3)", true, 10, Right, map[int][2]float64{14: {third, 0}, 11: {third, 0}, 6: {third, 0}}},
		// Terminal states are absorbing with reward 0.
		{"hole is absorbing", false, 5, Right, map[int][2]float64{5: {1, 0}}},
		{"goal is absorbing", true, 15, Left, map[int][2]float64{15: {1, 0}}},
	}
	for _, c := range cases {
		m := mustLake(t, FrozenLakeParams{Map: "4x4", Slippery: c.slippery})
		if got := outcomes(m.Row(c.s, c.a)); !sameOutcomes(got, c.want) {
			t.Errorf("%s: row (%d, %s) = %v, want %v", c.name, c.s, FrozenLakeActionNames[c.a], got, c.want)
		}
	}
}

func TestFrozenLakeTerminalAndStart(t *testing.T) {
	cases := []struct {
		p        FrozenLakeParams
		terminal []int
		start    map[int]float64
	}{
		{FrozenLakeParams{Map: "4x4"}, []int{5, 7, 11, 12, 15}, map[int]float64{0: 1}},
		{FrozenLakeParams{Map: "8x8", Slippery: true}, []int{19, 29, 35, 41, 42, 46, 49, 52, 54, 59, 63}, map[int]float64{0: 1}},
		// Two start cells: uniform over them, as Gymnasium's initial_state_distrib.
		{FrozenLakeParams{Desc: []string{"SFH", "FSF", "HFG"}, Slippery: true}, []int{2, 6, 8}, map[int]float64{0: 0.5, 4: 0.5}},
		// A lake with no goal is allowed, as in Gymnasium; it pays nothing.
		{FrozenLakeParams{Desc: []string{"SH"}}, []int{1}, map[int]float64{0: 1}},
	}
	for _, c := range cases {
		m := mustLake(t, c.p)
		var terminal []int
		for s := 0; s < m.S; s++ {
			if m.Terminal(s) {
				terminal = append(terminal, s)
			}
		}
		if !slices.Equal(terminal, c.terminal) {
			t.Errorf("%+v: terminal states %v, want %v", c.p, terminal, c.terminal)
		}
		for s, p := range m.StartDistribution() {
			if math.Abs(p-c.start[s]) > 1e-15 {
				t.Errorf("%+v: start probability of %d is %v, want %v", c.p, s, p, c.start[s])
			}
		}
	}
}

func TestFrozenLakeErrors(t *testing.T) {
	cases := []struct {
		p    FrozenLakeParams
		want string
	}{
		{FrozenLakeParams{Map: "5x5"}, `Map = "5x5"`},
		{FrozenLakeParams{}, "Desc has no rows"},
		{FrozenLakeParams{Desc: []string{}}, "Desc has no rows"},
		{FrozenLakeParams{Map: "4x4", Desc: []string{"SG"}}, `both Map ("4x4") and Desc`},
		{FrozenLakeParams{Desc: []string{""}}, "Desc row 0 is empty"},
		{FrozenLakeParams{Desc: []string{"SFF", "FG"}}, `Desc row 1 is "FG" with 2 cells, want 3`},
		{FrozenLakeParams{Desc: []string{"SF", "FX"}}, `Desc row 1 column 1 is 'X'`},
		{FrozenLakeParams{Desc: []string{"sF", "FG"}}, `Desc row 0 column 0 is 's'`},
		{FrozenLakeParams{Desc: []string{"FF", "FG"}}, "no start cell 'S'"},
	}
	for _, c := range cases {
		_, err := FrozenLake(c.p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FrozenLake(%+v) error %v, want one containing %q", c.p, err, c.want)
		}
	}
}

// Ground truth from the exact solver. Not slippery, the optimal return from a cell at d steps
// from the goal is γ^(d−1): the reward 1 comes on the d-th step. On the 4x4 map the shortest path
// from S is 6 steps (down, down, right, right, down, right avoids the holes), so V*(0) = γ^5; on
// the 8x8 map the top row and the right column are free of holes, 14 steps, so V*(0) = γ^13.
func TestFrozenLakeOptimalValues(t *testing.T) {
	const gamma = 0.9
	cases := []struct {
		p    FrozenLakeParams
		s    int
		want float64
	}{
		{FrozenLakeParams{Map: "4x4"}, 0, math.Pow(gamma, 5)},
		{FrozenLakeParams{Map: "4x4"}, 14, 1},
		{FrozenLakeParams{Map: "4x4"}, 5, 0},  // a hole
		{FrozenLakeParams{Map: "4x4"}, 15, 0}, // the goal: terminal, value 0
		{FrozenLakeParams{Map: "8x8"}, 0, math.Pow(gamma, 13)},
		{FrozenLakeParams{Map: "8x8"}, 55, 1},
		// Slippery "SG": every action but left reaches G with 1/3 and otherwise stays, so
		// V* = 1/3 + (2/3)·γ·V*, V* = 1/(3 − 2γ).
		{FrozenLakeParams{Desc: []string{"SG"}, Slippery: true}, 0, 1 / (3 - 2*gamma)},
		{FrozenLakeParams{Map: "4x4", Slippery: true}, 15, 0},
		{FrozenLakeParams{Map: "4x4", Slippery: true}, 12, 0},
	}
	for _, c := range cases {
		sol, err := mdp.ValueIteration(mustLake(t, c.p), gamma, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(sol.V[c.s]-c.want) > 1e-9 {
			t.Errorf("%+v: V*(%d) = %v, want %v", c.p, c.s, sol.V[c.s], c.want)
		}
	}
}
