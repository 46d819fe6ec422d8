package experiment

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
)

// metric returns the named metric of a task record, or −1.
func metric(rec results.TaskRecord, name string) float64 {
	for _, m := range rec.Metrics {
		if m.Name == name {
			return m.Value
		}
	}
	return -1
}

// On a grid whose goal is terminal and pays 1 (no step cost), an episode ends at the goal, so a
// task's reward is exactly its number of terminated episodes, and every learner records how
// many episodes terminated and how many were truncated at the step limit.
func TestEpisodesEndAtTerminalStates(t *testing.T) {
	s, err := Parse([]byte(`
name: episodic
runs: 2
episodes: 200
steps: 30
start: fixed
tasks:
  family: grid
  width: 3
  height: 3
  goals: [[3, 3]]
  count: 2
agents:
  - type: rmax
    m: 20
  - type: o-temple
    m: 20
    m_s: 5
  - type: q-learning
  - type: delayed-q
  - type: abs-rl
`))
	if err != nil {
		t.Fatal(err)
	}
	results := buildAndRun(t, s, 2)
	for _, c := range results {
		for _, rec := range c.Tasks {
			term, trunc := metric(rec, "terminated_episodes"), metric(rec, "truncated_episodes")
			if term < 0 || trunc < 0 || term+trunc != 200 {
				t.Fatalf("%s run %d task %d: terminated %v + truncated %v, want 200 episodes", c.Agent, c.Run, rec.Task, term, trunc)
			}
			if rec.Reward != term {
				t.Errorf("%s run %d task %d: reward %v, want one per terminated episode (%v)", c.Agent, c.Run, rec.Task, rec.Reward, term)
			}
			// An episode that terminates is at least 4 steps long (the shortest path from (1,1)).
			if max := int(term)*30 + int(trunc)*30; rec.Steps > max || rec.Steps < int(term)*4+int(trunc)*30 {
				t.Errorf("%s run %d task %d: %d steps for %v terminated and %v truncated episodes", c.Agent, c.Run, rec.Task, rec.Steps, term, trunc)
			}
		}
		// RMax with m = 20 knows the 3×3 grid well before its 200 episodes are over.
		if c.Agent == "RMax" && metric(c.Tasks[0], "terminated_episodes") < 150 {
			t.Errorf("RMax reached the goal in only %v of 200 episodes", metric(c.Tasks[0], "terminated_episodes"))
		}
	}
}

// A mixed sequence of mazes of different sizes and action counts runs through O-TempLe, and the
// templates of the first tasks carry over to the others: pairs of the later tasks are matched to
// library templates and augmented.
func TestMixedSequenceCarriesTemplatesAcrossFamilies(t *testing.T) {
	s, err := Parse([]byte(`
name: mixed
runs: 1
episodes: 300
tasks:
  family: mixed
  parts:
    - family: online-maze
      count: 2
      pool: 2
    - family: grid
      width: 5
      height: 5
      slip: 0.4
      goals: [[5, 5]]
      terminal_goals: false
      step_cost: 0.2
    - family: fourroom
      slip: 0.2
      step_cost: 0.2
      actions: 8
agents:
  - type: o-temple
`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), p, results.At(t.TempDir()), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	tasks := results[0].Tasks
	if len(tasks) != 4 || tasks[0].States != 16 || tasks[2].States != 25 || tasks[3].States != 81 || tasks[3].Actions != 8 {
		t.Fatalf("tasks %+v", tasks)
	}
	for k := 2; k < 4; k++ {
		if a := metric(tasks[k], "augmented_pairs"); a < 1 {
			t.Errorf("task %d (%s): %v pairs augmented from the library, want some", k, p.Runs[0][k].Def.Name(), a)
		}
	}
}

// The example family of a user's own MDPs runs through the experiment, and its tasks.json holds
// the models themselves: read back as a task-sequence file they give the same results.
func TestCustomMDPExampleRunsAndRoundTrips(t *testing.T) {
	for _, file := range []string{"../examples/custom-mdp/inventory.json", "../examples/custom-mdp/inventory.yaml"} {
		s, err := Parse([]byte("name: inventory\nruns: 2\nepisodes: 100\nsteps: 20\ntasks:\n  family: custom\n  file: " + file +
			"\nagents:\n  - type: o-temple\n    m: 50\n    m_s: 10\n  - type: q-learning\n"))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := Execute(context.Background(), s, dir, 2, nil); err != nil {
			t.Fatal(err)
		}
		again := s
		again.Tasks = families.FromFile(filepath.Join(dir, "tasks.json"))
		dir2 := t.TempDir()
		if _, err := Execute(context.Background(), again, dir2, 2, nil); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(filepath.Join(dir, "per_task.csv"))
		b, _ := os.ReadFile(filepath.Join(dir2, "per_task.csv"))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: the tasks read back from tasks.json gave other results:\n%s\n%s", file, a, b)
		}
	}
}
