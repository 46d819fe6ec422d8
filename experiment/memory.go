package experiment

import (
	"bufio"
	"cmp"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/temple-rl/temple/agents"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/oracle"
)

// Memory estimate of an experiment, checked twice: before any task is drawn or model built, from
// the sizes the task definitions know (mazes), and again once the models are built, from every
// model's size (Taxi, FrozenLake, a user's MDP file). The runner holds every run's task models at
// once, the oracle solutions of the tasks in progress (oracle.Cache), and on each worker one agent
// with its policy evaluation. The figures are bytes per state-action pair measured on 100×100
// mazes (heap after two tasks), rounded up to cover pairs whose every outcome has been seen.
// An agent's own memory is its type's (agents.Memory).
const modelPairBytes = 80 // mdp.Model: row offsets, expected rewards, and per outcome its successor, probability, reward (70 B on a 250×250 maze)

// memoryEstimate is the bytes an experiment needs, by part.
type memoryEstimate struct {
	runs       int   // the runs it is for
	generation int64 // drawing the task sequences: a maze pool's landforms (tasks: pool)
	models     int64 // the distinct task models of every run
	oracles    int64 // the oracle solutions held at once
	agents     int64 // the busiest agents, one per worker, with their policy evaluations
	workers    int
	agent      string // the agent type with the largest tables
}

func (e memoryEstimate) total() int64 { return e.generation + e.models + e.oracles + e.agents }

// saturatingMul is a·b for a, b ≥ 0, or a quarter of the largest int64 when that is more (a
// total of four parts still fits).
func saturatingMul(a, b int64) int64 {
	const most = math.MaxInt64 / 4
	if a != 0 && b > most/a {
		return most
	}
	return a * b
}

// oracleBytes is one task's oracle solution for S states and the given pairs: the finite-horizon
// values V_0 … V_T, V* and the ε-mistake flags (Q* is dropped after the solve, but held during it).
func oracleBytes(S, pairs int64, steps int) int64 {
	return int64(steps+1)*S*8 + pairs*(8+1) + S*8
}

// policyBytes is one cell's policy evaluation of a task (oracle.policy_mistakes): π read twice
// and V^π, with (I − γP_π)⁻¹ on small tasks and the predecessor lists on large ones.
func policyBytes(S, pairs int64) int64 {
	b := 2*pairs*8 + S*8
	if S <= oracle.DenseStates {
		return b + S*S*8 + 2*S*8
	}
	return b + S*(24+1+4) + pairs*4*4 // a few predecessors per pair of a grid
}

// taskSize is the states and actions of one task; a simulator has no table and no oracle, but
// its agents' tables and its visit counts are as large as a table task's of its size. A task
// computed on demand (OnDemandPairs) stores no model, and its oracle solves at most region
// states around the start states of a run.
type taskSize struct {
	S, A      int
	simulated bool
	onDemand  bool
	region    int64
}

// onDemandStateBytes is what a task computed on demand holds per state (env.MazeDynamics: a
// cell's kind, its place among the start states and their running sum, and the maze's slip).
const onDemandStateBytes = 1 + 4 + 8 + 8

// localOracleBytes is one solution of a task computed on demand over n states of its S
// (oracle.SolveLocal): V_0 … V_T and V* by local state, per pair Q*, the ε-mistake flag and the
// region's own model (offsets, expected rewards, three outcomes), and the region's index of
// every state with its search distances.
func localOracleBytes(S, n, A int64, steps int) int64 {
	return int64(steps+2)*8*n + (8+1+4+8+3*12)*n*A + 8*S
}

// sizeOf is the size of a task of S states and A actions with definition def in the runs of s;
// for a task computed on demand (onDemand), with the states its oracle solves around a run's
// start states bounded through the task's bound on its rewards.
func sizeOf(s Spec, def env.Task, S, A int) taskSize {
	t := taskSize{S: S, A: A}
	od, ok := onDemand(s, def)
	if !ok {
		return t
	}
	t.onDemand = true
	radius := mdp.RadiusFor(s.Steps, s.Gamma, od.RewardBound()/(1-s.Gamma), oracle.Tolerance/2)
	starts := int64(1)
	if s.Start == StartPerEpisode {
		starts = int64(s.Episodes)
	}
	t.region = min(int64(S), starts*int64(od.Reach(radius)))
	return t
}

// sizesKnown are the sizes of every run's tasks that their definitions know before any model is
// built (env.Sized); the others are left out until the models exist.
func sizesKnown(s Spec, runs []env.Sequence) [][]taskSize {
	out := make([][]taskSize, len(runs))
	for r, seq := range runs {
		for _, def := range seq {
			sized, ok := def.(env.Sized)
			if !ok {
				continue
			}
			S, A := sized.Size()
			if _, simulated := def.(env.Simulated); simulated {
				out[r] = append(out[r], taskSize{S: S, A: A, simulated: true})
				continue
			}
			out[r] = append(out[r], sizeOf(s, def, S, A))
		}
	}
	return out
}

// sizesBuilt are the sizes of the distinct tasks of every run (equal tasks share one model).
func sizesBuilt(s Spec, runs [][]Task) [][]taskSize {
	seen := map[mdp.Dynamics]bool{}
	out := make([][]taskSize, len(runs))
	for r, tasks := range runs {
		for _, t := range tasks {
			if t.Dynamics() == nil { // a simulator: no table to hold, but agents as large
				if sized, ok := t.Def.(env.Sized); ok {
					S, A := sized.Size()
					out[r] = append(out[r], taskSize{S: S, A: A, simulated: true})
				}
				continue
			}
			if !seen[t.Dynamics()] {
				seen[t.Dynamics()] = true
				S, A := t.Dynamics().Size()
				out[r] = append(out[r], sizeOf(s, t.Def, S, A))
			}
		}
	}
	return out
}

