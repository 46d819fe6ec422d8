"""temple's task families as Gymnasium-style environments.

    import temple
    for task in temple.make("online-maze", seed=1, run=0):   # a run's task sequence
        obs, info = task.reset()
        obs, reward, terminated, truncated, info = task.step(0)

temple.make draws the task sequence that temple's runner draws for run `run` of an experiment
with seed `seed` whose tasks: block is the family with its parameters (the keys of a config's
tasks: block, as keyword arguments). Each task is an environment with Gymnasium's API:
reset(seed=None) -> (observation, info), step(action) -> (observation, reward, terminated,
truncated, info), Discrete observation_space and action_space. Its episodes go as the runner's
do: they start by the config's start rule (a start drawn once per task by default, shared by
every agent of the run), end at a terminal state (terminated) or after `steps` steps
(truncated), and a table task's transitions are drawn from the stream the runner gives agent
`agent` — name an agent of a config to see exactly its transitions. task.optimal_value(s) is the
finite-horizon optimum of an episode from s, the yardstick of the runner's share of optimal.
"""

from __future__ import annotations

import ctypes
import json
import operator
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from . import _lib
from ._lib import TempleError

__all__ = ["Discrete", "Task", "TaskSequence", "make"]

TERMINATED = 1 << 32  # temple_env_step: the step reached a terminal state
TRUNCATED = 1 << 33  # temple_env_step: the episode was cut at its length
_STATE = (1 << 32) - 1


