package results_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/study"
)

// Write makes a results directory, claimed for the experiment first, from the cells of two
// agents over three runs, without the runner; ReadSummary and Compare read it back as temple
// compare does.
func ExampleWrite() {
	path, err := os.MkdirTemp("", "results")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(path)
	set := results.Setup{Name: "two", Seed: 1, Runs: 3, Episodes: 1, Agents: []string{"A", "B"}, Baseline: "B",
		Spec: []byte(`{"Name":"two"}`), SpecYAML: []byte("name: two\nseed: 1\nruns: 3\noutput:\n  baseline: B\n")}
	var cells []results.CellResult
	for run := range 3 {
		for k, name := range set.Agents {
			reward := float64(10 + run - 2*k) // A earns 2 more than B in every run
			cells = append(cells, results.CellResult{Run: run, Agent: name, EpisodeSums: []float64{reward},
				Tasks: []results.TaskRecord{{Task: 0, Reward: reward, Steps: 5, States: 2, Actions: 2}}})
		}
	}
	dir, release, err := results.Claim(path, set.Name, set.SpecYAML, results.ClaimOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer release()
	if _, err := results.Write(dir, set, cells); err != nil {
		fmt.Println(err)
		return
	}
	sum, err := results.ReadSummary(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range sum.Agents {
		fmt.Printf("%s: %.1f ± %.1f, advantage over B %.1f\n", a.Name, a.MeanPerTaskReward, a.CI95, *a.Advantage)
	}
	cs, err := results.Compare(sum, "B")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cs[0].A, "−", cs[0].B, "=", cs[0].MeanDiff, "in", cs[0].Wins, "of", cs[0].N, "runs")
	// Output:
	// A: 11.0 ± 2.5, advantage over B 2.0
	// B: 9.0 ± 2.5, advantage over B 0.0
	// A − B = 2 in 3 of 3 runs
}

// Merge joins the directories of an experiment's shards — here two, run on one machine — into
// the results of the whole experiment, reading only what the shards wrote.
func ExampleMerge() {
	root, err := os.MkdirTemp("", "shards")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)
	s, err := experiment.Parse([]byte("name: sharded\nruns: 2\nepisodes: 20\ntasks: {count: 2}\nagents: [{type: rmax}, {type: q-learning}]\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	var shards []string
	for i := range 2 {
		dir := filepath.Join(root, fmt.Sprint("shard-", i))
		n, err := study.ExecuteShard(context.Background(), s, dir, 1, nil, cluster.Shard{Index: i, Count: 2})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("shard %d ran %d cells\n", i, n)
		shards = append(shards, dir)
	}
	if err := results.Merge(filepath.Join(root, "merged"), shards); err != nil {
		fmt.Println(err)
		return
	}
	merged, err := results.Open(filepath.Join(root, "merged"))
	if err != nil {
		fmt.Println(err)
		return
	}
	sum, err := results.ReadSummary(merged)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range sum.Agents {
		fmt.Printf("%s: %d runs\n", a.Name, len(a.PerRun))
	}
	// Output:
	// shard 0 ran 2 cells
	// shard 1 ran 2 cells
	// RMax: 2 runs
	// Q-learning: 2 runs
}
