package env

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// publishedDir holds the published task sequences that env/published embeds, relative to this
// package.
const publishedDir = "published/data"

func published(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(publishedDir, name)
}

func readPublished(t *testing.T, name string) SequenceSet {
	t.Helper()
	set, err := ReadSequences(published(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func sampleSet() SequenceSet {
	return SequenceSet{Format: SequenceFormat, Description: "two runs", Runs: []Sequence{
		{
			Maze{Width: 2, Height: 2, Slip: []float64{0, 0.2, 0.4, 0.1234567890123}, Goals: []Cell{{2, 2}}, Lava: []Cell{{1, 2}},
				StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4},
			Maze{Width: 3, Height: 2, Slip: []float64{0, 0, 0, 1, 1, 1}, Walls: []Cell{{2, 1}},
				StepCost: -0.5, GoalReward: 2, LavaCost: 0, Actions: 8},
		},
		{Maze{Width: 1, Height: 2, Slip: []float64{0.3, 0.7}, Goals: []Cell{{1, 1}, {1, 2}}, StepCost: 0.1, GoalReward: 1, Actions: 4}},
	}}
}

func TestCellJSON(t *testing.T) {
	b, err := json.Marshal([]Cell{{3, 4}})
	if err != nil || string(b) != "[[3,4]]" {
		t.Fatalf("marshal = %s, %v; want [[3,4]]", b, err)
	}
	var c Cell
	if err := json.Unmarshal([]byte(" [ 2 , 5 ] "), &c); err != nil || c != (Cell{2, 5}) {
		t.Fatalf("unmarshal = %v, %v", c, err)
	}
	for _, bad := range []string{`null`, `[1]`, `[1,2,3]`, `[1.5,2]`, `{"X":1,"Y":2}`, `"1,2"`} {
		if err := json.Unmarshal([]byte(bad), &c); err == nil || !strings.Contains(err.Error(), "want [x, y]") {
			t.Errorf("unmarshal %s: err = %v, want a [x, y] error", bad, err)
		}
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "tasks.json")
	set := sampleSet()
	if err := WriteSequences(path, set); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSequences(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, set) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, set)
	}
	// Deterministic bytes, and an empty Format is written as ours.
	first, _ := os.ReadFile(path)
	set.Format = ""
	path2 := filepath.Join(dir, "again.json")
	if err := WriteSequences(path2, set); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(path2)
	if !bytes.Equal(first, second) {
		t.Fatalf("same input gave different bytes:\n%s\n%s", first, second)
	}
	if !json.Valid(first) || !bytes.Contains(first, []byte(`"format": "temple-task-sequences/v2"`)) {
		t.Fatalf("output is not the expected JSON:\n%s", first)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("write left extra files: %v", entries)
	}
}

func TestWriteSequencesErrors(t *testing.T) {
	dir := t.TempDir()
	bad := sampleSet()
	bad.Runs[1][0] = Maze{Width: 1, Height: 2, Slip: []float64{0.3}, Actions: 4}
	cases := []struct {
		name string
		set  SequenceSet
		want string
	}{
		{"invalid maze", bad, "run 1, task 0: maze: 1 slip probabilities"},
		{"format", SequenceSet{Format: "v0", Runs: sampleSet().Runs}, `format = "v0"`},
		{"no runs", SequenceSet{}, "no task sequences"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".json")
		err := WriteSequences(path, c.set)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err = %v, want it to name %s and contain %q", c.name, err, path, c.want)
		}
	}
	// The parent is a file: the error names the path.
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	path := filepath.Join(file, "tasks.json")
	if err := WriteSequences(path, sampleSet()); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want an error naming %s", err, path)
	}
}

func TestReadSequencesErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	maze := `{"width":2,"height":1,"slip":[0,0],"step_cost":0.2,"goal_reward":1,"lava_cost":1,"actions":4`
	cases := []struct{ name, text, want string }{
		{"unknown-key.json", `{"format":"temple-task-sequences/v1","runs":[[` + maze + `,"colour":"red"}]]}`, `"colour"`},
		{"unknown-top.json", `{"format":"temple-task-sequences/v1","extra":1,"runs":[[` + maze + `}]]}`, `"extra"`},
		{"malformed.json", `{"format":"temple-task-sequences/v1","runs":[[`, "invalid JSON: unexpected end"},
		{"version.json", `{"format":"temple-task-sequences/v9","runs":[]}`, `format = "temple-task-sequences/v9"`},
		{"layout.json", `{"tasks":[]}`, "unknown layout with keys tasks"},
		{"invalid-maze.json", `{"format":"temple-task-sequences/v1","runs":[[` + maze + `},` + maze + `,"goals":[[3,1]]}]]}`,
			"run 0, task 1: maze: goal cell (3,1) is outside the 2x1 maze"},
		{"bad-cell.json", `{"format":"temple-task-sequences/v1","runs":[[` + maze + `,"goals":[[1,1,1]]}]]}`, "want [x, y]"},
		{"empty.json", `{"format":"temple-task-sequences/v1","runs":[]}`, "no task sequences"},
		{"trailing.json", `{"format":"temple-task-sequences/v1","runs":[[` + maze + `}]]} {}`, "invalid JSON: invalid character"},
		{"online-slips.json", `{"width":2,"height":2,"runs":[[[0,0,0,0]],[[0,0,0,0],[0,0.5,0]]]}`,
			"run 1, task 1: maze: 3 slip probabilities"},
		{"online-prob.json", `{"width":2,"height":2,"runs":[[[0,0,0,1.5]]]}`, "run 0, task 0: maze: slip of cell (2,2) is 1.5"},
		{"grid-goal.json", `{"width":4,"height":4,"slip":0.4,"runs":[[[1,1],[5,1]]]}`, "run 0, task 1: maze: goal cell (5,1) is outside"},
		{"grid-cell.json", `{"width":4,"height":4,"slip":0.4,"runs":[[[1,1]],[[2]]]}`, "run 1, task 0: env: cell [2]"},
		{"grid-extra.json", `{"width":4,"height":4,"slip":0.4,"runs":[[[1,1]]],"lava":[]}`, "unknown layout"},
		{"varying-square.json", `{"runs":[[[0,0,0,0]],[[0,0,0,0],[0,0,0,0,0]]]}`, "run 1, task 1: 5 slip probabilities, want a square"},
		{"varying-single.json", `{"runs":[[[0]]]}`, "run 0, task 0: maze: a 1x1 maze has a single cell"},
	}
	for _, c := range cases {
		path := write(c.name, c.text)
		_, err := ReadSequences(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err = %v\nwant it to name the file and contain %q", c.name, err, c.want)
		}
	}
	missing := filepath.Join(dir, "missing.json")
	if _, err := ReadSequences(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v, want it to name %s", err, missing)
	}
}

// paperValues checks that every slip of the set is exactly 0, 0.2 or 0.4 (the published generator).
func paperValues(t *testing.T, set SequenceSet) {
	t.Helper()
	for r, seq := range set.Runs {
		for k, m := range mazesOf(t, seq) {
			for _, p := range m.Slip {
				if p != 0 && p != 0.2 && p != 0.4 {
					t.Fatalf("run %d task %d: slip %v, want 0, 0.2 or 0.4", r, k, p)
				}
			}
		}
	}
}

func TestReadPublishedOnlineMazes(t *testing.T) {
	set := readPublished(t, "online-maze-4x4.json")
	if len(set.Runs) != 30 {
		t.Fatalf("%d runs, want 30", len(set.Runs))
	}
	for r, seq := range set.Runs {
		if len(seq) != 100 {
			t.Fatalf("run %d has %d tasks, want 100", r, len(seq))
		}
	}
	paperValues(t, set)
	want := Maze{Width: 4, Height: 4, Slip: []float64{0.2, 0.2, 0.2, 0.4, 0, 0.2, 0.4, 0.4, 0.4, 0, 0, 0, 0, 0.2, 0.4, 0.2},
		Goals: []Cell{{4, 4}}, Lava: []Cell{{2, 2}}, StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: 4}
	if got := set.Runs[0][0]; !reflect.DeepEqual(got, want) {
		t.Fatalf("run 0 task 0 = %+v\nwant %+v", got, want)
	}
	if set.Format != SequenceFormat || set.Description == "" || set.Runs[0].NeedsGoals() {
		t.Fatalf("format %q, description %q, needs goals %v", set.Format, set.Description, set.Runs[0].NeedsGoals())
	}
	// Pool of 100 drawn with replacement: 58–69 distinct tasks per run (the published generator).
	for r, seq := range set.Runs {
		if d := distinctSlips(mazesOf(t, seq)); d < 58 || d > 69 {
			t.Errorf("run %d: %d distinct tasks, want 58..69", r, d)
		}
	}
}

