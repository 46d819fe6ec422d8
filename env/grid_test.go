package env

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestFourRoomWallsOfTheNineByNineGrid(t *testing.T) {
	walls := FourRoomWalls(9)
	// Row 5 and column 5, except the doorways at 3 and 7 on each (simple_rl, Python 2 division).
	var want []Cell
	for x := 1; x <= 9; x++ {
		if x != 3 && x != 7 {
			want = append(want, Cell{x, 5})
		}
	}
	for _, y := range []int{1, 2, 4, 6, 8, 9} {
		want = append(want, Cell{5, y})
	}
	if !slices.Equal(walls, want) {
		t.Fatalf("walls %v\nwant %v", walls, want)
	}
	rooms, err := FourRooms(FourRoomConfig{Size: 9, Tasks: 2, GoalReward: 1, TerminalGoals: true})
	if err != nil || len(rooms) != 2 {
		t.Fatalf("FourRooms: %v tasks, %v", len(rooms), err)
	}
	m, err := rooms[0].Model()
	if err != nil {
		t.Fatal(err)
	}
	// Every open cell reaches the goal: the four doorways connect the four rooms.
	goal := rooms[0].Index(Cell{9, 9})
	reached := map[int]bool{rooms[0].Index(Cell{1, 1}): true}
	for frontier := []int{rooms[0].Index(Cell{1, 1})}; len(frontier) > 0; frontier = frontier[1:] {
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
	if r := m.Row(rooms[0].Index(Cell{8, 9}), Right); len(r) != 1 || r[0].Next != goal || r[0].Reward != 1 {
		t.Fatalf("(8,9) right: %v", r)
	}
}

func TestGridConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  GridConfig
		want string
	}{
		{GridConfig{Width: 3, Height: 3, Tasks: 0}, "count = 0"},
		{GridConfig{Width: 3, Height: 3, Tasks: 1, Slip: 2}, "slip = 2"},
		{GridConfig{Width: 3, Height: 3, Tasks: 1, TerminalGoals: true}, "terminal_goals is set but the maze has no goal"},
		{GridConfig{Width: 2, Height: 1, Tasks: 1, Goals: []Cell{{1, 1}, {2, 1}}, TerminalGoals: true}, "every open cell is a terminal goal"},
		{GridConfig{Width: 3, Height: 3, Tasks: 1, Goals: []Cell{{4, 1}}}, "goal cell (4,1) is outside"},
	} {
		if _, err := Grids(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.cfg, err, c.want)
		}
	}
}

func TestSequenceJSONNamesEachTasksFamily(t *testing.T) {
	seq := Mazes(Maze{Width: 2, Height: 1, Slip: []float64{0, 0.2}, Goals: []Cell{{2, 1}}, Actions: 4, TerminalGoals: true},
		Maze{Width: 1, Height: 2, Slip: []float64{0.5, 0.5}, Actions: 8, StepCost: 0.2})
	b, err := json.Marshal(seq)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), `[{"family":"maze","width":2`) || !strings.Contains(string(b), `"terminal_goals":true`) {
		t.Fatalf("JSON %s", b)
	}
	var back Sequence
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, seq) {
		t.Fatalf("round trip: %v, %v", back, err)
	}
	for _, c := range []struct{ text, want string }{
		{`[{"width":2}]`, `task 0: task has no "family" key`},
		{`[{"family":"maze","width":2,"height":1,"slip":[0,0],"actions":4},{"family":"chess"}]`, `task 1: task family "chess", want one of`},
		{`[{"family":"maze","wdth":2}]`, `task 0: maze task: json: unknown field "wdth"`},
		{`[{"family":7}]`, "task family 7 is not a string"},
		{`{"family":"maze"}`, "a task sequence is a JSON array"},
	} {
		if err := json.Unmarshal([]byte(c.text), &back); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.text, err, c.want)
		}
	}
}

func TestCellYAML(t *testing.T) {
	b, err := yaml.Marshal(struct{ Goals []Cell }{[]Cell{{3, 4}}})
	if err != nil || string(b) != "goals:\n    - [3, 4]\n" {
		t.Fatalf("marshal %q, %v", b, err)
	}
	var c struct{ Goals []Cell }
	if err := yaml.Unmarshal([]byte("goals: [[1, 2]]"), &c); err != nil || c.Goals[0] != (Cell{1, 2}) {
		t.Fatalf("unmarshal %v, %v", c, err)
	}
	if err := yaml.Unmarshal([]byte("goals:\n  - [1, x]\n"), &c); err == nil || !strings.Contains(err.Error(), "line 2: a cell is [x, y]") {
		t.Fatalf("bad cell: %v", err)
	}
}

func TestCustomTaskInASequence(t *testing.T) {
	text := `[{"family":"custom","name":"coin","states":2,"actions":1,"start":0,"terminal":[1],` +
		`"transitions":[{"state":0,"action":0,"outcomes":[{"next":0,"p":0.5,"r":0},{"next":1,"p":0.5,"r":1}]}]}]`
	var seq Sequence
	if err := json.Unmarshal([]byte(text), &seq); err != nil {
		t.Fatal(err)
	}
	m, err := seq[0].Model()
	if err != nil || seq[0].Kind() != KindCustom || seq[0].Name() != "coin" || m.S != 2 || !m.Terminal(1) {
		t.Fatalf("task %+v, model %v, %v", seq[0], m, err)
	}
	b, err := json.Marshal(seq)
	if err != nil {
		t.Fatal(err)
	}
	var back Sequence
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, seq) {
		t.Fatalf("round trip %s: %v", b, err)
	}
	bad := strings.Replace(text, `"p":0.5,"r":1`, `"p":0.6,"r":1`, 1)
	if err := json.Unmarshal([]byte(bad), &seq); err == nil || !strings.Contains(err.Error(), "task 0: custom task:") || !strings.Contains(err.Error(), "sum to 1.1") {
		t.Fatalf("probabilities that do not sum to 1: %v", err)
	}
}
