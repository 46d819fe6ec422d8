// Command library shows temple as a Go library: a task family of one's own (a slippery
// corridor), O-TempLe and RMax run on a sequence of its tasks by the experiment runner, and the
// templates O-TempLe learned. It uses only the public API.
//
//	go run ./examples/library
package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
	"github.com/temple-rl/temple/temple"
)

// Corridor is a task kind of our own (it implements env.Task): N cells in a row; "right" moves right with probability
// 1 − Slip and stays otherwise, "left" moves left. Reaching the last cell pays 1 and ends the
// episode; every other step costs 0.05.
type Corridor struct {
	N    int
	Slip float64
}

func (c Corridor) Kind() string { return "corridor" }
func (c Corridor) Name() string { return fmt.Sprintf("corridor of %d, slip %g", c.N, c.Slip) }

// Model builds the corridor's MDP: states 0..N−1, actions 0 (left) and 1 (right).
func (c Corridor) Model() (*mdp.Model, error) {
	rows := make([][]mdp.Transition, c.N*2)
	reward := func(next int) float64 {
		if next == c.N-1 {
			return 1
		}
		return -0.05
	}
	for s := 0; s < c.N-1; s++ { // the last cell is terminal: no outcomes
		left, right := max(s-1, 0), s+1
		rows[s*2] = []mdp.Transition{{Next: left, Prob: 1, Reward: reward(left)}}
		rows[s*2+1] = []mdp.Transition{{Next: right, Prob: 1 - c.Slip, Reward: reward(right)}, {Next: s, Prob: c.Slip, Reward: reward(s)}}
	}
	start := make([]float64, c.N)
	start[0] = 1
	terminal := make([]bool, c.N)
	terminal[c.N-1] = true
	return mdp.NewEpisodic(c.N, 2, rows, start, terminal)
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "library:", err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	// Two runs of five corridors of growing length: templates learned on short corridors serve
	// the long ones.
	lengths := []int{6, 8, 10, 12, 14}
	plan := &experiment.Plan{Seed: 1, Episodes: 300, Steps: 60, Gamma: 0.95, Start: experiment.StartPerTask,
		Fingerprint: "library-example"}
	for run := 0; run < 2; run++ {
		var tasks []experiment.Task
		for _, n := range lengths {
			def := Corridor{N: n, Slip: 0.3}
			m, err := def.Model()
			if err != nil {
				return err
			}
			tasks = append(tasks, experiment.Task{Def: def, Model: m, Start: -1})
		}
		plan.Runs = append(plan.Runs, tasks)
	}
	var library *temple.OTempLe // run 0's O-TempLe, to look at its templates afterwards
	params, rmax := temple.DefaultParams(), learners.DefaultRMax()
	params.Ms, rmax.M = 10, 100
	plan.Agents = []experiment.AgentFactory{
		{Name: "O-TempLe", New: func(ctx experiment.RunContext) (agent.Agent, error) {
			base, err := learners.NewRMax(rmax) // the paper's base learner
			if err != nil {
				return nil, err
			}
			ot, err := temple.NewOTempLe(params, base)
			if ctx.Run == 0 {
				library = ot
			}
			return ot, err
		}},
		{Name: "RMax", New: func(experiment.RunContext) (agent.Agent, error) {
			base, err := learners.NewRMax(rmax)
			if err != nil {
				return nil, err
			}
			return agent.NewSingle(base), nil // the single-task agent: it forgets at every task
		}},
	}
	dir, err := os.MkdirTemp("", "temple-library-example-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cells, err := experiment.Run(context.Background(), plan, results.At(dir), 1, nil) // a directory of its own: no claim
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Reward of each task (corridors of %v cells, in order):\n", lengths)
	fmt.Fprintf(w, "%-3s %-8s", "run", "agent")
	for _, n := range lengths {
		fmt.Fprintf(w, " %8s", fmt.Sprintf("n=%d", n))
	}
	fmt.Fprintln(w)
	for _, c := range cells {
		fmt.Fprintf(w, "%-3d %-8s", c.Run, c.Agent)
		for _, t := range c.Tasks {
			fmt.Fprintf(w, " %8.1f", t.Reward)
		}
		fmt.Fprintln(w)
	}
	templates := slices.Clone(library.Library().Templates()) // sorted here: the library keeps its order
	slices.SortStableFunc(templates, func(a, b *template.Template) int { return cmp.Compare(b.N(), a.N()) })
	fmt.Fprintf(w, "\nO-TempLe's library after run 0: %d templates, most samples first.\n", len(templates))
	fmt.Fprintln(w, "p is the probability of each rank: rank 1 is the outcome a pair saw most often in its first")
	fmt.Fprintln(w, "m_s samples, when it was identified. A template whose later samples reversed that order")
	fmt.Fprintln(w, "(pairs that slipped more than they moved early on) keeps it, and is marked *.")
	fmt.Fprintf(w, "%-16s %8s %8s\n", "p by rank", "r", "samples")
	for _, t := range templates {
		g := t.Mean()
		mark := ""
		if !slices.IsSortedFunc(g.P, func(a, b float64) int { return cmp.Compare(b, a) }) {
			mark = " *"
		}
		fmt.Fprintf(w, "%-16s %+8.3f %8d%s\n", fmt.Sprintf("%.2f", g.P), g.R, t.N(), mark)
	}
	return nil
}
