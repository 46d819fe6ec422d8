package experiment

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
)

// Purposes of random streams. Each random draw of an experiment comes from the stream of one
// (seed, run, agent, task, purpose), so results never depend on which worker ran a cell or when
// (decision 23).
const (
	purposeSequence = "sequence" // generating a run's task sequence
	purposeStart    = "start"    // start cells; shared by all agents of a run
	purposeEnv      = "env"      // the environment's transitions
	purposeAgent    = "agent"    // the agent's own choices
)

// stream returns the random stream of (seed, run, agent, task, purpose). The agent is named, not
// numbered, so adding an agent to a spec leaves the streams of the others unchanged. Streams that
// all agents share use the agent name "".
func stream(seed uint64, run int, agentName string, task int, purpose string) *rand.Rand {
	h := fnv.New128a()
	var buf [8]byte
	for _, x := range []uint64{seed, uint64(run), uint64(task)} {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	// Length-prefix the strings so that ("ab", "c") and ("a", "bc") differ.
	for _, s := range []string{agentName, purpose} {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	sum := h.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:])))
}

// AgentStream is the random stream that the runner gives agent name (its name in the spec, by
// default its type's display name) as agent.Task.Rand in run run, task task of an experiment
// with seed seed. A learner driven from outside the runner (the C ABI, capi/) that is given this
// stream draws exactly what the same learner draws in the runner.
func AgentStream(seed uint64, run int, name string, task int) *rand.Rand {
	return stream(seed, run, name, task, purposeAgent)
}
