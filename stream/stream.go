// Package stream derives the seeded random streams of an experiment: every random draw comes
// from the stream of one (seed, run, agent, task, purpose), a hash of them all, so that a result
// never depends on which worker ran a cell or when (decision 23).
//
// The runner (experiment), the episode driver (episode) and the C ABI (capi) draw from it, so a
// learner driven from outside the runner draws exactly what it draws inside. It imports only the
// standard library.
package stream

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
)

// Purpose names what a stream's draws are for.
type Purpose string

// The purposes of an experiment's streams.
const (
	Sequence Purpose = "sequence" // generating a run's task sequence
	Start    Purpose = "start"    // start states; shared by all agents of a run
	Env      Purpose = "env"      // the environment's transitions
	Agent    Purpose = "agent"    // the agent's own choices
	// Learner is the seed a learner outside temple is built with, once a run (its task's streams
	// are Agent's); drawn from the stream of task 0.
	Learner Purpose = "learner"
)

// New returns the random stream of (seed, run, agent, task, purpose). The agent is named, not
// numbered, so adding an agent to a spec leaves the streams of the others unchanged. Streams that
// all agents share use the agent name "".
func New(seed uint64, run int, agentName string, task int, purpose Purpose) *rand.Rand {
	h := fnv.New128a()
	var buf [8]byte
	for _, x := range []uint64{seed, uint64(run), uint64(task)} {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	// Length-prefix the strings so that ("ab", "c") and ("a", "bc") differ.
	for _, s := range []string{agentName, string(purpose)} {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	sum := h.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:])))
}

// ForAgent is the random stream that the runner gives agent name (its name in the spec, by
// default its type's display name) as agent.Task.Rand in run run, task task of an experiment
// with seed seed. A learner driven from outside the runner (the C ABI, capi/) that is given this
// stream draws exactly what the same learner draws in the runner.
func ForAgent(seed uint64, run int, name string, task int) *rand.Rand {
	return New(seed, run, name, task, Agent)
}
