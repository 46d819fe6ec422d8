package experiment

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sweepConfig = `
name: grid
runs: 2
episodes: 60
tasks:
  family: online-maze
  count: 3
agents:
  - type: o-temple
  - type: q-learning
sweep:
  - parameter: m_s
    values: [10, 20]
  - parameter: tasks.pool
    values: [1, 3]
`

// A grid sweep over an agent parameter and a task parameter runs every combination, and each
// point is exactly the experiment written out by hand.
func TestSweepGridOfAgentAndTaskParameters(t *testing.T) {
	s, err := Parse([]byte(sweepConfig))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	points, err := ExecuteSweep(context.Background(), s, dir, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 8 {
		t.Fatalf("%d points, want 2 × 2 values × 2 agents", len(points))
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "sweep.csv"))
	if !strings.HasPrefix(string(csv), "m_s,tasks.pool,agent,mean_per_task_reward,ci95\n10,1,O-TempLe,") || !strings.Contains(string(csv), "\n20,3,Q-learning,") {
		t.Errorf("sweep.csv:\n%s", csv)
	}
	// The point m_s = 20, pool = 3 by hand.
	byHand, err := Parse([]byte(strings.Replace(strings.Split(sweepConfig, "sweep:")[0], "count: 3", "count: 3\n  pool: 3", 1) +
		"\n"))
	if err != nil {
		t.Fatal(err)
	}
	byHand.Agents[0].mustSet("m_s", 20)
	byHand.Name = "grid m_s=20 tasks.pool=3"
	hand := t.TempDir()
	if _, err := Execute(context.Background(), byHand, hand, 2, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "m_s-20__tasks.pool-3", "per_task.csv"))
	want, _ := os.ReadFile(filepath.Join(hand, "per_task.csv"))
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Errorf("the sweep point differs from the same experiment by hand:\n%s\n%s", got, want)
	}
}

func TestSweepErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"sweep:\n  - parameter: alpha_typo\n    values: [1]\n", `sweep[0]: no agent has parameter "alpha_typo"`},
		{"sweep:\n  - parameter: tasks.sd\n    values: [1]\n", `sweep[0]: family online-maze has no parameter "sd"`},
		{"sweep:\n  - parameter: tau\n    values: []\n", "sweep[0]: parameter tau has no values"},
		{"sweep:\n  - parameter: tau\n    values: [0.1]\n  - parameter: tau\n    values: [0.2]\n", `sweep[1]: parameter "tau" is swept twice`},
		{"sweep:\n  - parameter: tau\n    valus: [0.1]\n", `line 3: sweep[0] has no key "valus" (it has parameter, values); did you mean "values"?`},
		// Issue 51, case 14: values whose directories' names collide are refused before any run
		// (the second point was refused as another experiment's, and --force failed the same way).
		{"tasks:\n  family: custom\n  file: a.json\nsweep:\n  - parameter: tasks.file\n    values: [\"inv a.json\", \"inv_a.json\"]\n",
			`sweep[0]: values "inv a.json" and "inv_a.json" of tasks.file make the same directory name tasks.file-inv_a.json`},
		{"sweep:\n  - parameter: tau\n    values: [0.1, 0.2, 0.1]\n", `sweep[0]: value "0.1" of tau is given twice`},
	} {
		if _, err := Parse([]byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
	// A value of the wrong type fails when the point is built, naming the parameter and value.
	s, err := Parse([]byte("runs: 1\nsweep:\n  - parameter: m_s\n    values: [ten]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ExecuteSweep(context.Background(), s, t.TempDir(), 1, nil); err == nil || !strings.Contains(err.Error(), "sweep: m_s = ten") {
		t.Errorf("error %v", err)
	}
}
