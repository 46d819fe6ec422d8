package env

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

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