class Discrete:
    """Gymnasium's Discrete space: the integers 0 .. n-1 (temple.gym.run and Gymnasium wrappers
    read n and start)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.start = 0

    def contains(self, x: Any) -> bool:
        try:
            return 0 <= operator.index(x) < self.n
        except TypeError:
            return False

    def __repr__(self) -> str:
        return "Discrete(%d)" % self.n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Discrete) and other.n == self.n


def make(family: str, seed: int = 0, run: int = 0, *, agent: str = "", episodes: Optional[int] = None,
         steps: Optional[int] = None, gamma: Optional[float] = None, start: Optional[str] = None,
         start_cell: Optional[Sequence[int]] = None, start_state: Optional[int] = None,
         params: Optional[Dict[str, Any]] = None, **kwargs: Any) -> "TaskSequence":
    """The task sequence of run `run` of an experiment with seed `seed` whose tasks: block is
    `family` with its parameters (params= and keyword arguments: the family's config keys, e.g.
    make("online-maze", tasks=5, width=6, height=6)).

    The settings of the episodes are the config's top-level keys, with a config's defaults:
    episodes (3000: the runner's episodes per task; the environments do not count them), steps
    (30: an episode is truncated after that many steps), gamma (0.95, for the learner), start
    ("random-per-task", "random-per-episode" or "fixed" with start_cell or start_state).

    agent names whose transition stream a table task's steps draw from, as the runner gives each
    agent its own (the agent's name in a config, by default its type's display name: "O-TempLe");
    the start states are shared by every agent. A family, parameter or setting that temple
    refuses raises TempleError with its message.
    """
    return TaskSequence(family, seed, run, agent=agent, params=params, kwargs=kwargs,
                        settings={"episodes": episodes, "steps": steps, "gamma": gamma, "start": start,
                                  "start_cell": start_cell, "start_state": start_state})


class TaskSequence(Sequence["Task"]):
    """A run's tasks (temple.make): a sequence of Task environments, in the order the runner's
    agents meet them. family, seed, run and agent are make's; params the family's parameters,
    its defaults included; episodes, steps, gamma and start the settings. Closing it (or leaving
    a with block) frees the tasks' models."""

    def __init__(self, family: str, seed: int, run: int, *, agent: str, params: Optional[Dict[str, Any]],
                 kwargs: Dict[str, Any], settings: Dict[str, Any]) -> None:
        from . import _json_number
        lib = _lib.library()
        p = dict(params or {})
        p.update(kwargs)
        given = {k: v for k, v in settings.items() if v is not None}
        try:
            ptext = json.dumps(p, allow_nan=False, default=_json_number)
            stext = json.dumps(given, allow_nan=False, default=_json_number)
        except (TypeError, ValueError) as e:
            raise TempleError("family %s: parameters %r: %s" % (family, p, e)) from None
        seed = operator.index(seed)
        if seed < 0 or seed >= 1 << 64:
            raise TempleError("seed = %d, want 0 <= seed < 2**64" % seed)
        err = ctypes.c_void_p()
        h = lib.temple_tasks_new(str(family).encode(), ptext.encode(), stext.encode(), seed, operator.index(run),
                                 str(agent).encode(), ctypes.byref(err))
        if h == 0:
            raise TempleError(_lib.take_string(err.value))
        self._lib, self._h = lib, h
        info = json.loads(_lib.take_string(lib.temple_tasks_info(h)) or "{}")
        s = info["settings"]
        self.family: str = family
        self.seed: int = seed
        self.run: int = operator.index(run)
        self.agent: str = agent
        self.params: Dict[str, Any] = info["params"]
        self.episodes: int = s["episodes"]
        self.steps: int = s["steps"]
        self.gamma: float = s["gamma"]
        self.start: str = s["start"]
        self._tasks = [Task(self, t) for t in info["tasks"]]
        _lib.track(self)

    def __len__(self) -> int:
        return len(self._tasks)

    def __getitem__(self, k):  # type: ignore[override]
        return self._tasks[k]

    def __iter__(self) -> Iterator["Task"]:
        return iter(self._tasks)

    def close(self) -> None:
        """Frees the tasks and their environments; closing twice is harmless."""
        for t in self._tasks:
            t.close()
        if self._h:
            self._lib.temple_close(self._h)
            self._h = 0

    def __enter__(self) -> "TaskSequence":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if getattr(self, "_h", 0) and _lib._pid is not None:
                import os
                if os.getpid() == _lib._pid:
                    self.close()
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        return "temple.make(%r, seed=%d, run=%d): %d tasks" % (self.family, self.seed, self.run, len(self))

    def _failure(self, code: int) -> TempleError:
        if not self._h:
            return TempleError("the task sequence is closed")
        return TempleError(_lib.take_string(self._lib.temple_error(self._h)))

    def _disable_after_fork(self) -> None:
        self._h = 0
        for t in self._tasks:
            t._h = 0
            t._step = t._reset = _forked


def _forked(*args: Any) -> Any:
    raise _lib.forked_error()


class Task:
    """One task of a run as an environment with Gymnasium's API.

    observation_space and action_space are Discrete(n_states) and Discrete(n_actions);
    max_episode_steps is the episode length T (the sequence's steps), gamma the discount the
    learner is given, episodes the runner's number of episodes per task. index, name, family
    (the family of the task itself: maze, frozenlake, ...), params (its definition, as a results
    directory's tasks.json holds it), terminal_states (declared to the runner's learners up
    front; a simulator's are learned from the steps) and simulator describe it; reset's info
    holds them too.
    """

    def __init__(self, seq: TaskSequence, info: Dict[str, Any]) -> None:
        self._seq, self._lib = seq, seq._lib
        self.index: int = info["index"]
        self.name: str = info["name"]
        self.family: str = info["family"]
        self.params: Dict[str, Any] = info["params"]
        self.terminal_states: List[int] = info["terminal_states"]
        self.simulator: bool = info["simulator"]
        self.observation_space = Discrete(info["n_states"])
        self.action_space = Discrete(info["n_actions"])
        self.max_episode_steps: int = seq.steps
        self.gamma: float = seq.gamma
        self.episodes: int = seq.episodes
        self.start: Optional[int] = None  # the start state of the episode in progress
        self._h = 0
        self._seed: Optional[int] = None
        self._reward = ctypes.c_double()
        self._rref = ctypes.byref(self._reward)
        self._step = self._lib.steps.temple_env_step
        self._reset = self._lib.steps.temple_env_reset

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[int, Dict[str, Any]]:
        """Starts an episode: (start state, info). The first reset begins the task's streams
        where the runner begins them; later resets continue them, as the runner's episodes do.
        seed restarts them as those of an experiment with that seed (the tasks stay the
        sequence's). info: the sequence's family, the task's index, name, family and params."""
        if seed is not None or not self._h:
            self._open(self._seq.seed if seed is None else operator.index(seed))
        s = self._reset(self._h)
        if s < 0:
            raise self._failure(s)
        self.start = s
        return s, {"family": self._seq.family, "index": self.index, "name": self.name, "task_family": self.family,
                   "params": self.params}

    def step(self, action: int) -> Tuple[int, float, bool, bool, Dict[str, Any]]:
        """Takes action: (next state, reward, terminated, truncated, info). terminated: the next
        state is terminal; truncated: the episode reached its length (max_episode_steps) or a
        simulator's own time limit. Either ends the episode: the next call is reset."""
        try:
            x = self._step(self._h, action, self._rref)
        except ctypes.ArgumentError:
            x = self._step(self._h, operator.index(action), self._rref)
        if x < 0:
            raise self._failure(x)
        return x & _STATE, self._reward.value, x & TERMINATED != 0, x & TRUNCATED != 0, {}

    def optimal_value(self, state: Optional[int] = None) -> float:
        """V_T(state): the largest expected return of an episode of T = max_episode_steps steps
        from state (default: the start of the episode in progress), by backward induction on the
        task's true model — what the runner sums over a task's episodes as its optimal_reward,
        so that a learner's share of optimal is Σ returns / Σ optimal_value(start). A simulator
        has no true model: TempleError."""
        if state is None:
            if self.start is None:
                raise TempleError("optimal_value: no episode has started: give a state or call reset first")
            state = self.start
        v = ctypes.c_double()
        self._check(self._lib.temple_optimal_value(self._seq._h, self.index, operator.index(state), ctypes.byref(v)),
                    seq=True)
        return v.value

    def close(self) -> None:
        """Frees the task's environment (reset opens a new one at the streams' beginning)."""
        if self._h:
            self._lib.temple_close(self._h)
            self._h = 0

    def __repr__(self) -> str:
        return "<temple task %d of %s: %s, %d states, %d actions>" % (
            self.index, self._seq.family, self.name, self.observation_space.n, self.action_space.n)

    def _open(self, seed: int) -> None:
        if seed < 0 or seed >= 1 << 64:
            raise TempleError("seed = %d, want 0 <= seed < 2**64" % seed)
        self.close()
        h = self._lib.temple_env_new(self._seq._h, self.index, seed)
        if h < 0:
            raise self._seq._failure(h)
        self._h = h

    def _failure(self, code: int) -> TempleError:
        if not self._h:
            return TempleError("no episode in progress: call reset first" if self._seq._h else
                               "the task sequence is closed")
        return TempleError(_lib.take_string(self._lib.temple_error(self._h)))

    def _check(self, code: int, seq: bool = False) -> None:
        if code < 0:
            raise self._seq._failure(code) if seq else self._failure(code)
