package experiment

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/temple-rl/temple/agents"
	"github.com/temple-rl/temple/env"
)

// Memory estimate of an experiment, checked before any model is built. The runner holds every
// run's task models at once and, on each worker, one agent (agents.Memory) and the oracle of the
// largest task. The figure is bytes per state-action pair measured on 100×100 mazes (heap after
// two tasks), rounded up to cover pairs whose every outcome has been seen.
const modelPairBytes = 100 // mdp.Model: row offsets, successors, probabilities, rewards, sampling sums

// memoryEstimate is the bytes an experiment needs: its task models and its busiest agents, each
// with its task's oracle when that is on.
type memoryEstimate struct {
	models, agents int64
	workers        int
	agent          string // the agent type with the largest tables
}

// oracleBytes is what the oracle holds for a task of S states and the given pairs on a worker:
// the finite-horizon values V_0 … V_T and the discounted Q*, V* and ε-mistake flags.
func oracleBytes(S, pairs int64, steps int) int64 { return int64(steps+1)*S*8 + pairs*(8+1) + S*8 }

func (e memoryEstimate) total() int64 { return e.models + e.agents }

// estimateMemory estimates the memory of the spec's run sequences. Tasks that do not know their
// size before their model is built (FrozenLake, Taxi, a user's MDP file: small by construction)
// are left out.
func estimateMemory(s Spec, runs []env.Sequence) memoryEstimate {
	var e memoryEstimate
	var largest, largestS, largestA, tasks int64
	cells := 0
	for _, seq := range runs {
		tasks = max(tasks, int64(len(seq)))
		for _, def := range seq {
			sized, ok := def.(env.Sized)
			if !ok {
				continue
			}
			S, A := sized.Size()
			pairs := int64(S) * int64(A)
			e.models += pairs * modelPairBytes
			if pairs > largest {
				largest, largestS, largestA = pairs, int64(S), int64(A)
			}
		}
		cells += len(s.Agents)
	}
	e.workers = min(runtime.GOMAXPROCS(0), cells)
	perCell := int64(0)
	for _, a := range s.Agents {
		t, _ := agents.Lookup(a.Type)
		if b := agents.Memory(t, a.Params, largestS, largestA, tasks); b > perCell {
			perCell, e.agent = b, a.Type
		}
	}
	if s.Oracle.Enabled {
		perCell += oracleBytes(largestS, largest, s.Steps)
	}
	e.agents = perCell * int64(e.workers)
	return e
}

// memoryLimit is max_memory in bytes, or the machine's memory when it is 0 (0 when that cannot
// be read: no limit).
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

// checkMemory refuses an experiment whose estimate exceeds the limit, with the estimate and the
// fields to change.
func checkMemory(s Spec, runs []env.Sequence) error {
	e := estimateMemory(s, runs)
	limit, source := memoryLimit(s)
	if limit == 0 || e.total() <= limit {
		return nil
	}
	return fmt.Errorf("the experiment needs about %d MB — task models of %d runs: %d MB, %d workers running %s: %d MB — "+
		"more than %s; use smaller tasks (tasks: width, height, sizes), fewer tasks (tasks: count) or runs, "+
		"or raise max_memory (MB)", e.total()>>20, len(runs), e.models>>20, e.workers, e.agent, e.agents>>20, source)
}
