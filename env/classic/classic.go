// Package classic holds the hard-exploration MDPs of Strehl & Littman, "An analysis of
// model-based Interval Estimation for Markov Decision Processes" (Journal of Computer and System
// Sciences 74(8), 2008; first in their ICTAI 2004 paper), which the TempLe paper's Appendix F.5
// uses to argue that transition templates apply beyond grids: RiverSwim and SixArms.
//
// The definitions follow the 2008 paper's figure as public implementations that cite it write it
// out (docs/decisions.md, decision 34). RiverSwim: the generators of the mushroom-rl
// lineage, cruz-lucas/classic_pacmdp_envs (riverswim.py) and a Gymnasium RiverSwimEnv agree.
// SixArms: the mushroom-rl generators and cruz-lucas/classic_pacmdp_envs (sixarms.py) agree; a
// gym SixArmsEnv differs only in the second arm, where it pays 133 on leaving the arm and nothing
// for staying — contrary to every other arm and to the paper's rule that an arm pays for staying
// in it; we follow the other two. (The RiverSwim of Osband et al., with rewards 0.005 and 1, is
// a different variant.) Rewards are the published ones, not rescaled: give
// agents an R_max of at least the largest (10 000 and 6 000).
//
// CasinoLand, the third MDP of the 2004 paper, is not here: its definition was not found in any
// source we could consult, and we do not invent one.
package classic

import "github.com/temple-rl/temple/mdp"

// RiverSwim actions.
const (
	SwimLeft  = 0 // with the current: always succeeds
	SwimRight = 1 // against the current
)

// RiverSwim returns RiverSwim: six states 0..5 in a row, two actions.
//
//   - Swimming left always moves one state left (state 0 stays); doing so in state 0 pays 5.
//   - Swimming right against the current: in state 0 it reaches state 1 with probability 0.3 and
//     stays with 0.7; in states 1..4 it moves right with 0.3, stays with 0.6 and is carried left
//     with 0.1; in state 5 it stays with 0.3, paying 10 000, and is carried left with 0.7.
//   - Every other transition pays 0. An episode starts in state 1 or 2 with probability 1/2 each.
//
// The small reward is near and certain, the large one far and reached only by persistent
// swimming: exploration that stops early settles for 5.
func RiverSwim() (*mdp.Model, error) {
	const S = 6
	rows := make([][]mdp.Transition, S*2)
	for s := range S {
		left := max(s-1, 0)
		rows[s*2+SwimLeft] = []mdp.Transition{{Next: left, Prob: 1}}
		var right []mdp.Transition
		switch s {
		case 0:
			right = []mdp.Transition{{Next: 0, Prob: 0.7}, {Next: 1, Prob: 0.3}}
		case S - 1:
			right = []mdp.Transition{{Next: s - 1, Prob: 0.7}, {Next: s, Prob: 0.3, Reward: 10000}}
		default:
			right = []mdp.Transition{{Next: s - 1, Prob: 0.1}, {Next: s, Prob: 0.6}, {Next: s + 1, Prob: 0.3}}
		}
		rows[s*2+SwimRight] = right
	}
	rows[0*2+SwimLeft][0].Reward = 5
	return mdp.New(S, 2, rows, []float64{0, 0.5, 0.5, 0, 0, 0})
}

// sixArms are, for arm k (state k+1, action k), the probability that pulling it from state 0
// reaches the arm, and the reward of every step spent in the arm.
var sixArms = [6]struct{ p, reward float64 }{{1, 50}, {0.15, 133}, {0.1, 300}, {0.05, 800}, {0.03, 1660}, {0.01, 6000}}

// SixArms returns SixArms: a hub state 0 and six arm states 1..6, six actions.
//
//   - In state 0, action k (0..5) reaches arm state k+1 with probability p_k = 1, 0.15, 0.1, 0.05,
//     0.03, 0.01 and stays in state 0 otherwise, paying nothing.
//   - In arm state k+1 the staying action keeps the agent there and pays r_k = 50, 133, 300, 800,
//     1 660, 6 000; every other action returns it to state 0, paying nothing. The staying action
//     of arms 2..6 is action k; in arm 1 every action but 4 stays (and pays 50), action 4
//     returns.
//   - An episode starts in state 0.
//
// The most rewarding arm is the hardest to enter, so an agent that stops exploring early settles
// for a poor one.
func SixArms() (*mdp.Model, error) {
	const S, A = 7, 6
	rows := make([][]mdp.Transition, S*A)
	for k, arm := range sixArms {
		if arm.p == 1 {
			rows[k] = []mdp.Transition{{Next: k + 1, Prob: 1}}
		} else {
			rows[k] = []mdp.Transition{{Next: k + 1, Prob: arm.p}, {Next: 0, Prob: 1 - arm.p}}
		}
		s := k + 1
		for a := range A {
			stays := a == k
			if k == 0 {
				stays = a != 4
			}
			if stays {
				rows[s*A+a] = []mdp.Transition{{Next: s, Prob: 1, Reward: arm.reward}}
			} else {
				rows[s*A+a] = []mdp.Transition{{Next: 0, Prob: 1}}
			}
		}
	}
	return mdp.New(S, A, rows, []float64{1, 0, 0, 0, 0, 0, 0})
}
