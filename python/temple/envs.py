"""temple's task families as Gymnasium-style environments, without Gymnasium.

temple.make(family, ...) is one run's task sequence, as temple's runner draws it, and it is an
environment itself: its episodes go through the tasks in order, `episodes` episodes each, as the
runner's agents meet them; info says which task an episode is on. Each task is an environment of
its own too (a TaskSequence is a sequence of Task):

>>> import temple
>>> env = temple.make("online-maze", seed=1, count=3, episodes=2)
>>> obs, info = env.reset(seed=1)
>>> info["task"], info["new_task"], env.observation_space, env.action_space
(0, True, Discrete(16), Discrete(4))
>>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
>>> sorted(info)
['episode_step', 'task']
>>> [task.name for task in env]
['maze 4x4 #0', 'maze 4x4 #1', 'maze 4x4 #2']
>>> env.close()

Environments follow Gymnasium's API: reset(seed=None, options=None) -> (observation, info),
step(action) -> (observation, reward, terminated, truncated, info), Discrete observation_space
and action_space with sample() and seed(), metadata, spec, np_random, unwrapped, render() (text)
and close(). Their episodes go as the runner's do: they start by the config's start rule (one
start per task by default, shared by every agent of the run), end at a terminal state
(terminated) or after `steps` steps (truncated), and a table task's transitions are drawn from
the stream the runner gives agent `agent`. temple.families() lists the families and their
parameters.
"""

from __future__ import annotations

import ctypes
import json
import random
import subprocess
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from . import _lib
from ._checks import index as check_index
from ._checks import integer
from ._checks import seed as check_seed
from ._checks import text as check_text
from ._checks import values as check_values
from ._lib import TempleError

__all__ = ["Discrete", "EnvSpec", "Task", "TaskSequence", "families", "make"]

TERMINATED = 1 << 32  # temple_env_step: the step reached a terminal state
TRUNCATED = 1 << 33  # temple_env_step: the episode was cut at its length
STATE = TERMINATED - 1  # temple_env_step: the next state, in the low 32 bits

RENDER_MODES = ["ansi", "human"]


class Discrete:
    """Gymnasium's Discrete space: the integers start .. start+n-1, with sample() and seed().

    >>> space = temple.Discrete(4, seed=7)
    >>> a = space.sample()
    >>> a in space, space.contains(4), space.sample(mask=[0, 0, 1, 0])
    (True, False, 2)
    >>> space.seed(7) == [7] and temple.Discrete(4, seed=7).sample() == temple.Discrete(4, seed=7).sample()
    True

    np_random is a random.Random (Gymnasium's is a NumPy Generator; temple needs no NumPy): seeded
    by seed(), or from the operating system's entropy on first use.
    """

    shape: Tuple[int, ...] = ()
    dtype = "int64"

    def __init__(self, n: int, seed: Optional[int] = None, start: int = 0) -> None:
        self.n = check_index(n, "n")
        if self.n < 1:
            raise ValueError("n = %d, want a space of at least one element" % self.n)
        self.start = integer(start, "start")
        self._rng: Optional[random.Random] = None
        if seed is not None:
            self.seed(seed)

    @property
    def np_random(self) -> random.Random:
        """The space's random generator (random.Random), seeded on first use if seed() was not called."""
        if self._rng is None:
            self.seed()
        return self._rng  # type: ignore[return-value]

    def seed(self, seed: Optional[int] = None) -> List[int]:
        """Seeds sample(): the same seed gives the same samples. Returns [seed] (the seed drawn
        from the operating system's entropy when None), as Gymnasium's spaces do."""
        s = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
        self._rng = random.Random(s)
        return [s]

    def sample(self, mask: Optional[Sequence[int]] = None) -> int:
        """A uniformly drawn element; with mask (n flags, 1 where allowed), one of those allowed,
        or start when none is (as Gymnasium's)."""
        if mask is None:
            return self.start + self.np_random.randrange(self.n)
        if len(mask) != self.n:
            raise ValueError("mask of %d flags, want one per element (n = %d)" % (len(mask), self.n))
        allowed = [k for k, m in enumerate(mask) if m]
        if not allowed:
            return self.start
        return self.start + allowed[self.np_random.randrange(len(allowed))]

    def contains(self, x: Any) -> bool:
        """Whether x is an integer in [start, start+n)."""
        try:
            return self.start <= integer(x, "x") < self.start + self.n
        except TypeError:
            return False

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)

    def __repr__(self) -> str:
        return "Discrete(%d)" % self.n if self.start == 0 else "Discrete(%d, start=%d)" % (self.n, self.start)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Discrete) and (other.n, other.start) == (self.n, self.start)

    def __hash__(self) -> int:
        return hash((Discrete, self.n, self.start))


