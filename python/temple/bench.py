"""The cost of temple from Python: act + observe pairs per second of a temple agent,
environment steps per second of a temple task (temple.make), and a Python learner's loop on
temple.make, each from a plain Python loop.

    python3 -m temple.bench [--type o-temple] [--steps 1000000]

prints, per agent type, the pairs per second with act() and observe() (two calls into the library
per step) and with observe_act() (one, as temple.run_episodes makes them), on a no-op environment
(the next state is the state after s, reward 0, never terminated), so that the figure is the
boundary's cost plus the learner's; then three summary lines: the latter figure for the first
type; the step() calls per second of the first task of temple.make("online-maze", seed=1) (a 4x4
maze, actions in turn, reset at the end of every 30-step episode); and the steps per second of a
pure-Python tabular Q-learning loop (ε-greedy, lists of lists) on temple.make("online-maze",
seed=1) as one environment — the figure a Python user's own learner sees. Each per second of
wall time and per second of CPU time (the figure that holds when other processes share the
cores), with the machine's load average beside it, since a loaded machine's wall figure says
little.
"""

import argparse
import os
import random
import time

import temple


def pairs_per_second(agent_type, steps, combined, n_states=64, n_actions=4):
    """act + observe pairs per second of agent_type over steps steps of the no-op environment:
    per second of wall time and per second of the process's CPU time (all its threads, the Go
    runtime's included), which is the machine's speed when other processes share its cores.
    combined: each step is one observe_act call (as temple.run_episodes makes them), else act() and
    observe()."""
    with temple.Agent(agent_type, seed=1) as agent:
        agent.begin_task(n_states=n_states, n_actions=n_actions, gamma=0.95)
        act, observe, observe_act = agent.act, agent.observe, agent.observe_act
        s = 0
        wall, cpu = time.perf_counter(), time.process_time()
        if combined:
            a = act(s)
            for _ in range(steps):
                s2 = s + 1 if s + 1 < n_states else 0
                a = observe_act(s, a, 0.0, s2)
                s = s2
        else:
            for _ in range(steps):
                a = act(s)
                s2 = s + 1 if s + 1 < n_states else 0
                observe(s, a, 0.0, s2, False)
                s = s2
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        agent.end_episode()
        agent.end_task()
    return steps / wall, steps / cpu


def env_steps_per_second(steps, family="online-maze"):
    """step() calls per second on the first task of temple.make(family, seed=1), actions in turn,
    reset after every episode: per second of wall time and of the process's CPU time."""
    with temple.make(family, seed=1) as seq:
        task = seq[0]
        step, reset, n_actions = task.step, task.reset, task.action_space.n
        n = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while n < steps:
            reset()
            a = 0
            while True:
                _, _, terminated, truncated, _ = step(a)
                n += 1
                a = a + 1 if a + 1 < n_actions else 0
                if terminated or truncated:
                    break
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return n / wall, n / cpu


def q_learning_steps_per_second(steps, family="online-maze", alpha=0.1, gamma=0.95, epsilon=0.1):
    """Steps per second of tabular Q-learning written in Python (a list of action values per
    state, ε-greedy, one update per step) on temple.make(family, seed=1) as one environment,
    through its tasks in order: per second of wall time and of the process's CPU time."""
    with temple.make(family, seed=1) as env:
        n_actions = env.action_space.n
        q = [[0.0] * n_actions for _ in range(env.observation_space.n)]
        rng = random.Random(1)
        draw, pick = rng.random, rng.randrange
        step, reset = env.step, env.reset
        n = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while n < steps:
            s, info = reset()
            if info["new_task"]:  # a single-task learner starts afresh on every task
                q = [[0.0] * n_actions for _ in range(env.observation_space.n)]
            while True:
                qs = q[s]
                a = pick(n_actions) if draw() < epsilon else qs.index(max(qs))
                s2, r, terminated, truncated, _ = step(a)
                qs[a] += alpha * (r + (0.0 if terminated else gamma * max(q[s2])) - qs[a])
                s = s2
                n += 1
                if terminated or truncated:
                    break
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return n / wall, n / cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--type", action="append", help="agent type (repeatable; default: o-temple, rmax, q-learning)")
    ap.add_argument("--steps", type=int, default=1_000_000, help="act + observe pairs per type, and environment steps")
    args = ap.parse_args()
    types = args.type or ["o-temple", "rmax", "q-learning"]
    first = None
    for t in types:
        for combined, how in [(False, "act() + observe()"), (True, "observe_act()   ")]:
            wall, cpu = pairs_per_second(t, args.steps, combined)
            print("%-11s %s %9.0f pairs/s of wall time, %9.0f per CPU second (%d pairs, 64 states, 4 actions)"
                  % (t, how, wall, cpu, args.steps))
            if t == types[0] and combined:
                first = (wall, cpu)
    print("%.0f act+observe pairs per second (%s, observe_act as temple.run_episodes calls it, wall time; %.0f per CPU second)"
          % (first[0], types[0], first[1]))
    wall, cpu = env_steps_per_second(args.steps)
    print("%.0f environment steps per second (temple.make(\"online-maze\") task 0, step() from Python, wall time; "
          "%.0f per CPU second)" % (wall, cpu))
    wall, cpu = q_learning_steps_per_second(args.steps)
    print("%.0f steps per second of tabular Q-learning in Python on temple.make(\"online-maze\") (wall time; "
          "%.0f per CPU second; load average %.1f on %d cores)" % (wall, cpu, os.getloadavg()[0], os.cpu_count() or 1))


if __name__ == "__main__":
    main()
