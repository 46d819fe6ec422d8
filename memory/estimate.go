package memory

import (
	"math"
	"runtime"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/oracle"
)

// The runner holds every run's task models at once, the oracle solutions of the tasks in
// progress (oracle.Cache), and on each worker one agent with its policy evaluation. The figures
// are bytes per state-action pair measured on 100×100 mazes (heap after two tasks), rounded up to
// cover pairs whose every outcome has been seen. An agent's own memory is its type's
// (agenttypes.Memory).
const ModelPairBytes = 80 // mdp.Model: row offsets, expected rewards, and per outcome its successor, probability, reward (70 B on a 250×250 maze)

// Experiment is what the estimate reads of an experiment spec.
type Experiment struct {
	Episodes, Steps int     // E and T of every task
	Gamma           float64 // γ
	// StartPerEpisode is start: per-episode: a run's oracle solves around a start state per
	// episode, not one per run.
	StartPerEpisode bool
	Agents          []Agent
	// Oracle and PolicyMistakes are oracle.enabled and oracle.policy_mistakes.
	Oracle, PolicyMistakes bool
	// DrawBytes is what drawing one run's sequence holds (families.DrawBytes), Generators how
	// many runs draw theirs at once.
	DrawBytes  int64
	Generators int
	MaxMemory  int64 // max_memory, in MB; 0: the machine's memory
	// Runs and TasksPerRun are the experiment's runs and what its tasks block says of a run's
	// tasks before they are drawn (families.TasksPerRun): the cells' records and the drawn
	// sequences are estimated from them before anything is drawn.
	Runs        int
	TasksPerRun int64
	// OnDemand returns a task definition as a task computed on demand, false when the
	// experiment stores its model; nil stores every model.
	OnDemand func(env.Task) (env.OnDemand, bool)
}

// Agent is an agent of the experiment: its type's name and parameters.
type Agent struct {
	Type   string
	Params agenttypes.Params
}

// Estimate is the bytes an experiment needs, by part.
type Estimate struct {
	Runs       int   // the runs it is for
	Generation int64 // drawing the task sequences: a maze pool's landforms (tasks: pool)
	Models     int64 // the distinct task models of every run
	Oracles    int64 // the oracle solutions held at once
	Agents     int64 // the busiest agents, one per worker, with their policy evaluations
	// Records are the finished cells the runner holds until it writes the results: per cell an
	// episode sum per episode and a record per task; Sequences the runs' task definitions.
	Records, Sequences int64
	Workers            int
	Agent              string // the agent type with the largest tables
}

// Total is the sum of the parts.
func (e Estimate) Total() int64 {
	total := int64(0)
	for _, part := range []int64{e.Generation, e.Models, e.Oracles, e.Agents, e.Records, e.Sequences} {
		total = min(total+part, math.MaxInt64/2) // each part is at most a quarter of MaxInt64
	}
	return total
}

// RecordBytes is what the runner holds of a finished cell per task (results.TaskRecord with a
// few metrics), and EpisodeSumBytes per episode (its episode sum); TaskDefBytes is a lower bound
// of a drawn task definition (a maze's landforms hold a byte per cell on top).
const (
	RecordBytes     = 512
	EpisodeSumBytes = 8
	TaskDefBytes    = 256
)

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

// Estimate estimates the memory of the experiment on tasks of the given sizes per run.
func (x Experiment) Estimate(sizes [][]Task) Estimate { return x.EstimateRuns(sizes, len(sizes)) }

// EstimateRuns estimates the memory of runs runs of the experiment whose tasks are sized as those
// of the sample of runs in sizes: their models as the sample's mean per run, the rest as its
// largest (the runner checks the first runs it draws this way before it draws the others).
func (x Experiment) EstimateRuns(sizes [][]Task, runs int) Estimate {
	// Runs draw their sequences side by side, each holding what its family's drawing holds (a
	// maze pool's landforms).
	e := Estimate{Runs: runs, Generation: x.DrawBytes * int64(x.Generators)}
	cells := saturatingMul(int64(x.Runs), int64(len(x.Agents)))
	record := saturatingMul(int64(x.Episodes), EpisodeSumBytes) + saturatingMul(x.TasksPerRun, RecordBytes)
	e.Records = saturatingMul(cells, min(record, math.MaxInt64/4))
	e.Sequences = saturatingMul(int64(x.Runs), saturatingMul(x.TasksPerRun, TaskDefBytes))
	w := x.widest(sizes)
	e.Models = w.models
	if len(sizes) > 0 && runs != len(sizes) {
		e.Models = saturatingMul(e.Models/int64(len(sizes)), int64(runs))
	}
	e.Workers = min(runtime.GOMAXPROCS(0), runs*len(x.Agents))
	perCell, busiest := x.largestAgent(w)
	e.Agent = busiest
	if x.Oracle && w.solution > 0 {
		// Cells start in (run, agent) order, so the runs with a task in progress are at most one
		// more than the workers; every task of those runs may be in progress at once.
		e.Oracles = w.solution * w.runTables * int64(min(runs, e.Workers+1))
		if x.PolicyMistakes && w.largestTable > 0 {
			perCell += policyBytes(w.largestTableS, w.largestTable)
		}
	}
	perCell += w.simStates * 8 // a simulator's visit count of every state (discretize.Sim)
	e.Agents = perCell * int64(e.Workers)
	return e
}

// extremes are the largest of the sampled runs' tasks, and the bytes of their models.
type extremes struct {
	largest, largestS, largestA int64 // the most pairs of a task, and its states and actions
	runTasks, runTables         int64 // the most tasks of a run, the most table tasks (with an oracle)
	largestTable, largestTableS int64 // the most pairs of a stored table task, and its states
	simStates                   int64 // the most states of a simulator
	solution                    int64 // the largest oracle solution of a task
	models                      int64 // the models of every sampled run
}

// widest measures the sampled runs' tasks.
func (x Experiment) widest(sizes [][]Task) extremes {
	var w extremes
	for _, run := range sizes {
		tables := int64(0)
		for _, t := range run {
			pairs := int64(t.S) * int64(t.A)
			if pairs > w.largest {
				w.largest, w.largestS, w.largestA = pairs, int64(t.S), int64(t.A)
			}
			if t.Simulated {
				w.simStates = max(w.simStates, int64(t.S))
				continue
			}
			tables++
			if t.OnDemand {
				w.models += int64(t.S) * onDemandStateBytes
				w.solution = max(w.solution, localOracleBytes(int64(t.S), t.Region, int64(t.A), x.Steps))
				continue
			}
			w.models += pairs * ModelPairBytes
			w.solution = max(w.solution, oracleBytes(int64(t.S), pairs, x.Steps))
			if pairs > w.largestTable {
				w.largestTable, w.largestTableS = pairs, int64(t.S)
			}
		}
		w.runTasks, w.runTables = max(w.runTasks, int64(len(run))), max(w.runTables, tables)
	}
	return w
}

// largestAgent is the most memory one cell's agent takes on the largest task, and its type.
func (x Experiment) largestAgent(w extremes) (perCell int64, typ string) {
	for _, a := range x.Agents {
		t, _ := agenttypes.Lookup(a.Type)
		// A task's steps write the statistics of at most episodes·steps pairs.
		written := int64(x.Episodes) * int64(x.Steps)
		if b := agenttypes.Memory(t, a.Params, w.largestS, w.largestA, w.runTasks, written); b > perCell {
			perCell, typ = b, a.Type
		}
	}
	return perCell, typ
}