class EnvSpec:
    """What made an environment, as Gymnasium's env.spec says it: id ("temple/FAMILY"),
    entry_point, max_episode_steps and the keyword arguments of temple.make (kwargs), so that
    temple.make(spec.kwargs["family"], **rest) makes it again."""

    def __init__(self, family: str, max_episode_steps: int, kwargs: Dict[str, Any]) -> None:
        self.id = "temple/" + family
        self.entry_point = "temple:make"
        self.max_episode_steps = max_episode_steps
        self.kwargs = dict(kwargs, family=family)
        self.nondeterministic = False

    def __repr__(self) -> str:
        return "EnvSpec(id=%r, max_episode_steps=%d)" % (self.id, self.max_episode_steps)


def families() -> List[Dict[str, Any]]:
    """The task families make() takes, in name order: dicts with the family's name, a summary and
    its parameters (params: each with its key, type, default, range and doc), from the same
    source as `temple describe families` and the configuration reference.

    >>> maze = next(f for f in temple.families() if f["name"] == "online-maze")
    >>> [(p["key"], p["default"], p["range"]) for p in maze["params"]][:2]
    [('width', '4', '>= 1, width·height >= 2'), ('height', '4', '>= 1, width·height >= 2')]
    """
    from ._command import command_path
    p = subprocess.run([command_path(), "describe", "families", "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise TempleError("temple describe families: %s" % p.stderr.strip())
    return json.loads(p.stdout)["families"]


def make(family: str, seed: int = 0, run: int = 0, *, agent: str = "", episodes: Optional[int] = None,
         steps: Optional[int] = None, gamma: Optional[float] = None, start: Optional[str] = None,
         start_cell: Optional[Sequence[int]] = None, start_state: Optional[int] = None,
         render_mode: Optional[str] = None, params: Optional[Dict[str, Any]] = None,
         **kwargs: Any) -> "TaskSequence":
    """The task sequence of run `run` of an experiment with seed `seed` whose tasks: block is
    `family` with its parameters (params= and keyword arguments: the family's config keys, listed
    by temple.families()), as one environment whose episodes go through the tasks in order, and
    as a sequence of Task environments.

    >>> env = temple.make("online-maze", count=5, width=6, height=6)
    >>> len(env), env[4].observation_space, env.spec
    (5, Discrete(36), EnvSpec(id='temple/online-maze', max_episode_steps=30))

    The settings of the episodes are the config's top-level keys, with a config's defaults:
    episodes (3000: the episodes of each task before the sequence moves to the next), steps
    (30: an episode is truncated after that many steps), gamma (0.95, for the learner), start
    ("random-per-task", "random-per-episode" or "fixed" with start_cell or start_state).
    render_mode is None, "ansi" (render() returns the text) or "human" (render() prints it).

    agent names whose transition stream a table task's steps draw from, as the runner gives each
    agent its own (the agent's name in a config, by default its type's display name: "O-TempLe");
    the start states are shared by every agent. A family, parameter or setting that temple
    refuses raises TempleError with its message; a seed or run outside 64 bits OverflowError, a
    negative one ValueError.
    """
    settings = {"episodes": episodes, "steps": steps, "gamma": gamma, "start": start, "start_cell": start_cell,
                "start_state": start_state}
    return TaskSequence(family, seed, run, agent=agent, params=params, kwargs=kwargs, settings=settings,
                        render_mode=render_mode)


def _checked_render_mode(mode: Optional[str]) -> Optional[str]:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError("render_mode = %r, want None or one of %s" % (mode, ", ".join(RENDER_MODES)))
    return mode


class TaskSequence(Sequence["Task"]):
    """A run's tasks (temple.make): a sequence of Task environments, in the order the runner's
    agents meet them, and one environment that goes through them.

    As an environment, reset() starts the next episode: `episodes` episodes of task 0, then of
    task 1, and so on (info["task"] is the task, info["new_task"] whether the episode is the
    task's first: a multi-task learner ends its task and begins the next one there); reset(seed)
    starts again from task 0 with the streams of an experiment with that seed. Past the last
    task, reset raises TempleError. observation_space and action_space are the current task's
    (the same for every task of most families; check info["new_task"] where they differ).

    family, seed, run and agent are make's; params the family's parameters, its defaults
    included; episodes, steps, gamma and start the settings. Closing it (or leaving a with block)
    frees the tasks' models.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(self, family: str, seed: int, run: int, *, agent: str, params: Optional[Dict[str, Any]],
                 kwargs: Dict[str, Any], settings: Dict[str, Any], render_mode: Optional[str] = None) -> None:
        from . import _json_number
        lib = _lib.library()
        seed, run = check_seed(seed), check_index(run, "run")
        self.render_mode = _checked_render_mode(render_mode)
        p = dict(params or {})
        p.update(kwargs)
        given = {k: v for k, v in settings.items() if v is not None}
        family, agent = check_text(family, "family"), check_text(agent, "agent")
        check_values(p, "family %s" % family)
        check_values(given, "family %s: the settings" % family)
        try:
            ptext = json.dumps(p, allow_nan=False, default=_json_number)
        except (TypeError, ValueError) as e:
            raise TempleError("family %s: parameters %r: %s" % (family, p, e)) from None
        try:
            stext = json.dumps(given, allow_nan=False, default=_json_number)
        except (TypeError, ValueError) as e:
            raise TempleError("family %s: settings %r: %s" % (family, given, e)) from None
        err = ctypes.c_void_p()
        h = lib.temple_tasks_new(family.encode(), ptext.encode(), stext.encode(), seed, run,
                                 agent.encode(), ctypes.byref(err))
        if h == 0:
            raise TempleError(_lib.take_string(err.value))
        self._lib, self._h = lib, h
        info = json.loads(_lib.take_string(lib.temple_tasks_info(h)) or "{}")
        s = info["settings"]
        self.family: str = family
        self.seed: int = seed
        self.run: int = run
        self.agent: str = agent
        self.params: Dict[str, Any] = info["params"]
        self.episodes: int = s["episodes"]
        self.steps: int = s["steps"]
        self.gamma: float = s["gamma"]
        self.start: str = s["start"]
        self.max_episode_steps: int = self.steps
        made = dict(p, seed=seed, run=run, agent=agent, render_mode=render_mode, **given)
        self.spec = EnvSpec(family, self.steps, made)
        self._tasks = [Task(self, t) for t in info["tasks"]]
        self._k, self._episode = 0, -1  # the current task, and its episodes begun less one
        self._streams = seed  # the experiment seed of the streams the episodes draw from
        self._np_random: Optional[random.Random] = None
        _lib.track(self)

    # -- the sequence ----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._tasks)

    def __getitem__(self, k):  # type: ignore[override]
        return self._tasks[k]

    def __iter__(self) -> Iterator["Task"]:
        return iter(self._tasks)

    # -- one environment through the tasks -----------------------------------------------------

    @property
    def task(self) -> "Task":
        """The task the episodes are on."""
        return self._tasks[self._k]

    @property
    def observation_space(self) -> Discrete:
        """The current task's observation space."""
        return self.task.observation_space

    @property
    def action_space(self) -> Discrete:
        """The current task's action space."""
        return self.task.action_space

    @property
    def np_random(self) -> random.Random:
        """A random.Random for the caller's own draws (Gymnasium's env.np_random; temple's
        transitions draw from the runner's streams in the library): seeded by reset(seed)."""
        if self._np_random is None:
            self._np_random = random.Random(self.seed)
        return self._np_random

    @property
    def unwrapped(self) -> "TaskSequence":
        """The environment itself (no wrappers)."""
        return self

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[int, Dict[str, Any]]:
        """Starts the next episode: (start state, info). With seed, the sequence starts again at
        task 0 with the streams of an experiment of that seed. info: the task's (Task.reset),
        with "task" (its index), "episode" (the task's episode, from 0) and "new_task"."""
        if seed is not None:
            self._streams = check_seed(seed)
            self._np_random = random.Random(self._streams)
            self._tasks[self._k].close()
            self._k, self._episode = 0, -1
        if self._episode + 1 >= self.episodes:
            if self._k + 1 >= len(self._tasks):
                raise TempleError("the sequence is over: its %d tasks have had their %d episodes each; make a new "
                                  "one, or reset(seed=...) to start again" % (len(self._tasks), self.episodes))
            self._tasks[self._k].close()
            self._k, self._episode = self._k + 1, -1
        self._episode += 1
        task = self._tasks[self._k]
        # A task's first episode opens its streams at their beginning, as the runner's tasks begin.
        obs, info = task.reset(seed=self._streams) if self._episode == 0 else task.reset()
        info["episode"], info["new_task"] = self._episode, self._episode == 0
        return obs, info

    def step(self, action: int) -> Tuple[int, float, bool, bool, Dict[str, Any]]:
        """Takes action in the current task's episode (Task.step)."""
        return self._tasks[self._k].step(action)

    def render(self) -> Optional[str]:
        """The current task's render() (Task.render)."""
        return self.task.render()

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
            t.step = t._reset = _forked  # type: ignore


def _forked(*args: Any) -> Any:
    raise _lib.forked_error()


class Task:
    """One task of a run as an environment with Gymnasium's API.

    observation_space and action_space are Discrete(n_states) and Discrete(n_actions);
    max_episode_steps is the episode length T (the sequence's steps), gamma the discount the
    learner is given, episodes the runner's number of episodes per task. index, name ("maze 4x4
    #3": the task's own name and its index), family (the family of the task itself: maze,
    frozenlake, ...), params (its definition, as a results directory's tasks.json holds it),
    terminal_states (declared to the runner's learners up front; a simulator's are learned from
    the steps) and simulator describe it; reset's info holds them too. metadata, spec,
    np_random, unwrapped, render() and close() are Gymnasium's.
    """

    metadata = TaskSequence.metadata

    def __init__(self, seq: TaskSequence, info: Dict[str, Any]) -> None:
        self._seq, self._lib = seq, seq._lib
        self.index: int = info["index"]
        self.name: str = "%s #%d" % (info["name"], info["index"])
        self.family: str = info["family"]
        self.params: Dict[str, Any] = info["params"]
        self.terminal_states: List[int] = info["terminal_states"]
        self.simulator: bool = info["simulator"]
        self.observation_space = Discrete(info["n_states"])
        self.action_space = Discrete(info["n_actions"])
        self.max_episode_steps: int = seq.steps
        self.gamma: float = seq.gamma
        self.episodes: int = seq.episodes
        self.render_mode = seq.render_mode
        self.spec = seq.spec
        self.start: Optional[int] = None  # the start state of the episode in progress
        self._h = 0
        self._np_random: Optional[random.Random] = None
        self._reset = self._lib.steps.temple_env_reset
        self.step, self._restart, self._where = self._stepper()  # type: ignore

    @property
    def np_random(self) -> random.Random:
        """A random.Random for the caller's own draws (Gymnasium's env.np_random; temple's
        transitions draw from the runner's streams in the library): seeded by reset(seed)."""
        if self._np_random is None:
            self._np_random = random.Random(self._seq.seed)
        return self._np_random

    @property
    def unwrapped(self) -> "Task":
        """The environment itself (no wrappers)."""
        return self

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[int, Dict[str, Any]]:
        """Starts an episode: (start state, info). The first reset begins the task's streams
        where the runner begins them; later resets continue them, as the runner's episodes do.
        seed restarts them as those of an experiment with that seed (the tasks stay the
        sequence's), and seeds np_random. info: "task" (the index), the sequence's family, the
        task's name, task_family and params."""
        if seed is not None or not self._h:
            s = self._seq.seed if seed is None else check_seed(seed)
            self._open(s)
            if seed is not None:
                self._np_random = random.Random(s)
        s = self._reset(self._h)
        if s < 0:
            raise self._failure(s)
        self.start = s
        self._restart(self._h, s)
        return s, {"task": self.index, "family": self._seq.family, "name": self.name,
                   "task_family": self.family, "params": self.params}

    def step(self, action: int) -> Tuple[int, float, bool, bool, Dict[str, Any]]:
        """Takes action: (next state, reward, terminated, truncated, info). terminated: the next
        state is terminal; truncated: the episode reached its length (max_episode_steps) or a
        simulator's own time limit. Either ends the episode: the next call is reset. info holds
        "task" (the index) and "episode_step" (steps taken in the episode), and on a truncated
        step "truncated_by": "steps" (max_episode_steps) or "time limit" (the simulator's own).
        An action that is not an integer raises TypeError, a negative one ValueError, one beyond
        64 bits OverflowError. (Each task's step is made by _stepper.)"""
        raise NotImplementedError  # replaced in __init__ by the task's own step

    @property
    def state(self) -> Optional[int]:
        """The state the episode in progress is in (None before the first reset)."""
        return self._where()[1]

    @property
    def episode_step(self) -> int:
        """The steps taken in the episode in progress."""
        return self._where()[0]

    def _stepper(self) -> Tuple[Any, Any, Any]:
        """The task's step, and two functions that share its state: restart(handle, start) at a
        reset (or a close, with handle 0) and where() -> (episode step, state). step keeps what
        every step needs in its closure, so that a step is the foreign call and little else."""
        cstep, task, steps = self._lib.steps.temple_env_step, self.index, self.max_episode_steps
        terminal, cut, state_bits = TERMINATED, TRUNCATED, STATE
        reward = ctypes.c_double()
        rref = ctypes.byref(reward)
        failure = self._failure
        h, t, state = 0, 0, None

        def step(action: int) -> Tuple[int, float, bool, bool, Dict[str, Any]]:
            nonlocal t, state
            try:
                if action >> 63:  # negative, or beyond int64: ctypes would wrap it
                    raise OverflowError
                x = cstep(h, action, rref)
            except (OverflowError, TypeError, ctypes.ArgumentError):
                x = cstep(h, check_index(action, "action"), rref)
            if x < 0:
                raise failure(x)
            t += 1
            state = x & state_bits
            if x & cut:
                return state, reward.value, x & terminal != 0, True, {
                    "task": task, "episode_step": t, "truncated_by": "steps" if t >= steps else "time limit"}
            return state, reward.value, x & terminal != 0, False, {"task": task, "episode_step": t}

        def restart(handle: int, start: Optional[int]) -> None:
            nonlocal h, t, state
            h, t, state = handle, 0, start

        def where() -> Tuple[int, Optional[int]]:
            return t, state

        return step, restart, where

    def render(self) -> Optional[str]:
        """The episode as text: a maze's grid (top row y = height; A the agent, G a goal, L lava,
        # a wall, ~ a slippery cell, . another), any other task's state. With render_mode
        "ansi" it returns the text, with "human" prints it; without a render_mode, None."""
        if self.render_mode is None:
            return None
        text = "%s, episode step %d: " % (self.name, self.episode_step)
        if self.state is None:
            text += "no episode started (call reset)"
        elif self.family == "maze":
            text += "state %d\n%s" % (self.state, _maze_text(self.params, self.state))
        else:
            text += "state %d of %d" % (self.state, self.observation_space.n)
        if self.render_mode == "human":
            print(text)
            return None
        return text

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
        self._check(self._lib.temple_optimal_value(self._seq._h, self.index, check_index(state, "state"),
                                                   ctypes.byref(v)), seq=True)
        return v.value

    def close(self) -> None:
        """Frees the task's environment (reset opens a new one at the streams' beginning)."""
        if self._h:
            self._lib.temple_close(self._h)
            self._h = 0
            self._restart(0, None)

    def __repr__(self) -> str:
        return "<temple task %d of %s: %s, %d states, %d actions>" % (
            self.index, self._seq.family, self.name, self.observation_space.n, self.action_space.n)

    def _open(self, seed: int) -> None:
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


def _maze_text(maze: Dict[str, Any], state: int) -> str:
    """The grid of a maze task's definition (env.Maze's JSON) with the agent in state, top row
    first (up is y + 1; state = (x-1) + (y-1)·width)."""
    w, h = maze["width"], maze["height"]
    cells = {}
    for key, mark in [("walls", "#"), ("lava", "L"), ("goals", "G")]:  # a goal that is lava shows as a goal
        for x, y in maze.get(key) or []:
            cells[(x, y)] = mark
    slip = maze.get("slip") or []
    rows = []
    for y in range(h, 0, -1):
        row = ""
        for x in range(1, w + 1):
            i = (x - 1) + (y - 1) * w
            mark = cells.get((x, y), "~" if i < len(slip) and slip[i] > 0 else ".")
            row += "A" if i == state else mark
        rows.append(row)
    return "\n".join(rows)
