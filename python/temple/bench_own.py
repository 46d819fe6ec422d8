"""The cost of judging a Python learner with temple: one learner's experiment through `temple run`
(type: python: its cells in Python workers, stepped by the runner's own code through temple's
library) against the same learner driven by a plain Python loop over temple.make's tasks (the
same tasks, episodes and steps).

    python3 -m temple.bench_own [--runs 4] [--tasks 10] [--episodes 200] [--steps 30] [--repeat 3]

prints both times (the median of --repeat, wall and CPU) and their ratio. The plain loop is the
least a Python user's own loop costs: it records nothing; temple run also measures every step
against the optimal policy (the oracle), writes the results directory, its figures and
report.html, and runs each cell in a worker process of its own (on up to --jobs cores; the plain
loop runs on one). The learner is the guide's OptQ (examples/own-learner/optq.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import temple
from temple.learner import load_class

LEARNER = '''
import random


class OptQ:
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
'''


def plain_loop(cls, runs, tasks, episodes, steps, seed=1):
    """Wall and CPU seconds of cls driven by a plain loop over temple.make's tasks of every run."""
    wall, cpu = time.perf_counter(), time.process_time()
    for run in range(runs):
        with temple.make("online-maze", seed=seed, run=run, agent="OptQ", count=tasks, episodes=episodes,
                         steps=steps) as seq:
            learner = cls(seed=run)
            for k, task in enumerate(seq):
                learner.begin_task(n_states=task.observation_space.n, n_actions=task.action_space.n, gamma=0.95,
                                   index=k, terminal=[], seed=k)
                act, observe, step = learner.act, learner.observe, task.step
                for _ in range(episodes):
                    s, _ = task.reset()
                    while True:
                        a = act(s)
                        s2, r, terminated, truncated, _ = step(a)
                        observe(s, a, r, s2, terminated)
                        s = s2
                        if terminated or truncated:
                            break
                learner.end_task()
    return time.perf_counter() - wall, time.process_time() - cpu


def temple_run(directory, runs, tasks, episodes, steps, jobs, seed=1):
    """Wall and CPU seconds (children included) of `temple run` on the same experiment."""
    config = {"name": "bench-own", "seed": seed, "runs": runs, "episodes": episodes, "steps": steps,
              "tasks": {"family": "online-maze", "count": tasks},
              "agents": [{"type": "python", "name": "OptQ", "class": "optq:OptQ"}]}
    path = os.path.join(directory, "bench.yaml")
    with open(path, "w") as f:
        json.dump(config, f)
    out = os.path.join(directory, "out")
    before = os.times()
    wall = time.perf_counter()
    subprocess.run([temple.command_path(), "run", path, "--out", out, "--force", "--jobs", str(jobs)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, TEMPLE_PYTHON=sys.executable))
    wall = time.perf_counter() - wall
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--tasks", type=int, default=10)
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=1, help="temple run's workers (default 1, as the plain loop)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp()
    try:
        with open(os.path.join(tmp, "optq.py"), "w") as f:
            f.write(LEARNER)
        OptQ = load_class("optq:OptQ", os.path.join(tmp, "optq.py"))
        plain, judged = [], []
        for _ in range(args.repeat):
            plain.append(plain_loop(OptQ, args.runs, args.tasks, args.episodes, args.steps))
            judged.append(temple_run(tmp, args.runs, args.tasks, args.episodes, args.steps, args.jobs))
    finally:
        shutil.rmtree(tmp)
    p_wall, p_cpu = statistics.median(w for w, _ in plain), statistics.median(c for _, c in plain)
    t_wall, t_cpu = statistics.median(w for w, _ in judged), statistics.median(c for _, c in judged)
    n = args.runs * args.tasks * args.episodes * args.steps
    print("a Python learner (OptQ), %d runs x %d tasks x %d episodes x at most %d steps (at most %d steps), median of %d:"
          % (args.runs, args.tasks, args.episodes, args.steps, n, args.repeat))
    print("  plain loop over temple.make: %6.2f s wall, %6.2f s CPU" % (p_wall, p_cpu))
    print("  temple run (--jobs %d):       %6.2f s wall, %6.2f s CPU" % (args.jobs, t_wall, t_cpu))
    print("  ratio temple run / plain loop: %.2f wall, %.2f CPU (load average %.1f on %d cores)"
          % (t_wall / p_wall, t_cpu / p_cpu, os.getloadavg()[0], os.cpu_count() or 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