func TestReadPublishedFiniteModelGrids(t *testing.T) {
	set := readPublished(t, "finite-model-grid-4x4.json")
	if len(set.Runs) != 30 {
		t.Fatalf("%d runs, want 30", len(set.Runs))
	}
	wantStart := []Cell{{3, 4}, {4, 4}, {3, 4}}
	for k, c := range wantStart {
		if g := mazesOf(t, set.Runs[0])[k].Goals; len(g) != 1 || g[0] != c {
			t.Fatalf("run 0 task %d goals %v, want [%v]", k, g, c)
		}
	}
	for r, seq := range set.Runs {
		if len(seq) != 50 {
			t.Fatalf("run %d has %d tasks, want 50", r, len(seq))
		}
		if g := distinctGoals(mazesOf(t, seq)); len(g) != 2 {
			t.Errorf("run %d: distinct goals %v, want exactly 2", r, g)
		}
		for k, m := range mazesOf(t, seq) {
			if len(m.Lava) != 0 || m.Width != 4 || m.Height != 4 || m.Actions != 4 || m.StepCost != 0.2 || m.GoalReward != 1 || m.LavaCost != 1 {
				t.Fatalf("run %d task %d: %+v", r, k, m)
			}
			for _, p := range m.Slip {
				if p != 0.4 {
					t.Fatalf("run %d task %d: slip %v, want 0.4 everywhere", r, k, p)
				}
			}
		}
	}
}

func TestReadPublishedVaryingSize(t *testing.T) {
	for _, c := range []struct {
		file    string
		perSize int
	}{{"varying-size-20.json", 5}, {"varying-size-80.json", 20}} {
		set := readPublished(t, c.file)
		paperValues(t, set)
		if len(set.Runs) != 30 {
			t.Fatalf("%s: %d runs, want 30", c.file, len(set.Runs))
		}
		for r, seq := range set.Runs {
			if len(seq) != 4*c.perSize {
				t.Fatalf("%s run %d: %d tasks, want %d", c.file, r, len(seq), 4*c.perSize)
			}
			for k, m := range mazesOf(t, seq) {
				n := 3 + k/c.perSize
				if m.Width != n || m.Height != n || len(m.Goals) != 0 || len(m.Lava) != 0 || m.Actions != 4 || m.StepCost != 0.2 {
					t.Fatalf("%s run %d task %d: %dx%d goals %v lava %v, want %dx%d without goal or lava",
						c.file, r, k, m.Width, m.Height, m.Goals, m.Lava, n, n)
				}
			}
			if !seq.NeedsGoals() {
				t.Fatalf("%s run %d: NeedsGoals = false", c.file, r)
			}
		}
		if c.perSize != 20 {
			continue
		}
		seq := set.Runs[0]
		filled := DrawGoals(testRand(7), seq)
		if filled.NeedsGoals() || !seq.NeedsGoals() {
			t.Fatalf("after DrawGoals NeedsGoals = %v, original %v; want false, true", filled.NeedsGoals(), seq.NeedsGoals())
		}
		original := mazesOf(t, seq)
		for k, m := range mazesOf(t, filled) {
			if err := m.Validate(); err != nil || len(m.Goals) != 1 {
				t.Fatalf("task %d: goals %v, %v", k, m.Goals, err)
			}
			if !reflect.DeepEqual(m.Slip, original[k].Slip) {
				t.Fatalf("task %d: DrawGoals changed the slips", k)
			}
		}
	}
}

func distinctSlips(seq []Maze) int {
	seen := map[string]bool{}
	for _, m := range seq {
		b, _ := json.Marshal(m.Slip)
		seen[string(b)] = true
	}
	return len(seen)
}

func distinctGoals(seq []Maze) []Cell {
	var out []Cell
	for _, m := range seq {
		for _, g := range m.Goals {
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out
}
