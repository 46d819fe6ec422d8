package families

import (
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/env"
)

func TestFourRoomWallsOfTheNineByNineGrid(t *testing.T) {
	walls := fourRoomWalls(9)
	// Row 5 and column 5, except the doorways at 3 and 7 on each (simple_rl, Python 2 division).
	var want []env.Cell
	for x := 1; x <= 9; x++ {
		if x != 3 && x != 7 {
			want = append(want, env.Cell{X: x, Y: 5})
		}
	}
	for _, y := range []int{1, 2, 4, 6, 8, 9} {
		want = append(want, env.Cell{X: 5, Y: y})
	}
	if !slices.Equal(walls, want) {
		t.Fatalf("walls %v\nwant %v", walls, want)
	}
	seq, err := (&FourRoomParams{Size: 9, Tasks: 2, GoalRewards: env.GoalRewards{GoalReward: 1}, TerminalGoals: true}).Sequence(0, nil)
	if err != nil || len(seq) != 2 {
		t.Fatalf("fourroom: %v tasks, %v", len(seq), err)
	}
	room := seq[0].(env.Maze)
	m, err := room.Model()
	if err != nil {
		t.Fatal(err)
	}
	// Every open cell reaches the goal: the four doorways connect the four rooms.
	goal := room.Index(env.Cell{X: 9, Y: 9})
	reached := map[int]bool{room.Index(env.Cell{X: 1, Y: 1}): true}
	for frontier := []int{room.Index(env.Cell{X: 1, Y: 1})}; len(frontier) > 0; frontier = frontier[1:] {
		s := frontier[0]
		for a := range m.A {
			for _, tr := range m.Row(s, a) {
				if !reached[tr.Next] {
					reached[tr.Next] = true
					frontier = append(frontier, tr.Next)
				}
			}
		}
	}
	if !reached[goal] || len(reached) != 81-len(walls) {
		t.Fatalf("from (1,1) %d cells are reachable, goal %v; want all %d open cells", len(reached), reached[goal], 81-len(walls))
	}
	if !m.Terminal(goal) || m.StartDistribution()[goal] != 0 {
		t.Fatal("the goal of FourRoom is not terminal or can be a start state")
	}
	// Landing on the goal pays goal_reward − step_cost = 1; nothing else pays.
	if r := m.Row(room.Index(env.Cell{X: 8, Y: 9}), env.Right); len(r) != 1 || r[0].Next != goal || r[0].Reward != 1 {
		t.Fatalf("(8,9) right: %v", r)
	}
}

func TestGridConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  GridParams
		want string
	}{
		{GridParams{Width: 3, Height: 3, Tasks: 0}, "count = 0"},
		{GridParams{Width: 3, Height: 3, Tasks: 1, Slip: 2}, "slip = 2"},
		{GridParams{Width: 3, Height: 3, Tasks: 1, TerminalGoals: true}, "terminal_goals is set but the maze has no goal"},
		{GridParams{Width: 2, Height: 1, Tasks: 1, Goals: []env.Cell{{X: 1, Y: 1}, {X: 2, Y: 1}}, TerminalGoals: true}, "every open cell is a terminal goal"},
		{GridParams{Width: 3, Height: 3, Tasks: 1, Goals: []env.Cell{{X: 4, Y: 1}}}, "goal cell (4,1) is outside"},
	} {
		if _, err := c.cfg.Sequence(0, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.cfg, err, c.want)
		}
	}
}
