package episode_test

import (
	"fmt"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/episode"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// returns sums the episodes' returns by halves of the task.
type returns struct{ first, second float64 }

func (r *returns) Return(e int, ret float64) {
	if e < 100 {
		r.first += ret
	} else {
		r.second += ret
	}
}

// twoStateChain is a chain of two states starting in state 0: action 0 in state 0 stays and pays
// 1, action 1 moves to state 1, where every action stays and pays 2.
func twoStateChain() *mdp.Model {
	chain, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1, Reward: 1}}, {{Next: 1, Prob: 1}},
		{{Next: 1, Prob: 1, Reward: 2}}, {{Next: 1, Prob: 1, Reward: 2}},
	}, []float64{1, 0})
	if err != nil {
		panic(err)
	}
	return chain
}

// RMax learns a two-state chain — staying in state 0 pays 1, moving to state 1 pays 2 at every
// step after — in 200 episodes of 10 steps: once both pairs are known (m = 5 samples) every
// episode earns the most it can.
func ExampleRun() {
	chain := twoStateChain()
	p := learners.DefaultRMax()
	p.M, p.RMax = 5, 2
	base, err := learners.NewRMax(p)
	if err != nil {
		panic(err)
	}
	r := &returns{}
	rec, err := episode.Run(agent.NewSingle(base), episode.Task{Table: chain},
		episode.Config{Episodes: 200, Steps: 10, Gamma: 0.9, Starts: episode.StartPerTask},
		episode.StreamsOf(1, 0, "RMax", 0), episode.Hooks{Returns: r})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d steps from state %d, reward %v\n", rec.Steps, rec.Start, rec.Reward)
	fmt.Printf("first 100 episodes %v, last 100 %v (18 each at best)\n", r.first, r.second)
	// Output:
	// 2000 steps from state 0, reward 3595
	// first 100 episodes 1795, last 100 1800 (18 each at best)
}

// A learner outside Go's loop steps a task's episodes itself: here always action 1 on twoStateChain,
// so every episode of T = 3 steps moves to state 1 and is truncated after its third step.
func ExampleEnv() {
	chain := twoStateChain()
	e, err := episode.NewEnv(episode.Task{Table: chain},
		episode.Config{Episodes: 2, Steps: 3, Starts: episode.StartPerTask}, episode.StreamsOf(1, 0, "learner", 0))
	if err != nil {
		panic(err)
	}
	s, _ := e.Reset()
	for ended := false; !ended; {
		next, r, terminated, truncated, err := e.Step(1)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d -> %d, reward %v, terminated %v, truncated %v\n", s, next, r, terminated, truncated)
		s, ended = next, terminated || truncated
	}
	// Output:
	// 0 -> 1, reward 0, terminated false, truncated false
	// 1 -> 1, reward 2, terminated false, truncated false
	// 1 -> 1, reward 2, terminated false, truncated true
}
