"""O-TempLe, RMax and Q-learning from temple, driven from Python on a sequence of FrozenLake maps
written in Python: the learners come from temple's Go library, the environment and the training
loop are ours. Any environment with Gymnasium's API and Discrete spaces works the same way (a
gymnasium.make("FrozenLake-v1") too).

    python3 examples/python/frozenlake_sequence.py   # with temple's wheel installed (make wheel)

prints, per agent, the mean return of each task's episodes (the share of episodes that reached the
goal) and the metrics of the last task. O-TempLe carries the transition templates it learned in
one task to the next (the maps share their dynamics: slippery moves on ice); RMax and Q-learning
start every task from scratch. Change MAPS, AGENTS and the loop at will.
"""

import argparse
import random

import temple

# Four 4x4 maps: the same ice, holes in other places. S start, F frozen, H hole, G goal.
MAPS = [
    ["SFFF", "FHFH", "FFFH", "HFFG"],  # Gymnasium's 4x4
    ["SFFF", "FFHF", "HFFF", "FFHG"],
    ["SHFF", "FFFH", "FHFF", "FFFG"],
    ["SFFH", "FHFF", "FFFH", "HFFG"],
]

LEFT, DOWN, RIGHT, UP = range(4)  # Gymnasium's order


class Discrete:
    """Gymnasium's Discrete space, enough of it for temple.run_episodes."""

    def __init__(self, n):
        self.n = n


class FrozenLake:
    """Gymnasium's FrozenLake-v1 on a map of one's own: slippery, an action moves in its direction
    or one of the two perpendicular ones with probability 1/3 each; reward 1 on reaching the goal;
    holes and the goal end the episode (terminated)."""

    def __init__(self, desc, slippery=True):
        self.desc, self.slippery = desc, slippery
        self.rows, self.cols = len(desc), len(desc[0])
        self.observation_space = Discrete(self.rows * self.cols)
        self.action_space = Discrete(4)
        self.rng = random.Random()
        self.s = 0

    def letter(self, s):
        return self.desc[s // self.cols][s % self.cols]

    def reset(self, seed=None):
        if seed is not None:
            self.rng.seed(seed)
        self.s = next(s for s in range(self.rows * self.cols) if self.letter(s) == "S")
        return self.s, {}

    def step(self, a):
        d = (a + self.rng.choice([-1, 0, 1])) % 4 if self.slippery else a
        r, c = divmod(self.s, self.cols)
        if d == LEFT:
            c = max(c - 1, 0)
        elif d == DOWN:
            r = min(r + 1, self.rows - 1)
        elif d == RIGHT:
            c = min(c + 1, self.cols - 1)
        else:
            r = max(r - 1, 0)
        self.s = r * self.cols + c
        letter = self.letter(self.s)
        return self.s, float(letter == "G"), letter in "HG", False, {}


AGENTS = {
    # name: (agent type, its parameters under their config keys)
    "O-TempLe": ("o-temple", {"m": 20, "m_s": 10}),
    "RMax": ("rmax", {"m": 20}),
    "Q-learning": ("q-learning", {"alpha": 0.1, "epsilon": 0.1}),
}


def main():
    ap = argparse.ArgumentParser(description="temple's learners on a sequence of FrozenLake maps")
    ap.add_argument("--episodes", type=int, default=500, help="episodes per task")
    ap.add_argument("--steps", type=int, default=100, help="steps per episode at most")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    print("mean return per task (%d episodes of at most %d steps, slippery 4x4 maps)" % (args.episodes, args.steps))
    for name, (agent_type, params) in AGENTS.items():
        with temple.Agent(agent_type, seed=args.seed, **params) as agent:
            means = []
            for k, desc in enumerate(MAPS):
                env = FrozenLake(desc)
                returns = temple.run_episodes(agent, env, episodes=args.episodes, max_steps=args.steps,
                                         gamma=0.95, seed=args.seed * 1000 + k)
                means.append(sum(returns) / len(returns))
                metrics = agent.metrics()  # the learner's diagnostics of the task just ended
            print("%-11s %s   (last task: %s)" % (name, "  ".join("%.3f" % m for m in means),
                                                  ", ".join("%s %g" % kv for kv in list(metrics.items())[:3]) or "-"))


if __name__ == "__main__":
    main()
