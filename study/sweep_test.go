package study

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/experiment"
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
	s, err := experiment.Parse([]byte(sweepConfig))
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
	byHand, err := experiment.Parse([]byte(strings.NewReplacer("count: 3", "count: 3\n  pool: 3", "type: o-temple", "type: o-temple\n    m_s: 20").
		Replace(strings.Split(sweepConfig, "sweep:")[0])))
	if err != nil {
		t.Fatal(err)
	}
	byHand.Name = "grid m_s=20 tasks.pool=3"
	hand := t.TempDir()
	if _, err := experiment.Execute(context.Background(), byHand, hand, 2, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "m_s-20__tasks.pool-3", "per_task.csv"))
	want, _ := os.ReadFile(filepath.Join(hand, "per_task.csv"))
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Errorf("the sweep point differs from the same experiment by hand:\n%s\n%s", got, want)
	}
}
