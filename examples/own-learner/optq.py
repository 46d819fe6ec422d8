"""Optimistic Q-learning with a count bonus: a learner of thirty lines, written outside temple,
judged by temple beside its own (docs/guides/own-learner.md)."""

import random


class OptQ:
    """Q-learning whose values start optimistic and whose target adds bonus/√n(s,a)."""

    def __init__(self, seed, alpha=0.2, bonus=1.0, q_init=1.0):
        self.alpha, self.bonus, self.q_init = alpha, bonus, q_init
        self.rng = random.Random(seed)

    def begin_task(self, n_states, n_actions, gamma, index, terminal, seed):
        self.gamma, self.A = gamma, n_actions
        self.q = [[self.q_init] * n_actions for _ in range(n_states)]
        self.n = [[0] * n_actions for _ in range(n_states)]
        self.rng = random.Random(seed)

    def act(self, state):
        q = self.q[state]
        best = max(q)
        return self.rng.choice([a for a in range(self.A) if q[a] == best])

    def observe(self, state, action, reward, next_state, terminated):
        self.n[state][action] += 1
        bonus = self.bonus / self.n[state][action] ** 0.5
        target = reward + bonus + (0.0 if terminated else self.gamma * max(self.q[next_state]))
        self.q[state][action] += self.alpha * (target - self.q[state][action])

    def end_task(self):
        return {"visited_pairs": sum(1 for row in self.n for c in row if c > 0)}
