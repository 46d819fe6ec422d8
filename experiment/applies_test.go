package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
)

// A learner that cannot apply to a family's tasks is refused when the config is checked, before
// any cell runs, naming the family and the reason: latent-psrl on the varying-size family (tasks
// of 9 and 16 states); the same config with RMax alone is accepted.
func TestCheckRefusesALearnerThatNeedsOneSize(t *testing.T) {
	config := func(agent string) Spec {
		s, err := Parse([]byte(`
runs: 2
episodes: 3
steps: 10
tasks: {family: varying-size, sizes: [3, 4], per_size: 2}
agents:
  - {type: rmax}
` + agent))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if err := Check(config("")); err != nil {
		t.Fatalf("RMax on varying sizes: %v", err)
	}
	err := Check(config("  - {type: latent-psrl}\n"))
	for _, want := range []string{"agents[1] (Latent-PSRL): agent type latent-psrl needs every task of a run to have the same numbers of states and of actions",
		"its posterior is over whole task models", "family varying-size gives run 0 task 0 (maze 3x3) 9 states and 4 actions and task 2 (maze 4x4) 16 states"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("latent-psrl on varying sizes: error %v, want one containing %q", err, want)
		}
	}
	dir := t.TempDir()
	if _, err := Execute(t.Context(), config("  - {type: latent-psrl}\n"), dir, 1, nil); err == nil {
		t.Errorf("Execute ran latent-psrl on varying sizes")
	}
	if cells, _ := os.ReadDir(filepath.Join(dir, "cells")); len(cells) > 0 {
		t.Errorf("a refused config left %d cells", len(cells))
	}
}

// Every type that declares it needs tasks of one size (agenttypes.Type.Needs) is refused on
// varying sizes, and accepted on tasks of one size (the finite-model family).
func TestEveryTypeThatNeedsOneSizeIsRefused(t *testing.T) {
	for _, typ := range agenttypes.Types() {
		if !typ.Needs.SameStates && !typ.Needs.SameActions {
			continue
		}
		t.Run(typ.Name, func(t *testing.T) {
			for _, c := range []struct {
				family  string
				refused bool
			}{{"{family: varying-size, sizes: [3, 4], per_size: 1}", true}, {"{family: finite-model, count: 2}", false}} {
				s, err := Parse([]byte("runs: 1\nepisodes: 2\nsteps: 5\ntasks: " + c.family + "\nagents:\n  - {type: " + typ.Name + "}\n"))
				if err != nil {
					t.Fatal(err)
				}
				err = Check(s)
				if refused := err != nil && strings.Contains(err.Error(), "needs every task of a run to have"); refused != c.refused {
					t.Errorf("%s: error %v, want refused %v", c.family, err, c.refused)
				}
			}
		})
	}
}

// PSRL's Beta posterior on the task's range is refused before any cell runs on a simulator that
// states no reward range, naming the family, the task and what to give; with a range given it is
// accepted.
func TestCheckRefusesPSRLWithoutARewardRange(t *testing.T) {
	runs := [][]Task{{{Def: nanTask{}, Sim: nanTask{}, Start: -1}}}
	s := Default()
	for _, c := range []struct {
		block string
		want  string
	}{{"{}", "family online-maze, run 0, task 0 (nan): psrl: reward_posterior beta with reward_min and reward_max task, but task 0 states no reward range"},
		{"{reward_min: -1, reward_max: 1}", ""}} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.block), &n); err != nil {
			t.Fatal(err)
		}
		p, err := agenttypes.Decode("psrl", n.Content[0])
		if err != nil {
			t.Fatal(err)
		}
		ag, err := p.New(agenttypes.Context{})
		if err != nil {
			t.Fatal(err)
		}
		err = checkTasks(s, ag, runs)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("psrl %s on a simulator stating no range: error %v, want %q", c.block, err, c.want)
		}
	}
}

// The declarations are complete: every type of this module that does not declare a need runs a
// few episodes of tasks of two sizes and of tasks of two action counts.
func TestTypesWithoutNeedsRunOnTasksOfEverySize(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every agent type twice (12 s)")
	}
	for _, typ := range agenttypes.Types() {
		if typ.Needs.SameStates || typ.Needs.SameActions {
			continue
		}
		if typ.Defaults().Validate() != nil { // a learner of one's own (python, external): its config names its program
			continue
		}
		for _, family := range []string{"{family: varying-size, sizes: [3, 4], per_size: 2}", "{family: varying-actions, count: 4, pool: 4, source_tasks: 2}"} {
			s, err := Parse([]byte("runs: 1\nepisodes: 3\nsteps: 10\ntasks: " + family + "\nagents:\n  - {type: " + typ.Name + "}\n"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Execute(t.Context(), s, t.TempDir(), 1, nil); err != nil {
				t.Errorf("%s on %s: %v", typ.Name, family, err)
			}
		}
	}
}
