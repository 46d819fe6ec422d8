"""Small environments with Gymnasium's API (reset(seed=) -> (obs, info), step(a) -> (obs, reward,
terminated, truncated, info), Discrete spaces), written here because Gymnasium is not needed."""

import random


class Discrete:
    """Gymnasium's Discrete space: the integers start, ..., start + n - 1."""

    def __init__(self, n, start=0):
        self.n, self.start = n, start


LEFT, DOWN, RIGHT, UP = range(4)  # Gymnasium's order (frozen_lake.py)


class FrozenLake:
    """Gymnasium's FrozenLake-v1, with the map and dynamics of temple's env/toytext: state
    row*cols + col; a move off the map stays; slippery, action a moves in direction a-1, a or
    a+1 (mod 4) with probability 1/3 each; reward 1 on entering the goal G; holes H and the goal
    are terminal; the start is uniform over the S cells."""

    MAP_4X4 = ["SFFF", "FHFH", "FFFH", "HFFG"]

    def __init__(self, desc=None, slippery=True):
        self.desc = list(desc or self.MAP_4X4)
        self.rows, self.cols = len(self.desc), len(self.desc[0])
        self.slippery = slippery
        self.observation_space = Discrete(self.rows * self.cols)
        self.action_space = Discrete(4)
        self.starts = [s for s in range(self.rows * self.cols) if self.letter(s) == "S"]
        self.rng = random.Random()
        self.s = None

    def letter(self, s):
        return self.desc[s // self.cols][s % self.cols]

    def terminal_states(self):
        return [s for s in range(self.rows * self.cols) if self.letter(s) in "HG"]

    def move(self, s, d):
        r, c = divmod(s, self.cols)
        if d == LEFT:
            c = max(c - 1, 0)
        elif d == DOWN:
            r = min(r + 1, self.rows - 1)
        elif d == RIGHT:
            c = min(c + 1, self.cols - 1)
        elif d == UP:
            r = max(r - 1, 0)
        return r * self.cols + c

    def outcomes(self, s, a):
        """[(probability, next state)] of action a in state s, one per direction."""
        dirs = [(a + 3) % 4, a, (a + 1) % 4] if self.slippery else [a]
        return [(1 / len(dirs), self.move(s, d)) for d in dirs]

    def reset(self, seed=None):
        if seed is not None:
            self.rng.seed(seed)
        self.s = self.rng.choice(self.starts)
        return self.s, {}

    def step(self, a):
        if not 0 <= a < 4:
            raise ValueError("action %r" % (a,))
        dirs = [(a + 3) % 4, a, (a + 1) % 4] if self.slippery else [a]
        self.s = self.move(self.s, self.rng.choice(dirs))
        letter = self.letter(self.s)
        return self.s, 1.0 if letter == "G" else 0.0, letter in "HG", False, {}


class Chain:
    """A deterministic chain of n states from 0: action 1 moves right, action 0 left (staying at
    0); entering state n-1 pays 1 and terminates. With time_limit, the step that reaches it
    reports truncated (a Gymnasium TimeLimit). Optimal: n-1 steps right, return 1."""

    def __init__(self, n, time_limit=None, start=0):
        self.n, self.time_limit = n, time_limit
        self.observation_space = Discrete(n, start=start)
        self.action_space = Discrete(2, start=start)
        self.offset = start
        self.s, self.t = 0, 0

    def reset(self, seed=None):
        self.s, self.t = 0, 0
        return self.s + self.offset, {}

    def step(self, a):
        a -= self.offset
        if a not in (0, 1):
            raise ValueError("action %r" % (a,))
        self.s = min(self.s + 1, self.n - 1) if a == 1 else max(self.s - 1, 0)
        self.t += 1
        terminated = self.s == self.n - 1
        truncated = not terminated and self.time_limit is not None and self.t >= self.time_limit
        return self.s + self.offset, 1.0 if terminated else 0.0, terminated, truncated, {}