// estimateMemory estimates the memory of the spec on tasks of the given sizes per run.
func estimateMemory(s Spec, sizes [][]taskSize) memoryEstimate {
	return estimateRuns(s, sizes, len(sizes))
}

// estimateRuns estimates the memory of runs runs of the spec whose tasks are sized as those of
// the sample of runs in sizes: their models as the sample's mean per run, the rest as its
// largest (drawSequences checks the first runs it draws this way before it draws the others).
func estimateRuns(s Spec, sizes [][]taskSize, runs int) memoryEstimate {
	// Runs draw their sequences side by side (drawSequences), each holding what its family's
	// drawing holds (a maze pool's landforms).
	e := memoryEstimate{runs: runs, generation: families.DrawBytes(s.Tasks.Params) * int64(generators(s))}
	// runTasks are the most tasks of a run, runTables the most table tasks (with an oracle),
	// solution the largest oracle solution of a task.
	var largest, largestS, largestA, runTasks, runTables, largestTable, largestTableS, simStates, solution int64
	for _, run := range sizes {
		tables := int64(0)
		for _, t := range run {
			pairs := int64(t.S) * int64(t.A)
			if pairs > largest {
				largest, largestS, largestA = pairs, int64(t.S), int64(t.A)
			}
			if t.simulated {
				simStates = max(simStates, int64(t.S))
				continue
			}
			tables++
			if t.onDemand {
				e.models += int64(t.S) * onDemandStateBytes
				solution = max(solution, localOracleBytes(int64(t.S), t.region, int64(t.A), s.Steps))
				continue
			}
			e.models += pairs * modelPairBytes
			solution = max(solution, oracleBytes(int64(t.S), pairs, s.Steps))
			if pairs > largestTable {
				largestTable, largestTableS = pairs, int64(t.S)
			}
		}
		runTasks, runTables = max(runTasks, int64(len(run))), max(runTables, tables)
	}
	if len(sizes) > 0 && runs != len(sizes) {
		e.models = saturatingMul(e.models/int64(len(sizes)), int64(runs))
	}
	e.workers = min(runtime.GOMAXPROCS(0), runs*len(s.Agents))
	perCell := int64(0)
	for _, a := range s.Agents {
		t, _ := agents.Lookup(a.Type)
		// A task's steps write the statistics of at most episodes·steps pairs.
		written := int64(s.Episodes) * int64(s.Steps)
		if b := agents.Memory(t, a.Params, largestS, largestA, runTasks, written); b > perCell {
			perCell, e.agent = b, a.Type
		}
	}
	if s.Oracle.Enabled && solution > 0 {
		// Cells start in (run, agent) order, so the runs with a task in progress are at most one
		// more than the workers; every task of those runs may be in progress at once.
		e.oracles = solution * runTables * int64(min(runs, e.workers+1))
		if s.Oracle.PolicyMistakes && largestTable > 0 {
			perCell += policyBytes(largestTableS, largestTable)
		}
	}
	perCell += simStates * 8 // a simulator's visit count of every state (discretize.Sim)
	e.agents = perCell * int64(e.workers)
	return e
}

// MemoryLimit is the memory the experiment of s may take by its estimate, in bytes: max_memory,
// or the machine's memory when it is 0; 0 when that cannot be read (no limit). The runner
// refuses an experiment whose estimate exceeds it.
func MemoryLimit(s Spec) int64 {
	limit, _ := memoryLimit(s)
	return limit
}

// memoryLimit is MemoryLimit with the words that say where it comes from.
func memoryLimit(s Spec) (limit int64, source string) {
	if s.MaxMemory > 0 {
		return s.MaxMemory << 20, fmt.Sprintf("max_memory = %d", s.MaxMemory)
	}
	total := machineMemory()
	return total, fmt.Sprintf("the machine's %d MB (max_memory = 0)", total>>20)
}

// machineMemory is the total memory of the machine from /proc/meminfo, 0 where it is not there.
func machineMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// checkMemory refuses an experiment whose estimate exceeds the limit, with the estimate by part
// and, for each part, the fields that change it, largest part first.
func checkMemory(s Spec, sizes [][]taskSize) error { return checkEstimate(s, estimateMemory(s, sizes)) }

// checkEstimate refuses an experiment whose estimate e exceeds the limit (checkMemory).
func checkEstimate(s Spec, e memoryEstimate) error {
	limit, source := memoryLimit(s)
	if limit == 0 || e.total() <= limit {
		return nil
	}
	parts := []struct {
		bytes int64
		text  string
	}{
		{e.models, fmt.Sprintf("task models of %d runs: %d MB (tasks: width, height, sizes, count; runs)", e.runs, e.models>>20)},
		{e.generation, fmt.Sprintf("drawing the runs' mazes, a run per core: %d MB (tasks: pool)", e.generation>>20)},
		{e.oracles, fmt.Sprintf("oracle solutions: %d MB (steps; oracle.enabled: false)", e.oracles>>20)},
		{e.agents, fmt.Sprintf("%d workers running %s: %d MB (agents; --jobs; the tasks' sizes: width, height, bins)", e.workers, e.agent, e.agents>>20)},
	}
	slices.SortStableFunc(parts, func(a, b struct {
		bytes int64
		text  string
	}) int {
		return cmp.Compare(b.bytes, a.bytes)
	})
	var texts []string
	for _, p := range parts {
		if p.bytes > 0 {
			texts = append(texts, p.text)
		}
	}
	return fmt.Errorf("the experiment needs about %d MB — %s — more than %s; change the fields named, or raise max_memory (MB)",
		e.total()>>20, strings.Join(texts, ", "), source)
}
