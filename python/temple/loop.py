"""Driving a temple agent through a Gymnasium-style environment: temple.run_episodes.

Any object with Gymnasium's API works (duck-typed; Gymnasium itself is never imported):
env.reset(seed=None) -> (observation, info), env.step(action) -> (observation, reward, terminated,
truncated, info), and Discrete observation_space and action_space (attributes n and, optionally,
start).

>>> import temple
>>> with temple.Agent("rmax", seed=1, m=5) as agent, temple.make("online-maze", count=1) as env:
...     returns = temple.run_episodes(agent, env[0], episodes=3)
>>> len(returns)
3
"""

from __future__ import annotations

import operator
from typing import Any, Iterable, List, Optional, Tuple

__all__ = ["run_episodes", "space_size"]


def space_size(space: Any, what: str) -> Tuple[int, int]:
    """(n, start) of a Discrete space: its number of elements and its first element."""
    n = getattr(space, "n", None)
    if n is None:
        raise TypeError("%s is %r, want a Discrete space (with n): temple learns on finite state and "
                        "action sets" % (what, space))
    return operator.index(n), operator.index(getattr(space, "start", 0))


def run_episodes(agent: Any, env: Any, episodes: int, max_steps: Optional[int] = None, gamma: Optional[float] = None,
        seed: Optional[int] = None, terminal_states: Optional[Iterable[int]] = None) -> List[float]:
    """Runs episodes of env with agent and returns the return (undiscounted sum of rewards) of
    each episode, as a list.

    If the agent has no task in progress, run begins one with the sizes of env's spaces, gamma
    and terminal_states (see Agent.begin_task) and ends it after the last episode; otherwise it
    continues the task in progress and leaves it open.

    An episode ends as Gymnasium's do: when a step reports terminated (the next state is terminal:
    the agent is told, and bootstraps nothing past it) or truncated (a time limit: an ordinary
    step for the agent), or after max_steps steps (a truncation of run's own; None: no limit).
    seed seeds the first reset only, as Gymnasium's convention is.

    On a task of temple.make, gamma and terminal_states default to the task's (its gamma and
    the terminal states the runner declares), so that the agent begins the task as in the runner.
    """
    episodes = operator.index(episodes)
    if episodes < 0:
        raise ValueError("episodes = %d, want >= 0" % episodes)
    if max_steps is not None:
        max_steps = operator.index(max_steps)
        if max_steps < 1:
            raise ValueError("max_steps = %d, want >= 1 (or None: no limit)" % max_steps)
    from .envs import Task, TaskSequence
    if isinstance(env, (Task, TaskSequence)):
        gamma = env.gamma if gamma is None else gamma
    if isinstance(env, Task):
        terminal_states = env.terminal_states if terminal_states is None else terminal_states
    n_states, s0 = space_size(env.observation_space, "observation_space")
    n_actions, a0 = space_size(env.action_space, "action_space")
    began = False
    if not agent.in_task:
        if gamma is None:
            raise ValueError("gamma is needed to begin a task (the agent has no task in progress)")
        agent.begin_task(n_states, n_actions, gamma, terminal_states=terminal_states)
        began = True
    elif agent.n_states != n_states or agent.n_actions != n_actions:
        raise ValueError("the task in progress has %d states and %d actions, env has %d and %d" %
                         (agent.n_states, agent.n_actions, n_states, n_actions))
    act, observe, observe_act, step = agent.act, agent.observe, agent.observe_act, env.step
    returns = []
    for e in range(episodes):
        obs, _ = env.reset(seed=seed if e == 0 else None)
        s = operator.index(obs) - s0
        a = act(s)
        ret, t = 0.0, 0
        while True:
            obs, r, terminated, truncated, _ = step(a + a0)
            s2 = operator.index(obs) - s0
            ret += r
            t += 1
            if terminated or truncated or (max_steps is not None and t >= max_steps):
                observe(s, a, r, s2, terminated)
                break
            a = observe_act(s, a, r, s2)  # observe the step, then act in s2: one call
            s = s2
        agent.end_episode()
        returns.append(float(ret))
    if began:
        agent.end_task()
    return returns
