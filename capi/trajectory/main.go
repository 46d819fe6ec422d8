// Command trajectory runs an experiment config with temple's runner and writes, for every (run,
// agent) cell, every call the runner made to the agent — the tasks it began (with their terminal
// states), each step (s, a, r, s′) of each episode, and after each task the agent's metrics and
// template snapshot — as one JSON object per line. The Python package's tests replay these
// trajectories through the C ABI and require the same actions: the same learner from Go and from
// Python.
//
//	go run ./capi/trajectory config.yaml > trajectories.jsonl
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/template"
)

// cell is the trajectory of one agent in one run.
type cell struct {
	Seed  uint64  `json:"seed"`
	Run   int     `json:"run"`
	Gamma float64 `json:"gamma"`
	Steps int     `json:"steps"` // T, the episodes' length
	Start string  `json:"start"` // the start rule
	// Family is the spec's tasks: block (the family and its parameters), which draws the run's
	// task sequence: temple.make replays the steps on it.
	Family families.Spec        `json:"family"`
	Agent  experiment.AgentSpec `json:"agent"` // type, name and parameters under their config keys
	Tasks  []*task              `json:"tasks"`
}

// task is what one task of a cell showed the agent and what it answered.
type task struct {
	Index    int   `json:"index"`
	S        int   `json:"n_states"`
	A        int   `json:"n_actions"`
	Terminal []int `json:"terminal_states"`
	// Episodes[e][t] is step t of episode e: s, a (the agent's action), r, s′.
	Episodes  [][][4]float64     `json:"episodes"`
	Metrics   map[string]float64 `json:"metrics"`
	Templates *template.Snapshot `json:"templates"`
}

// recorder passes every call on to the agent and records it.
type recorder struct {
	agent.Agent
	cell    *cell
	episode [][4]float64
}

func (r *recorder) BeginTask(t agent.Task) error {
	tk := &task{Index: t.Index, S: t.S, A: t.A, Terminal: []int{}, Episodes: [][][4]float64{}}
	for s := 0; s < t.S; s++ {
		if t.IsTerminal(s) {
			tk.Terminal = append(tk.Terminal, s)
		}
	}
	r.cell.Tasks = append(r.cell.Tasks, tk)
	return r.Agent.BeginTask(t)
}

// ObserveTerminal passes on what a simulator's step taught the agent (the runner requires
// agent.TerminalObserver on simulators whose episodes terminate).
func (r *recorder) ObserveTerminal(s int) { r.Agent.(agent.TerminalObserver).ObserveTerminal(s) }

func (r *recorder) Observe(s, a int, rew float64, next int) {
	r.episode = append(r.episode, [4]float64{float64(s), float64(a), rew, float64(next)})
	r.Agent.Observe(s, a, rew, next)
}

func (r *recorder) EndEpisode() {
	tk := r.cell.Tasks[len(r.cell.Tasks)-1]
	tk.Episodes = append(tk.Episodes, r.episode)
	r.episode = nil
	r.Agent.EndEpisode()
}

func (r *recorder) EndTask() {
	r.Agent.EndTask()
	tk := r.cell.Tasks[len(r.cell.Tasks)-1]
	if rep, ok := r.Agent.(agent.Reporter); ok {
		tk.Metrics = map[string]float64{}
		for _, m := range rep.TaskMetrics() {
			tk.Metrics[m.Name] = m.Value
		}
	}
	if sn, ok := r.Agent.(interface{ TemplateSnapshot() template.Snapshot }); ok {
		snap := sn.TemplateSnapshot()
		tk.Templates = &snap
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "trajectory:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) != 2 {
		return fmt.Errorf("usage: trajectory CONFIG.yaml (writes JSON lines to standard output)")
	}
	spec, err := experiment.Load(os.Args[1])
	if err != nil {
		return err
	}
	plan, err := experiment.Build(spec)
	if err != nil {
		return err
	}
	if len(plan.Agents) != len(spec.Agents) {
		return fmt.Errorf("%s: a sweep runs several experiments, want one", os.Args[1])
	}
	var cells []*cell // in (run, agent) order
	for run := range plan.Runs {
		for _, a := range spec.Agents {
			cells = append(cells, &cell{Seed: plan.Seed, Run: run, Gamma: plan.Gamma, Steps: plan.Steps,
				Start: string(plan.Start), Family: spec.Tasks, Agent: a})
		}
	}
	for k := range plan.Agents {
		build := plan.Agents[k].New
		plan.Agents[k].New = func(ctx experiment.RunContext) (agent.Agent, error) {
			ag, err := build(ctx)
			if err != nil {
				return nil, err
			}
			return &recorder{Agent: ag, cell: cells[ctx.Run*len(plan.Agents)+k]}, nil
		}
	}
	dir, err := os.MkdirTemp("", "trajectory-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if _, err := experiment.Run(context.Background(), plan, results.At(dir), 0, nil); err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	for _, c := range cells {
		if err := enc.Encode(c); err != nil {
			return err
		}
	}
	return nil
}
