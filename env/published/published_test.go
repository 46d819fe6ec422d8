package published

import (
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/env"
)

// TestPublishedSequences checks what the published files hold against their descriptions: 30
// runs each, the task counts and sizes of each experiment, the constants the reader fills in.
func TestPublishedSequences(t *testing.T) {
	want := []string{"finite-model-grid-4x4", "online-maze-4x4", "varying-size-20", "varying-size-80"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, c := range []struct {
		name  string
		tasks int
		sizes []int // width of the mazes, in order of their blocks
	}{
		{"online-maze-4x4", 100, []int{4}},
		{"finite-model-grid-4x4", 50, []int{4}},
		{"varying-size-20", 20, []int{3, 4, 5, 6}},
		{"varying-size-80", 80, []int{3, 4, 5, 6}},
	} {
		set, err := Open(Prefix + c.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Runs) != 30 {
			t.Errorf("%s: %d runs, want 30", c.name, len(set.Runs))
		}
		for r, seq := range set.Runs {
			if len(seq) != c.tasks {
				t.Fatalf("%s run %d: %d tasks, want %d", c.name, r, len(seq), c.tasks)
			}
			block := c.tasks / len(c.sizes)
			for k, task := range seq {
				m := task.(env.Maze)
				if w := c.sizes[k/block]; m.Width != w || m.Height != w {
					t.Fatalf("%s run %d task %d: %d×%d, want %d×%d", c.name, r, k, m.Width, m.Height, w, w)
				}
				if m.StepCost != 0.2 || m.GoalReward != 1 || m.Actions != 4 {
					t.Fatalf("%s run %d task %d: step cost %v, goal reward %v, %d actions; want 0.2, 1, 4",
						c.name, r, k, m.StepCost, m.GoalReward, m.Actions)
				}
			}
		}
	}
}

func TestReadUnknownName(t *testing.T) {
	_, err := Open(Prefix + "online-maze")
	if err == nil || !strings.Contains(err.Error(), `"online-maze"`) || !strings.Contains(err.Error(), "online-maze-4x4") {
		t.Fatalf("err = %v, want one naming the unknown sequence and the published ones", err)
	}
}
